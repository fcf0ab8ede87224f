#!/usr/bin/env bash
# The scan part's GPU check: builds cudaScan, scan_tests and scan_tune if needed,
# runs the scan tests with the GPU, compute-sanitizer (memcheck, racecheck,
# synccheck, initcheck) over small runs of every algorithm and both tests, memcheck
# past 2^24 items (the L2 prefetch), course timing at 10M and 40M, and --bench.
#
# Usage: scripts/dev/gpu_scan.sh BUILD_DIR LOG_DIR [--no-bench] [--no-tests] [--tune]
#   BUILD_DIR   a build folder (configured here for sm_90 Release if it has no cache)
#   LOG_DIR     where each step's full log goes
#   --no-bench  skip the timed runs and --bench
#   --no-tests  skip the plain scan_tests run (when ctest has just run it); the
#               run with the pipeline at every size still runs
#   --tune      also run scan_tune (the single-pass tilings)
# Prints a summary table last. Exit status: 0 when every step passed, 1 when
# one failed, 2 on usage errors, 130, 143 or 129 by SIGINT, SIGTERM or SIGHUP
# (every step stops at once).
set -uo pipefail

# shellcheck source=scripts/options_lib.sh
source "$(dirname "$0")/../options_lib.sh"
usage() { show_help; }
[ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ] && { usage; exit 0; }
[ $# -ge 2 ] || { echo "gpu_scan.sh: needs BUILD_DIR and LOG_DIR (try --help)" >&2; exit 2; }
build=$1 logs=$2
shift 2
bench=1 tune=0 tests=1
while [ $# -gt 0 ]; do
  case "$1" in
    --no-bench) bench=0 ;;
    --no-tests) tests=0 ;;
    --tune) tune=1 ;;
    *) echo "gpu_scan.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
  shift
done

cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=scripts/run_lib.sh
source scripts/run_lib.sh
use_log_folder
stop_on_signals
bin=$build/bin
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
jobs=$(nproc 2>/dev/null || echo 4)
results=()
failed=0

hung=0
record() {  # record NAME STATUS SECONDS LOGFILE
  local verdict=PASS
  [ "$2" -eq 124 ] && hung=1
  [ "$2" -eq 0 ] || { verdict=FAIL; failed=1; tail -n 15 "$logs/$4" >&2; }
  results+=("$(printf '%-64s %-4s %5ss  %s' "$1" "$verdict" "$3" "$4")")
}

# Each step's LIMIT: seconds (0: none) after which it fails; a time limit
# turns a hang (a look-back that never ends) into a failed step.
step() {  # step NAME LOGFILE LIMIT COMMAND...: one at a time
  local name=$1 file=$2 limit=$3 start=$SECONDS
  shift 3
  echo "== $name" >&2
  run_program_in . "$limit" "$@" >"$logs/$file" 2>&1 </dev/null
  record "$name" $? $((SECONDS - start)) "$file"
}

# Steps that measure nothing run side by side (the GPU holds them all); their
# names, logs and process ids wait here until collect().
pending_names=() pending_files=() pending_pids=() pending_start=0
background() {  # background NAME LOGFILE LIMIT COMMAND...
  local name=$1 file=$2 limit=$3
  shift 3
  echo "== $name (in parallel)" >&2
  start_program . "$limit" "$@" >"$logs/$file" 2>&1 </dev/null
  pending_names+=("$name") pending_files+=("$file") pending_pids+=($!)
}
collect() {
  local i
  for i in "${!pending_pids[@]}"; do
    wait_program "${pending_pids[$i]}"
    record "${pending_names[$i]}" $? $((SECONDS - pending_start)) "${pending_files[$i]}"
  done
  pending_names=() pending_files=() pending_pids=()
}

if [ ! -f "$build/CMakeCache.txt" ]; then
  step "configure $build (sm_90, Release)" scan-configure.log 0 \
    cmake -S . -B "$build" -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release
fi
step "build cudaScan scan_tests scan_tune" scan-build.log 0 \
  cmake --build "$build" --target cudaScan scan_tests scan_tune -j "$jobs"

if [ -x "$bin/cudaScan" ] && [ -x "$bin/scan_tests" ]; then
  pending_start=$SECONDS
  # Below their tuned sizes (tuning.h) the scan and find_repeats run the
  # register kernel where the pipeline could; SCAN_PIPELINE_FROM=0 holds the
  # pipeline to the small sizes too.
  # (ctest runs scan_tests with the tuned sizes only: --no-tests keeps this.)
  [ $tests = 1 ] && background "scan_tests (every algorithm, with the GPU)" scan-tests.log 150 \
    "$bin/scan_tests"
  background "scan_tests single-pass, the pipeline at every size" scan-tests-pipeline.log 150 \
    env SCAN_PIPELINE_FROM=0 "$bin/scan_tests" --gtest_filter='*single_pass*'

  for tool in memcheck racecheck synccheck initcheck; do
    for test in scan find_repeats; do
      background "sanitizer $tool: cudaScan -m $test -a all -n 100003" "scan-san-$tool-$test.log" 150 \
        "$sanitizer" --tool "$tool" --error-exitcode 1 "$bin/cudaScan" -m "$test" -a all -n 100003 -r 1
    done
    background "sanitizer $tool: find_repeats' pipeline at n = 100003" \
      "scan-san-$tool-repeats-pipeline.log" 150 env SCAN_PIPELINE_FROM=0 \
      "$sanitizer" --tool "$tool" --error-exitcode 1 "$bin/cudaScan" -m find_repeats \
      -a single-pass -n 100003 -r 1
  done
  # A size whose look-back crosses a 32-tile window (262144 items in Hopper's
  # pipeline; 131072 and 393216 in the register kernels of the scan and
  # find_repeats), for the checks of races and barriers.
  for tool in racecheck synccheck; do
    background "sanitizer $tool: cudaScan -a single-pass -n 600011 (look-back past a window)" \
      "scan-san-$tool-window.log" 150 bash -c "for t in scan find_repeats; do for p in '' 0; do \
        SCAN_PIPELINE_FROM=\$p '$sanitizer' --tool $tool --error-exitcode 1 '$bin/cudaScan' \
        -m \$t -a single-pass -n 600011 -r 1 || exit 1; done; done"
  done
  # Inputs of 2^24 items or more take the single-pass kernels' L2 prefetch.
  background "sanitizer memcheck: cudaScan -a single-pass -n 16777259 (prefetch)" \
    scan-san-memcheck-prefetch.log 150 bash -c "for t in scan find_repeats; do \
      '$sanitizer' --tool memcheck --error-exitcode 1 '$bin/cudaScan' -m \$t -a single-pass \
      -n 16777259 -r 1 || exit 1; done"
  background "sanitizer memcheck: cudaScan -a all, n = 1 and 5" scan-san-memcheck-tiny.log 150 \
    bash -c "for t in scan find_repeats; do for n in 1 5; do for p in '' 0; do \
      SCAN_PIPELINE_FROM=\$p '$sanitizer' --tool memcheck --error-exitcode 1 '$bin/cudaScan' \
      -m \$t -a all -n \$n -r 1 || exit 1; done; done; done"
  collect

  # After a hang the timed steps would only hang too.
  [ $hung = 1 ] && { echo "gpu_scan.sh: a step ran past its time limit; skipping the timed steps" >&2; bench=0; tune=0; }
  if [ $bench = 1 ]; then
    for test in scan find_repeats; do
      for n in 10000000 40000000; do
        step "course timing: cudaScan -m $test -i random -n $n" "scan-course-$test-$n.log" 40 \
          "$bin/cudaScan" -m "$test" -i random -n "$n"
        step "course timing: cudaScan -m $test -i random -n $n -t" "scan-course-$test-$n-t.log" 40 \
          "$bin/cudaScan" -m "$test" -i random -n "$n" -t
      done
    done
    step "bench: cudaScan --bench" scan-bench.log 120 "$bin/cudaScan" --bench
  fi
  [ $tune = 1 ] && step "tune: scan_tune" scan-tune.log 150 "$bin/scan_tune"
fi

echo
echo "scan on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1), logs in $logs"
printf '%s\n' "${results[@]}"
if [ $bench = 1 ] && [ -f "$logs/scan-bench.log" ]; then
  for f in "$logs"/scan-course-*.log; do
    [ -f "$f" ] && printf '  %-44s %s\n' "$(basename "$f" .log)" "$(grep -h "GPU time" "$f")"
  done
  sed -n '/^exclusive_scan,\|^find_repeats,/,$p' "$logs/scan-bench.log"
fi
[ $tune = 1 ] && [ -f "$logs/scan-tune.log" ] && cat "$logs/scan-tune.log"
[ $failed = 0 ] && echo "scan: all steps passed" || echo "scan: FAILED (see the logs above)"
exit $failed
