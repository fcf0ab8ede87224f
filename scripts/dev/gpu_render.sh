#!/usr/bin/env bash
# The CUDA renderer on the GPU machine: the exact check (-c, against the
# serial reference) of every scene in both modes at a size off and a size on
# the 16-pixel tile grid, compute-sanitizer memcheck and racecheck on small
# renders of every scene in both modes, the out-of-memory test that ctest
# leaves out, and (unless --no-bench) scripts/dev/bench_render.sh.
#
# Usage: scripts/dev/gpu_render.sh BUILD_DIR LOG_DIR [--no-bench]
# Writes LOG_DIR/summary.txt (the short table) and a log per run; exits 1
# when any check, sanitizer run or benchmark run fails or times out
# (GPU_RENDER_RUN_LIMIT seconds per run, default 900), 2 on usage errors,
# 130, 143 or 129 by SIGINT, SIGTERM or SIGHUP (every run stops at once).
set -uo pipefail

# shellcheck source=scripts/options_lib.sh
source "$(dirname "$0")/../options_lib.sh"
usage() { show_help; }
case "${1:-}" in -h|--help) usage; exit 0 ;; esac
[ $# -ge 2 ] || { usage >&2; exit 2; }
build=$1
logs=$2
shift 2
bench=1
for arg in "$@"; do
  case "$arg" in
    --no-bench) bench=0 ;;
    *) echo "gpu_render.sh: unknown argument '$arg' (try --help)" >&2; exit 2 ;;
  esac
done

# Its runs are waited for with wait -n -p (run_lib.sh's wait_any).
((BASH_VERSINFO[0] * 100 + BASH_VERSINFO[1] >= 501)) ||
  { echo "gpu_render.sh: needs bash 5.1 or newer (this is $BASH_VERSION)" >&2; exit 1; }

# Each run's time limit in seconds: racecheck follows every shared-memory
# access, which takes minutes on the million-circle scenes.
limit=${GPU_RENDER_RUN_LIMIT:-900}
[[ $limit =~ ^[1-9][0-9]*$ ]] || {
  echo "gpu_render.sh: GPU_RENDER_RUN_LIMIT must be a positive number of seconds, not '$limit'" >&2
  exit 2
}

root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/run_lib.sh
source "$root/scripts/run_lib.sh"
render=$build/bin/render
tests=$build/bin/render_cuda_tests
for program in "$render" "$tests"; do
  [ -x "$program" ] || { echo "gpu_render.sh: $program is not built" >&2; exit 2; }
done
command -v compute-sanitizer >/dev/null ||
  { echo "gpu_render.sh: compute-sanitizer is not on PATH (it comes with the CUDA Toolkit)" >&2; exit 2; }
use_log_folder check sanitize
results=$logs/results.txt
summary=$logs/summary.txt
: >"$results"

# Ctrl-C or SIGTERM stops every run at once; the summary would be an older
# run's or half written.
# shellcheck disable=SC2317  # run by stop_on_signals' traps
stopped() { rm -f -- "$summary"; }
stop_tidy=stopped
stop_on_signals

# Checks and sanitizer runs are independent: run several at once (the serial
# reference of the checks is the slow part).
jobs=$(nproc 2>/dev/null || echo 2)
[ "$jobs" -ge 1 ] || jobs=1

scenes=$("$render" --list | awk 'NR > 1 {print $1}')
animated=" bouncingballs hypnosis fireworks snow "

# record KIND NAME STATUS: appends "PASS|FAIL|TIMEOUT KIND NAME" to the
# results (a timeout counts as a failure).
record() {
  case $3 in
    0) echo "PASS $1 $2" >>"$results" ;;
    124) echo "TIMEOUT $1 $2" >>"$results" ;;
    *) echo "FAIL $1 $2" >>"$results" ;;
  esac
}

# Up to $jobs runs at once: start_run waits for a free place first; each
# run's KIND NAME by its process id until finish_run records it.
declare -A run_of=()
running=0
# finish_run: waits for the first run to end and records it.
finish_run() {
  local status
  wait_any
  status=$?
  running=$((running - 1))
  if [ -z "$ended_pid" ] || [ -z "${run_of[$ended_pid]:-}" ]; then
    # The shell lost a run's status: a failed record rather than none.
    echo "FAIL unknown-run (ended without a status, wait: $status)" >>"$results"
    return
  fi
  # shellcheck disable=SC2086  # KIND NAME, two words
  record ${run_of[$ended_pid]} "$status"
  unset "run_of[$ended_pid]"
}
# start_run KIND NAME LOG COMMAND...
start_run() {
  local kind=$1 name=$2 log=$3
  shift 3
  [ "$running" -lt "$jobs" ] || finish_run
  start_program . "$limit" "$@" >"$log" 2>&1 </dev/null
  run_of[$!]="$kind $name"
  running=$((running + 1))
}

for scene in $scenes; do
  frames=1
  case "$animated" in *" $scene "*) frames=3 ;; esac
  circles=$("$render" --list | awk -v s="$scene" '$1 == s {print $2}')
  for mode in tiled binned circles pixels tiles classic; do
    # circles is wrong on purpose: sanitized, never checked.
    [ "$mode" = circles ] || for size in 517 1024; do
      name="$scene-$mode-$size"
      start_run check "$name" "$logs/check/$name.log" \
        "$render" -r cuda --cuda-mode "$mode" -s "$size" -b "0:$frames" -c -f '' "$scene"
    done
    for tool in memcheck racecheck; do
      # Small renders: 67 pixels (a cut edge tile), one frame after setup's.
      # racecheck follows every shared-memory access and takes many minutes
      # on the 100k-circle and larger scenes even on one tile, so there it
      # draws their first 5,000 circles: the same kernels and code paths.
      first=()
      [ "$tool" = racecheck ] && [ "$circles" -ge 100000 ] && first=(--first 5000)
      # The ladder's rungs test every circle per pixel or tile: under memcheck too.
      case $mode in circles|pixels|tiles|classic) [ "$circles" -ge 100000 ] && first=(--first 5000) ;; esac
      name="$tool-$scene-$mode"
      start_run sanitize "$name" "$logs/sanitize/$name.log" compute-sanitizer --tool "$tool" \
        --error-exitcode 1 "$render" -r cuda --cuda-mode "$mode" -s 67 "${first[@]}" -b 0:1 -f '' "$scene"
    done
  done
done
while [ "$running" -gt 0 ]; do finish_run; done

run_program_in . "$limit" "$tests" --gtest_also_run_disabled_tests "--gtest_filter=*OutOfMemory*" \
  >"$logs/oom.log" 2>&1 </dev/null
record oom 4096-image $?

failed=0
grep -qE '^(FAIL|TIMEOUT)' "$results" && failed=1
{
  echo "CUDA renderer (scripts/dev/gpu_render.sh):"
  for kind in check sanitize oom; do
    pass=$(grep -c "^PASS $kind " "$results")
    fail=$(grep -c "^FAIL $kind " "$results")
    late=$(grep -c "^TIMEOUT $kind " "$results")
    printf '  %-9s %3d passed, %d failed, %d timed out (limit %ss)\n' "$kind" "$pass" "$fail" \
      "$late" "$limit"
  done
  grep -E '^(FAIL|TIMEOUT)' "$results" | sort | sed 's/^/  /'
  # The snow scenes' largest error, as the checks printed it.
  for log in "$logs"/check/snow*-1024.log; do
    [ -f "$log" ] && grep -H "Largest error" "$log" | sed "s|^$logs/check/|  |"
  done
} >"$summary"

if [ "$bench" = 1 ]; then
  run_program_in . 0 "$root/scripts/dev/bench_render.sh" "$build" --logs "$logs/bench" >"$logs/bench.txt" 2>&1 \
    </dev/null || failed=1
  cat "$logs/bench.txt" >>"$summary"
fi
cat "$summary"
exit $failed
