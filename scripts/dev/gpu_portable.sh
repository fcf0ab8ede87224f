#!/usr/bin/env bash
# The portable code paths on a Hopper GPU machine. Builds the suite as PTX
# only, for compute_75 (T4) and compute_80 (A100): the driver compiles that
# PTX for this GPU at load, so every kernel runs the code an older GPU runs
# (no bulk copies, no L2 bulk prefetch; shuffles for the warp sums on 75).
# On each such build it runs the whole test suite with the GPU, then
# scripts/dev/gpu_scan.sh and scripts/dev/gpu_render.sh (the -c checks, the
# sanitizers and the benchmarks); then the same benchmarks on the native
# build (build-gpu, preset gpu), so the speeds come from one run.
#
# Usage: scripts/dev/gpu_portable.sh [--logs DIR] [--arch N]... [--no-bench]
#   --logs DIR   where the logs go (default gpu-portable-logs)
#   --arch N     a compute capability to build as PTX, 75 or newer
#                (default: 75 and 80); repeatable
#   --no-bench   checks and sanitizers only, no benchmarks
# Builds into build-ptxN/. Prints a short table last. Exit status: 0 when
# every step passed, 1 otherwise, 2 on usage errors, 130, 143 or 129 when stopped
# by SIGINT, SIGTERM or SIGHUP (the running step at once).
set -uo pipefail

usage() { show_help; }
# shellcheck source=scripts/dev/gpu_steps.sh
source "$(dirname "$0")/gpu_steps.sh"
logs="gpu-portable-logs"
archs=()
bench=1
while [ $# -gt 0 ]; do
  case "$1" in
    --logs) need_folder "$@"; logs=$2; shift 2 ;;
    --arch)
      # Two or three digits, so a huge number is refused here, not by bash.
      if ! [[ "${2:-}" =~ ^[0-9]{2,3}$ ]] || [ "$2" -lt 75 ]; then
        echo "gpu_portable.sh: --arch needs a compute capability of 75 or more, e.g. 75" >&2; exit 2
      fi
      archs+=("$2"); shift 2 ;;
    --no-bench) bench=0; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "gpu_portable.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
done
[ ${#archs[@]} -gt 0 ] || archs=(75 80)
require_gpu gpu_portable.sh

start_steps
# Each test program compiles the PTX of the kernels it runs; a cache large
# enough for all of them compiles each kernel once per build.
export CUDA_CACHE_MAXSIZE=${CUDA_CACHE_MAXSIZE:-4294967296}

for arch in "${archs[@]}"; do
  build=build-ptx$arch
  configure_and_build "ptx$arch" "$build" "compute_$arch PTX only" \
    -S . -B "$build" -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CUDA_ARCHITECTURES=$arch-virtual"
  step "ptx$arch: tests (ctest, with the GPU)" "ptx$arch/ctest.log" \
    ctest --test-dir "$build" -j 4 --output-on-failure
  step "ptx$arch: scan sanitizers$([ $bench = 1 ] && echo ', bench')" "ptx$arch/scan.log" \
    scripts/dev/gpu_scan.sh "$build" "$logs/ptx$arch/scan" --no-tests "${no_bench[@]}"
  step "ptx$arch: render checks, sanitizers$([ $bench = 1 ] && echo ', bench')" "ptx$arch/render.log" \
    scripts/dev/gpu_render.sh "$build" "$logs/ptx$arch/render" "${no_bench[@]}"
done

if [ $bench = 1 ]; then
  configure_and_build native build-gpu "preset gpu" --preset gpu
  step "native: cudaScan --bench" native/scan-bench.log build-gpu/bin/cudaScan --bench
  step "native: render bench" native/render-bench.log scripts/dev/bench_render.sh build-gpu
fi

summary_start
for arch in "${archs[@]}"; do
  [ -f "$logs/ptx$arch/ctest.log" ] &&
    echo "ptx$arch ctest: $(grep -E 'tests passed|tests failed' "$logs/ptx$arch/ctest.log" | tail -n 1)"
done
if [ $bench = 1 ]; then
  # The same benchmarks of every build, one after the other.
  for build in "${archs[@]/#/ptx}" native; do
    scan_log=$logs/$build/scan/scan-bench.log render_log=$logs/$build/render/bench.txt
    [ "$build" = native ] && scan_log=$logs/native/scan-bench.log render_log=$logs/native/render-bench.log
    echo "-- $build: cudaScan --bench"
    [ -f "$scan_log" ] && sed -n '/^exclusive_scan,\|^find_repeats,/,$p' "$scan_log"
    echo "-- $build: render bench"
    [ -f "$render_log" ] && cat "$render_log"
  done
fi
summary_end
