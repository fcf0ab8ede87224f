#!/usr/bin/env bash
# The GPU machine's one command: configure for sm_90, build, run the whole
# test suite with the GPU, run compute-sanitizer over small runs of each
# program, run the benchmarks, and print a short table last.
#
# Usage: scripts/dev/gpu_check.sh [--logs DIR] [--no-bench] [--grade] [--only PART...]
#   --logs DIR   where the full logs go (default: $GPU_CHECK_LOGS, else gpu-check-logs)
#   --no-bench   skip the benchmarks
#   --grade      also run scripts/grade.sh all (several minutes: serial references)
#   --only PART  run only the sections of these parts (saxpy, scan, render); repeatable
# Exit status: 0 when every step passed, 1 otherwise, 2 on usage errors,
# 130, 143 or 129 by SIGINT, SIGTERM or SIGHUP (the running step at once).
set -uo pipefail

# shellcheck source=scripts/dev/gpu_steps.sh
source "$(dirname "$0")/gpu_steps.sh"
logs=${GPU_CHECK_LOGS:-gpu-check-logs}
bench=1
grade=0
only=()
while [ $# -gt 0 ]; do
  case "$1" in
    --logs) need_folder "$@"; logs=$2; shift 2 ;;
    --no-bench) bench=0; shift ;;
    --grade) grade=1; shift ;;
    --only)
      [ $# -ge 2 ] || { echo "gpu_check.sh: --only needs a part" >&2; exit 2; }
      case "$2" in saxpy|scan|render) ;; *) echo "gpu_check.sh: --only: unknown part '$2' (saxpy, scan, render)" >&2; exit 2 ;; esac
      only+=("$2"); shift 2 ;;
    -h|--help) show_help; exit 0 ;;
    *) echo "gpu_check.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
done

require_gpu gpu_check.sh

start_steps
build="build-gpu"
bin=$build/bin

wanted() {
  [ ${#only[@]} -eq 0 ] && return 0
  local p
  for p in "${only[@]}"; do [ "$p" = "$1" ] && return 0; done
  return 1
}

# Without compute-sanitizer the sanitizer runs are one failed step, whose
# log says why; returns 0 then, so the caller skips them.
no_sanitizer() {  # no_sanitizer NAME
  command -v compute-sanitizer >/dev/null && return 1
  step "$1: no compute-sanitizer" no-compute-sanitizer.log \
    sh -c 'echo "compute-sanitizer is not on PATH (it comes with the CUDA Toolkit: add its bin folder)"; exit 1'
  return 0
}

# A program the build did not produce is a failed step, not a skipped section.
missing() {  # missing NAME PROGRAM
  [ -x "$2" ] && return 1
  step "$1: $(basename "$2") was not built" "missing-$(basename "$2").log" false
}

printf '%s\n' "$gpu" >"$logs/gpu.txt"
configure_and_build "" "$build" "preset gpu" --preset gpu
step "tests (ctest, with the GPU)" ctest.log ctest --preset gpu --output-on-failure

if wanted saxpy && ! missing saxpy "$bin/cudaSaxpy"; then
  no_sanitizer saxpy || for tool in memcheck racecheck initcheck synccheck; do
    # Small chunks so the tuned trip's streams and events are exercised.
    step "sanitizer $tool: cudaSaxpy -n 100003 --chunk 4099" "san-saxpy-$tool.log" \
      compute-sanitizer --tool "$tool" --error-exitcode 1 "$bin/cudaSaxpy" -n 100003 -r 1 --chunk 4099
  done
  [ $bench = 1 ] && step "bench: cudaSaxpy -n 100000000" bench-saxpy.log "$bin/cudaSaxpy" -n 100000000 -r 5
  # The tuned trip's chunk size, swept around the default (8388608).
  if [ $bench = 1 ]; then
    for c in 2097152 4194304 16777216; do
      step "bench: cudaSaxpy -v tuned --chunk $c" "bench-saxpy-chunk-$c.log" \
        "$bin/cudaSaxpy" -n 100000000 -r 5 -v tuned --chunk $c
    done
  fi
fi

if wanted scan && ! missing scan "$bin/cudaScan"; then
  step "scan: tests, sanitizers$([ $bench = 1 ] && echo ', bench')" scan.log \
    scripts/dev/gpu_scan.sh "$build" "$logs/scan" --no-tests "${no_bench[@]}"
fi

if wanted render && ! missing render "$bin/render"; then
  # racecheck on the million-circle scenes runs for many minutes: cap each run
  # so the whole check fits in one sitting (a timeout counts as a failure).
  export GPU_RENDER_RUN_LIMIT=${GPU_RENDER_RUN_LIMIT:-300}
  step "render: sanitizers$([ $bench = 1 ] && echo ', bench')" render.log \
    scripts/dev/gpu_render.sh "$build" "$logs/render" "${no_bench[@]}"
fi

if [ $grade = 1 ]; then
  step "grade: all tables" grade.log scripts/grade.sh all --build-dir "$build" --no-build \
    --logs "$logs/grade"
fi

# The short table comes last so it is the end of the output.
summary_start
[ -f "$logs/ctest.log" ] && grep -E "tests passed|tests failed" "$logs/ctest.log" | tail -n 1
[ -f "$logs/bench-saxpy.log" ] && sed -n '/^Summary/,$p' "$logs/bench-saxpy.log"
for f in "$logs"/bench-saxpy-chunk-*.log; do
  [ -f "$f" ] && grep -E '^tuned |chunks of' "$f"
done
[ -f "$logs/scan.log" ] && sed -n '/^scan on /,$p' "$logs/scan.log"
for f in "$logs"/render/summary.txt "$logs"/grade/results.md; do [ -f "$f" ] && cat "$f"; done
summary_end
