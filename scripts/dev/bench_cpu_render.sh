#!/usr/bin/env bash
# The CPU renderer's speedup over the serial reference renderer, on rand10k
# and rand100k at 1024x1024 (or the given scenes), measured in one run, with
# the number of hardware threads. A benchmark: other load on the machine
# shows in the numbers, so run it on an otherwise idle machine.
#
# Usage: scripts/dev/bench_cpu_render.sh [-s SIZE] [-n FRAMES] [SCENE...]
#   BUILD_DIR (default: build) is the build folder; it is configured with the
#   default preset if it has not been, and render_bench_cpu is built in it.
# Exit status: 0 when every image matched the reference, 1 otherwise or on
# build failure, 2 on usage errors.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${BUILD_DIR:-$root/build}
case "${1:-}" in
  -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac

if [[ ! -f $build/CMakeCache.txt ]]; then
  echo "configuring $build" >&2
  cmake --preset default -S "$root" -B "$build" >/dev/null
fi
echo "building render_bench_cpu in $build" >&2
cmake --build "$build" --target render_bench_cpu -j"$(nproc 2>/dev/null || echo 2)" >/dev/null

echo "Machine: $(nproc) cores available to this process, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ //')"
echo "Load average before the run: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
"$build/bin/render_bench_cpu" "$@"
