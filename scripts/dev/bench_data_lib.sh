# shellcheck shell=bash disable=SC2034  # sets run_lib.sh's stop_note and the caller's work, data_commit, data_machine
# The --data FILE of the benchmarks whose CSV a measurement page shows
# (docs/data/README.md), sourced by bench_render.sh, bench_scan.sh,
# bench_saxpy.sh and bench_cpu_render.sh after
# run_lib.sh's stop_on_signals. The CSV is made in a temporary file beside
# FILE, made before anything runs so that a path that cannot be written is
# refused at once, and moved into place only when every run succeeded:
# FILE is never half written, and a failed or stopped run leaves it as it
# was.

data_partial=""

# data_open SCRIPT FILE: makes the temporary file beside FILE, or says
# "SCRIPT: --data: cannot write FILE" and exits 1. A stop from now on says
# that FILE is left as it was; the caller's EXIT trap runs data_discard.
data_open() {
  if [ -d "$2" ] || { [ -e "$2" ] && [ ! -w "$2" ]; } ||
    ! data_partial=$(mktemp "$2.XXXXXX" 2>/dev/null); then
    data_partial=""
    echo "$1: --data: cannot write $2" >&2
    exit 1
  fi
  stop_note=": $2 is left as it was"
}

# data_discard: removes the temporary file, if any (the EXIT trap's).
data_discard() { [ -z "$data_partial" ] || rm -f -- "$data_partial"; }

# data_where ROOT: sets data_commit (the short commit of ROOT, or unknown)
# and data_machine (the GPU's name as nvidia-smi gives it, or unknown), the
# last two columns of every row.
data_where() {
  data_commit=$(git -C "$1" rev-parse --short HEAD 2>/dev/null) || data_commit=unknown
  data_machine=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)
  [ -n "$data_machine" ] || data_machine=unknown
}

# data_finish SCRIPT FILE: moves the temporary file into place as FILE and
# says so on stderr; returns 1, saying why, when it cannot.
data_finish() {
  if chmod 644 "$data_partial" && mv -f -- "$data_partial" "$2"; then
    data_partial=""
    echo "$1: wrote $2" >&2
  else
    echo "$1: --data: cannot write $2" >&2
    return 1
  fi
}

# bench_start SCRIPT FILE: the work folder ($work, removed at exit with the
# temporary file), the stop at once on a signal (run_lib.sh), and with a
# FILE, data_open.
bench_start() {
  work=$(mktemp -d) || exit 1
  trap 'data_discard; rm -rf -- "$work"' EXIT
  stop_on_signals
  [ -z "$2" ] || data_open "$1" "$2"
}

# bench_run SCRIPT FILE LABEL PROGRAM ARG...: runs PROGRAM, its stdout kept
# in $work/out and then printed; exits 1 when it fails, saying "SCRIPT:
# LABEL failed (exit status N)" and, with a FILE, that it is left as it was.
bench_run() {
  local me=$1 data=$2 label=$3 status
  shift 3
  run_program_in . 0 "$@" >"$work/out"
  status=$?
  cat "$work/out"
  if [ $status -ne 0 ]; then
    echo "$me: $label failed (exit status $status)${data:+, so $data is left as it was}" >&2
    exit 1
  fi
}
