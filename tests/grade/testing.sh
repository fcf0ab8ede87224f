# shellcheck shell=bash
# Assertions for the grading tests: each prints a line only when it fails,
# and finish prints "N passed, M failed" and sets the exit status.

passed=0
failed=0
skipped=0

# skip_part REASON: a part of the test that cannot run on this machine. It
# is said, and a test that skipped a part ends as skipped (77, each test's
# SKIP_RETURN_CODE), not as passed.
skip_part() {
  skipped=$((skipped + 1))
  printf 'SKIPPED: %s\n' "$1"
}

pass() { passed=$((passed + 1)); }

fail() {
  failed=$((failed + 1))
  printf 'FAIL: %s\n' "$1"
  [ -z "${2:-}" ] || printf '%s\n' "$2" | sed 's/^/    /'
}

# expect_eq NAME WANT GOT
expect_eq() {
  if [ "$2" = "$3" ]; then pass; else fail "$1" "want: $2"$'\n'"got:  $3"; fi
}

# expect_match NAME ERE TEXT: TEXT has a line matching ERE.
expect_match() {
  if grep -Eq -- "$2" <<<"$3"; then pass; else fail "$1" "no line matches: $2"$'\n'"in:"$'\n'"$3"; fi
}

# expect_no_match NAME ERE TEXT: no line of TEXT matches ERE.
expect_no_match() {
  if grep -Eq -- "$2" <<<"$3"; then fail "$1" "a line matches: $2"$'\n'"in:"$'\n'"$3"; else pass; fi
}

# finish: the summary line; exit status 1 when anything failed, else 77
# when a part was skipped.
finish() {
  echo "$passed passed, $failed failed$([ "$skipped" -eq 0 ] || echo ", $skipped parts skipped")"
  [ "$failed" -eq 0 ] || return 1
  [ "$skipped" -eq 0 ] || return 77
}

# foreign_program DEST: a copy of bash at DEST whose ELF header says it was
# built for another architecture (aarch64, or x86-64 on an aarch64 machine),
# as a course binary of the wrong kind.
foreign_program() {
  local other=b7
  cp "$(readlink -f "$BASH")" "$1"
  [ "$(od -An -tx1 -j18 -N1 "$1" | tr -d ' ')" != b7 ] || other=3e
  printf '%b' "\\x$other\\x00" | dd of="$1" bs=1 seek=18 conv=notrunc 2>/dev/null
}

# judge_test_start WORKER: for the judge's script tests: skips (77) without
# bubblewrap, makes the temporary folder, sets asan to 1 when WORKER (a
# program) was built with AddressSanitizer (else 0), and memory_limit for
# the judge's --memory-limit: MiB, or 0 under ASan, whose shadow memory
# counts as data.
# shellcheck disable=SC2034  # asan and memory_limit are the calling test's
judge_test_start() {
  if ! command -v bwrap >/dev/null; then
    echo "SKIPPED: bubblewrap is not installed (scripts/setup.sh --tests installs it)"
    exit 77
  fi
  use_temp_folder
  asan=0
  if grep -q __asan_init "$1"; then asan=1; fi
  memory_limit=1024
  if [ "$asan" = 1 ]; then memory_limit=0; fi
}

# use_temp_folder: sets tmp to a new folder, removed when the test exits.
use_temp_folder() {
  tmp=$(mktemp -d)
  # shellcheck disable=SC2064  # the folder's name now, not at exit
  trap "rm -rf '$tmp'" EXIT
}

# fake_programs DIR PROGRAM...: DIR holding the fakes of fake/ by these names.
fake_programs() {
  local dir=$1 program
  shift
  mkdir -p "$dir"
  for program in "$@"; do ln -s "$(dirname "${BASH_SOURCE[0]}")/fake/$program" "$dir/$program"; done
}

# need_judge: the test ends here, skipped (77), without the real judge
# (JUDGE_PROGRAM, the build's, which ctest names): the stand-in scores
# every row with it (judge score), as the grader does.
need_judge() {
  [ -x "${JUDGE_PROGRAM:-}" ] && return 0
  echo "SKIPPED: the judge is not built (JUDGE_PROGRAM: '${JUDGE_PROGRAM:-}'); the grader scores every row with it"
  exit 77
}

# fake_judge DIR: DIR holding the judge's stand-in (fake/judge) and the
# workers grade.sh names to it: files that run nothing (the stand-in reads
# only their names).
fake_judge() {
  need_judge
  fake_programs "$1" judge
  fake_judge_workers "$1"
}

# fake_judge_workers DIR: stand-ins for the judge's workers in DIR (only the
# judge's stand-in names them).
fake_judge_workers() {
  local dir=$1 worker
  for worker in scan_worker judge_scan_reference judge_calibration_worker judge_scan_rung_kogge-stone \
    render_worker judge_render_cpu judge_render_serial judge_render_rung_circles judge_render_rung_pixels \
    judge_render_rung_tiles judge_render_rung_classic judge_render_reference judge_render_rung_tiled judge_render_rung_binned \
    judge_render_rung_auto \
    judge_scan_rung_blelloch judge_scan_rung_single-pass judge_scan_rung_cub \
    saxpy_worker judge_saxpy_rung_course judge_saxpy_rung_tuned judge_render_empty judge_render_empty_host; do
    printf '#!/bin/sh\necho "a stand-in worker: only the judge'"'"'s stand-in names it" >&2\nexit 2\n' >"$dir/$worker"
    chmod +x "$dir/$worker"
  done
}

# quiet_machine: grade.sh sees a quiet machine whatever else runs here (its
# serial time cache depends on the load).
quiet_machine() {
  echo "0.10 0.10 0.10 1/100 1" >"$tmp/quiet-load"
  export GRADE_LOADAVG_FILE=$tmp/quiet-load
}

# copy_grader DIR: scripts/grade.sh and the scripts it sources (grade_lib.sh's
# GRADE_FILES), copied into DIR, and what else it reads (GRADE_DATA) into
# DIR/.. as in the suite.
copy_grader() {
  local scripts files data path
  scripts=$(dirname "${BASH_SOURCE[0]}")/../../scripts
  # Read in a shell of its own: the test keeps its own functions.
  # shellcheck disable=SC2016  # expanded by that shell
  mapfile -t files < <(bash -c 'source "$1" && printf "%s\n" "${GRADE_FILES[@]}"' grade_lib "$scripts/grade_lib.sh")
  # shellcheck disable=SC2016  # expanded by that shell
  mapfile -t data < <(bash -c 'source "$1" && printf "%s\n" "${GRADE_DATA[@]}"' grade_lib "$scripts/grade_lib.sh")
  cp -R -- "${files[@]/#/$scripts/}" "$1/"
  for path in "${data[@]}"; do
    mkdir -p -- "$1/../$(dirname -- "$path")" && cp -- "$scripts/../$path" "$1/../$path"
  done
}

# A pause no other process on the machine uses, for stand-in programs that
# wait to be stopped (this test's id in it: two tests may run at once).
pause=47.$$

# pauses: the ids of the processes running "sleep $pause", found in /proc
# (not with pgrep: without procps a check that none is left would pass
# whatever runs).
# Builtins only: a program started per process would make each look cost
# hundreds of forks, which on 2 cores slows every test running beside it.
pauses() {
  local dir comm
  local -a words
  for dir in /proc/[0-9]*; do
    { read -r comm <"$dir/comm"; } 2>/dev/null || continue
    [ "$comm" = sleep ] || continue
    { mapfile -d '' -t words <"$dir/cmdline"; } 2>/dev/null || continue
    [ "${words[*]}" != "sleep $pause" ] || echo "${dir#/proc/}"
  done
}

# have_proc: whether there is a /proc to find processes in; need_proc skips
# the test (status 77) where there is none.
have_proc() { [ -r /proc/self/cmdline ]; }
need_proc() { have_proc || { echo "no /proc to find processes in: skipped"; exit 77; }; }

# stop_while_paused NAME SIGNAL WANT COMMAND...: runs COMMAND as a job of its
# own (so it gets SIGINT as from a terminal's Ctrl-C: without job control
# bash starts background jobs ignoring SIGINT), sends it SIGNAL once a
# program of its pauses, and checks that it exits with WANT within 5 s,
# leaving no pause. STOP_OUT and STOP_ERR are its stdout and stderr.
stop_while_paused() {
  local name=$1 signal=$2 want=$3 pid i start status left
  shift 3
  set -m
  "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" &
  pid=$!
  set +m
  for ((i = 0; i < 200; i++)); do
    [ -z "$(pauses)" ] || break
    sleep 0.05
  done
  # shellcheck disable=SC2034  # read by the tests
  STOP_OUT="" STOP_ERR=""
  if [ -z "$(pauses)" ]; then
    fail "$name: nothing paused" "$(cat "$tmp/$name.err")"
    kill "$pid"
    wait "$pid"
    return
  fi
  sleep 0.3
  start=$SECONDS
  kill -s "$signal" "$pid"
  wait "$pid"
  status=$?
  # shellcheck disable=SC2034  # read by the tests
  STOP_OUT=$(cat "$tmp/$name.out") STOP_ERR=$(cat "$tmp/$name.err")
  expect_eq "$name: exit status" "$want" "$status"
  if [ $((SECONDS - start)) -le 5 ]; then pass; else fail "$name: stopped at once (took $((SECONDS - start)) s)"; fi
  left=$(pauses)
  expect_eq "$name: no program left" "" "$left"
  # shellcheck disable=SC2086  # one id a word
  [ -z "$left" ] || kill $left
}
