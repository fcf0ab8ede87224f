# shellcheck shell=bash disable=SC2034,SC2154
# Sourced by the GPU machine's scripts (gpu_check.sh, gpu_portable.sh): the
# GPU check, the log folder and the steps of a check run, each recorded for
# the short table they print last; with options_lib.sh's argument checks.
# Expects $logs (the log folder) and $bench (1 or 0); fills $results and sets
# failed=1 on a failure.

# shellcheck source=scripts/run_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../run_lib.sh"
# shellcheck source=scripts/options_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../options_lib.sh"
steps_repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

# require_gpu SCRIPT: sets $gpu to nvidia-smi's name, driver and memory line;
# without a GPU says so in one line and exits 1 (every step would otherwise
# pass vacuously, the GPU tests skipping, or fail on missing tools).
require_gpu() {
  if ! command -v nvidia-smi >/dev/null; then
    echo "$1: no GPU here: nvidia-smi is not installed (run this on a machine with an NVIDIA GPU and its driver)" >&2
    exit 1
  fi
  if ! gpu=$(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1) || [ -z "$gpu" ]; then
    echo "$1: no GPU here: nvidia-smi says: $(printf '%s\n' "$gpu" | grep -v '^[[:space:]]*$' | head -n 1)" >&2
    exit 1
  fi
}

# start_steps: creates the log folder and makes $logs absolute (run_lib.sh's
# use_log_folder), then moves to the repository's top. Sets
# jobs (the build's), no_bench (the option for the part scripts), results
# and failed; from here Ctrl-C or SIGTERM stops the running step at once.
start_steps() {
  use_log_folder
  cd "$steps_repo" || exit 1
  jobs=$(nproc 2>/dev/null || echo 4)
  no_bench=()
  [ "$bench" = 1 ] || no_bench=(--no-bench)
  results=()
  failed=0
  stop_on_signals
}

# step NAME LOGFILE COMMAND...: runs the command with its output in
# $logs/LOGFILE, records pass or fail and the time taken.
step() {
  local name=$1 file=$2 start=$SECONDS
  shift 2
  echo "== $name" >&2
  mkdir -p "$(dirname "$logs/$file")"
  run_program_in . 0 "$@" >"$logs/$file" 2>&1 </dev/null
  record_step "$name" $? "$start" "$file"
}

# function_step NAME LOGFILE FUNCTION ARGS...: the same for a shell function
# (whose programs run_program_in starts, so that a stop ends them at once).
function_step() {
  local name=$1 file=$2 start=$SECONDS
  shift 2
  echo "== $name" >&2
  mkdir -p "$(dirname "$logs/$file")"
  "$@" >"$logs/$file" 2>&1 </dev/null
  record_step "$name" $? "$start" "$file"
}

# record_step NAME STATUS START FILE: the step's row of the short table.
record_step() {
  local verdict=PASS
  if [ "$2" != 0 ]; then
    verdict=FAIL failed=1
    tail -n 20 "$logs/$4" >&2
  fi
  results+=("$(printf '%-48s %-5s %5ss  %s' "$1" "$verdict" $((SECONDS - $3)) "$4")")
}

# configure_and_build PART BUILD HOW CMAKE_ARGS...: the steps that configure
# (cmake CMAKE_ARGS, HOW says how) and build the folder BUILD, named
# "PART: configure (HOW)" and "PART: build", logs in PART/; without a PART
# plain "configure (HOW)" and "build", logs at the top.
configure_and_build() {
  local part=$1 build=$2 how=$3 name="" dir=""
  shift 3
  [ -z "$part" ] || name="$part: " dir="$part/"
  step "${name}configure ($how)" "${dir}configure.log" cmake "$@"
  step "${name}build" "${dir}build.log" cmake --build "$build" -j "$jobs"
}

# summary_start: the short summary's first lines: a blank line, the GPU.
summary_start() {
  echo
  echo "GPU: $gpu"
}

# summary_end: the table of steps and the log folder last; exits 0 when
# every step passed, else 1.
summary_end() {
  printf '%s\n' "${results[@]}"
  echo "logs: $logs"
  exit "$failed"
}
