#!/usr/bin/env bash
# The CPU renderer's speedup over the serial reference renderer, on rand10k
# and rand100k at 1024x1024 (or the given scenes), measured in one run, with
# the number of hardware threads. A benchmark: other load on the machine
# shows in the numbers, so run it on an otherwise idle machine.
#
# Usage: scripts/dev/bench_cpu_render.sh [--data FILE] [-s SIZE] [-n FRAMES] [SCENE...]
#   BUILD_DIR (default: build) is the build folder; it is configured with the
#   default preset if it has not been, and render_bench_cpu is built in it.
#   --data FILE  also write the table as CSV to FILE (docs/data/README.md),
#                with the commit and the CPU model; written only when every
#                image matched, else left as it was; not with -k
# Exit status: 0 when every image matched the reference, 1 otherwise or on
# build failure or when FILE cannot be written, 2 on usage errors.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${BUILD_DIR:-$root/build}
case "${1:-}" in
  -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
data=""
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --data)
      [ $# -ge 2 ] || { echo "bench_cpu_render.sh: --data needs a file" >&2; exit 2; }
      data=$2; shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
if [ -n "$data" ] && [[ " ${args[*]-} " == *" -k "* ]]; then
  echo "bench_cpu_render.sh: -k times nothing: no --data with it" >&2
  exit 2
fi

# The CSV's temporary file (made now: an unwritable path is refused before
# the build), the stop on a signal and the work folder (bench_data_lib.sh).
# shellcheck source=scripts/run_lib.sh
source "$root/scripts/run_lib.sh"
# shellcheck source=scripts/dev/bench_data_lib.sh
source "$root/scripts/dev/bench_data_lib.sh"
bench_start bench_cpu_render.sh "$data"
out=$work/out

if [[ ! -f $build/CMakeCache.txt ]]; then
  echo "configuring $build" >&2
  cmake --preset default -S "$root" -B "$build" >/dev/null
fi
echo "building render_bench_cpu in $build" >&2
cmake --build "$build" --target render_bench_cpu -j"$(nproc 2>/dev/null || echo 2)" >/dev/null

model=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ //') || model=""
echo "Machine: $(nproc) cores available to this process, $model"
echo "Load average before the run: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
if [ -z "$data" ]; then
  status=0
  run_program_in . 0 "$build/bin/render_bench_cpu" "${args[@]}" || status=$?
  exit "$status"
fi
status=0
"$build/bin/render_bench_cpu" "${args[@]}" | tee "$out" || status=$?
if [ "$status" != 0 ]; then
  echo "bench_cpu_render.sh: not every image matched, so $data is left as it was" >&2
  exit "$status"
fi
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null) || commit=unknown
# The program's table (render/bench/bench_cpu_render.cpp) in the page's
# columns: the multithreaded run's thread count names two of them.
awk -v commit="$commit" -v model="${model:-unknown}" '
  /^Hardware threads: / { cores = $3 + 0; threads = $0; sub(/.*multithreaded run: /, "", threads); threads += 0 }
  $1 == "scene" && $2 == "cpuref" {
    printf "scene,cpuref ms,cpu 1 thread ms,cpu %d threads ms,speedup 1 thread,speedup %d threads,commit,machine\n", threads, threads
    table = 1; next
  }
  table && NF >= 9 {
    machine = model " (" cores " cores)"
    if (machine ~ /[",]/) { gsub(/"/, "\"\"", machine); machine = "\"" machine "\"" }
    printf "%s,%s,%s,%s,%s,%s,%s,%s\n", $1, $2, $3, $4, $6, $7, commit, machine
  }' "$out" >"$data_partial"
if [ "$(wc -l <"$data_partial")" -lt 2 ]; then
  echo "bench_cpu_render.sh: no table in render_bench_cpu's output, so $data is left as it was" >&2
  exit 1
fi
data_finish bench_cpu_render.sh "$data"
