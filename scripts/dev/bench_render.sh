#!/usr/bin/env bash
# The CUDA renderer's benchmark: for each scene with a speed target, the
# printed Total per frame (clear + advance + render) of
#   render -r cuda --cuda-mode MODE -s SIZE -b 0:4 -f '' SCENE
# best of RUNS runs, per mode, next to the target (docs/design/cuda_renderer.md).
#
# Usage: scripts/dev/bench_render.sh BUILD_DIR [--modes "auto tiled binned"]
#                                [--runs N] [--size N] [--logs DIR] [--data FILE]
#   --modes  the --cuda-mode values to time (default "auto tiled binned");
#            the first one is compared with the targets
#   --runs   runs per scene and mode, the best counts (default 3)
#   --size   image side (default 1024, the size the targets are for)
#   --logs   keep every run's output there
#   --data   also write the table as CSV to FILE (docs/data/README.md), with
#            both rounds' targets, the commit and the GPU; written only when
#            every run succeeded, else left as it was
# Prints the table; exits 1 when a run fails or FILE cannot be written, 2 on
# usage errors. Missing a target is reported in the table, not as a failure.
set -uo pipefail

usage() { sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; }
[ $# -ge 1 ] || { usage >&2; exit 2; }
case "$1" in -h|--help) usage; exit 0 ;; esac
build=$1
shift
modes="auto tiled binned"
runs=3
size=1024
logs=""
data=""
while [ $# -gt 0 ]; do
  case "$1" in
    --modes|--runs|--size|--logs|--data)
      [ $# -ge 2 ] || { echo "bench_render.sh: $1 needs a value" >&2; exit 2; }
      case "$1" in --modes) modes=$2 ;; --runs) runs=$2 ;; --size) size=$2 ;; --logs) logs=$2 ;; --data) data=$2 ;; esac
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

# The CSV's temporary file, the stop on a signal and the work folder
# (bench_data_lib.sh): FILE is never half written, and a failed or stopped
# run leaves it as it was.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=scripts/run_lib.sh
source "$root/scripts/run_lib.sh"
# shellcheck source=scripts/dev/bench_data_lib.sh
source "$root/scripts/dev/bench_data_lib.sh"
bench_start bench_render.sh "$data"

# csv FIELD...: one CSV line, a field holding a comma or a quote quoted.
csv() {
  local field line="" sep=""
  for field in "$@"; do
    [[ $field == *[,\"]* ]] && field="\"${field//\"/\"\"}\""
    line+=$sep$field
    sep=,
  done
  printf '%s\n' "$line"
}
# versus TIME TARGET: "met, 0.51×" or "missed, 1.19×".
versus() { awk -v t="$1" -v g="$2" 'BEGIN {printf "%s, %.2f×", (t <= g ? "met" : "missed"), t / g}'; }

# Scene, target in ms per frame at 1024x1024 on an H200 (the first
# version's), and issue 28's target (docs/design/cuda_renderer.md section 7).
targets="rgb:0.035:0.015 pattern:0.045:0.020 rand10k:0.20:0.080 rand100k:1.0:0.25 biglittle:1.3:0.25
littlebig:1.3:0.25 rand1M:1.25:0.50 micro2M:0.65:0.25 snowsingle:1.0:0.10"

if [ -n "$data" ]; then
  columns=(scene "target ms" "issue 28 ms")
  first_mode=1
  for mode in $modes; do
    columns+=("$mode ms")
    [ "$mode" = auto ] && columns+=("auto chose")
    [ $first_mode = 1 ] && columns+=("vs target" "vs issue 28")
    first_mode=0
  done
  columns+=(commit machine)
  data_where "$root"
  csv "${columns[@]}" >"$data_partial"
fi

failed=0
header=$(printf '%-11s %9s' scene target)
for mode in $modes; do header+=$(printf ' %9s' "$mode"); done
printf '%s  %-7s %s\n' "$header" chosen "vs target (${modes%% *}, ms per frame, best of $runs, ${size}x${size})"

for entry in $targets; do
  scene=${entry%%:*}
  target=${entry#*:}
  target28=${target#*:}
  target=${target%%:*}
  line=$(printf '%-11s %9s' "$scene" "$target")
  row=("$scene" "$target" "$target28")
  first="" compared=0
  chosen="-"
  for mode in $modes; do
    best=""
    for run in $(seq 1 "$runs"); do
      run_program_in . 0 "$render" -r cuda --cuda-mode "$mode" -s "$size" -b 0:4 -f '' "$scene" >"$work/out" 2>&1
      status=$?
      out=$(cat "$work/out")
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
    row+=("${best:-failed}")
    [ "$mode" = auto ] && row+=("$chosen")
    if [ $compared = 0 ]; then
      first=${best:-} compared=1
      row+=("$(versus "${first:-0}" "$target")" "$(versus "${first:-0}" "$target28")")
    fi
  done
  verdict="-"
  if [ -n "$first" ]; then
    verdict=$(awk -v t="$first" -v g="$target" \
      'BEGIN {printf "%.2fx %s", t / g, (t <= g ? "met" : "MISSED")}')
  fi
  printf '%s  %-7s %s\n' "$line" "$chosen" "$verdict"
  [ -z "$data" ] || csv "${row[@]}" "$data_commit" "$data_machine" >>"$data_partial"
done
if [ -n "$data" ]; then
  if [ $failed = 1 ]; then
    echo "bench_render.sh: a run failed, so $data is left as it was" >&2
  else
    data_finish bench_render.sh "$data" || failed=1
  fi
fi
exit $failed
