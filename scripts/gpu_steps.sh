# shellcheck shell=bash disable=SC2034,SC2154
# Sourced by the GPU machine's scripts (gpu_check.sh, gpu_portable.sh): their
# shared argument check, the GPU check, and one step of a check run,
# recorded for the short table they print last.
# Expects $logs (the log folder); fills $results and sets failed=1 on a failure.

# need_logs_folder SCRIPT --logs VALUE...: a usage error (one line, exit 2)
# unless VALUE is a folder name: not missing, empty or another option.
need_logs_folder() {
  if [ $# -lt 3 ] || [ -z "$3" ] || [[ $3 == -* ]]; then
    echo "$1: --logs needs a folder" >&2
    exit 2
  fi
}

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

# step NAME LOGFILE COMMAND...: runs the command with its output in
# $logs/LOGFILE, records pass or fail and the time taken.
step() {
  local name=$1 file=$2 start=$SECONDS
  shift 2
  echo "== $name" >&2
  mkdir -p "$(dirname "$logs/$file")"
  if "$@" >"$logs/$file" 2>&1; then
    results+=("$(printf '%-48s %-5s %5ss  %s' "$name" PASS $((SECONDS - start)) "$file")")
  else
    results+=("$(printf '%-48s %-5s %5ss  %s' "$name" FAIL $((SECONDS - start)) "$file")")
    failed=1
    tail -n 20 "$logs/$file" >&2
  fi
}
