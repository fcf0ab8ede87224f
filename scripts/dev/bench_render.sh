#!/usr/bin/env bash
# The CUDA renderer's benchmark: for each scene with a speed target, the
# printed Total per frame (clear + advance + render) of
#   render -r cuda --cuda-mode MODE -s SIZE -b 0:4 -f '' SCENE
# best of RUNS runs, per mode, next to the target (docs/design/cuda_renderer.md).
#
# Usage: scripts/dev/bench_render.sh BUILD_DIR [--modes "auto tiled binned"]
#                                [--runs N] [--size N] [--logs DIR]
#   --modes  the --cuda-mode values to time (default "auto tiled binned");
#            the first one is compared with the targets
#   --runs   runs per scene and mode, the best counts (default 3)
#   --size   image side (default 1024, the size the targets are for)
#   --logs   keep every run's output there
# Prints the table; exits 1 when a run fails, 2 on usage errors. Missing a
# target is reported in the table, not as a failure.
set -uo pipefail

usage() { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; }
[ $# -ge 1 ] || { usage >&2; exit 2; }
case "$1" in -h|--help) usage; exit 0 ;; esac
build=$1
shift
modes="auto tiled binned"
runs=3
size=1024
logs=""
while [ $# -gt 0 ]; do
  case "$1" in
    --modes|--runs|--size|--logs)
      [ $# -ge 2 ] || { echo "bench_render.sh: $1 needs a value" >&2; exit 2; }
      case "$1" in --modes) modes=$2 ;; --runs) runs=$2 ;; --size) size=$2 ;; --logs) logs=$2 ;; esac
      shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "bench_render.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
done
[[ $runs =~ ^[1-9][0-9]{0,2}$ ]] || { echo "bench_render.sh: --runs: '$runs' is not 1 to 999" >&2; exit 2; }
[[ $size =~ ^[1-9][0-9]{0,4}$ ]] || { echo "bench_render.sh: --size: '$size' is not a size in pixels" >&2; exit 2; }
for m in $modes; do
  case "$m" in auto|tiled|binned) ;; *) echo "bench_render.sh: --modes: unknown mode '$m' (auto, tiled, binned)" >&2; exit 2 ;; esac
done
render=$build/bin/render
[ -x "$render" ] || { echo "bench_render.sh: $render is not built" >&2; exit 2; }
[ -n "$logs" ] && { mkdir -p "$logs" || exit 1; }

# Scene and target in ms per frame at 1024x1024 on an H200.
targets="rgb:0.035 pattern:0.045 rand10k:0.20 rand100k:1.0 biglittle:1.3 littlebig:1.3
rand1M:1.25 micro2M:0.65 snowsingle:1.0"

failed=0
header=$(printf '%-11s %9s' scene target)
for mode in $modes; do header+=$(printf ' %9s' "$mode"); done
printf '%s  %-7s %s\n' "$header" chosen "vs target (${modes%% *}, ms per frame, best of $runs, ${size}x${size})"

for entry in $targets; do
  scene=${entry%%:*}
  target=${entry#*:}
  line=$(printf '%-11s %9s' "$scene" "$target")
  first=""
  chosen="-"
  for mode in $modes; do
    best=""
    for run in $(seq 1 "$runs"); do
      out=$("$render" -r cuda --cuda-mode "$mode" -s "$size" -b 0:4 -f '' "$scene" 2>&1)
      status=$?
      [ -n "$logs" ] && printf '%s\n' "$out" >"$logs/$scene-$mode-$run.log"
      total=$(printf '%s\n' "$out" | awk '/^Total:/ {print $2}')
      if [ $status -ne 0 ] || [ -z "$total" ]; then
        echo "bench_render.sh: $scene --cuda-mode $mode failed:" >&2
        printf '%s\n' "$out" | tail -n 5 >&2
        failed=1
        continue
      fi
      if [ -z "$best" ] || awk -v a="$total" -v b="$best" 'BEGIN {exit !(a < b)}'; then
        best=$total
        [ "$mode" = auto ] && chosen=$(printf '%s\n' "$out" | awk '/^CUDA mode:/ {print $3}' | tr -d ,)
      fi
    done
    line+=$(printf ' %9s' "${best:-failed}")
    [ -z "$first" ] && first=${best:-}
  done
  verdict="-"
  if [ -n "$first" ]; then
    verdict=$(awk -v t="$first" -v g="$target" \
      'BEGIN {printf "%.2fx %s", t / g, (t <= g ? "met" : "MISSED")}')
  fi
  printf '%s  %-7s %s\n' "$line" "$chosen" "$verdict"
done
exit $failed
