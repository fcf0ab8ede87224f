#!/usr/bin/env bash
# On a GPU machine: the grade's calibration against the course's, in one
# run (docs/measurements/grading_h200.md, "The reference against the course's, and the
# calibration, in one run"). Builds the suite and a handout with its
# reference programs for this GPU, then times the reference and each
# submission two ways: its own printed time, as the course's checker reads
# it (render: "Total" of -b 0:4 -s 1024 -f ''; scan: "Student GPU time"),
# and the judge's, as grade.sh takes it; and prints the points each gets
# under both graders (scripts/dev/calibrate_lib.sh). The submissions: render,
# the course-style fill (tests/student/fills/fill_renderer.pl, in the
# handout) and the ladder's pixels, tiles and classic; scan and
# find_repeats, our algorithms kogge-stone, blelloch, single-pass and cub.
# The reference is each part's default: the course's design
# (judge_render_reference, judge_scan_reference; the handout's ref/
# programs for their own times).
#
# Usage: scripts/dev/gpu_calibrate.sh [options]
#   --logs DIR      the results (default gpu-calibrate-logs)
#   --only PART     render or scan (scan and find_repeats); default both
#   --scenes LIST   render's scenes (default: the graded scenes of the
#                   course's contract that --course has a time for)
#   --counts LIST   the scan's sizes (default: the contract's)
#   --algorithms LIST  the scan's algorithms graded beside the reference
#                   (default kogge-stone,blelloch,single-pass,cub)
#   --runs N        own runs, and the judge's timed calls, per row; the
#                   best counts (default: the contract's)
#   --course FILE   the course's reference times, lines "TEST<tab>ITEM<tab>MS"
#                   (default: the course's binaries on an NVIDIA H200, issue
#                   24's measurements: tests/grade/fixtures/course_h200.tsv)
#   -h, --help      this text
# A submission whose first own run takes over ten times the reference's is
# run once and not judged: both formulas give it the least points there.
# In the logs folder: own.tsv, judged.tsv, course.tsv (calibrate_lib.sh's
# formats), points.md (the tables), a log per step.
# Exit status: 0 every step ran, 1 a step failed (the tables hold what was
# measured), 2 usage, 130 or 143 when stopped by SIGINT or SIGTERM.
set -uo pipefail
script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$script_dir/../.." && pwd)
# shellcheck source=scripts/dev/gpu_steps.sh
source "$script_dir/gpu_steps.sh"
# shellcheck source=scripts/dev/calibrate_lib.sh
source "$script_dir/calibrate_lib.sh"

logs=gpu-calibrate-logs parts=(render scan) runs="" course=$repo/tests/grade/fixtures/course_h200.tsv
scenes="" counts=""
algorithms=kogge-stone,blelloch,single-pass,cub
while [ $# -gt 0 ]; do
  case "$1" in
    --logs) need_folder "$@"; logs=$2; shift ;;
    --only) need_value "$@"; case "$2" in render | scan) parts=("$2") ;; *) usage_error "--only: '$2' is not render or scan" ;; esac; shift ;;
    --scenes) need_value "$@"; scenes=$2; shift ;;
    --counts) need_value "$@"; counts=$2; shift ;;
    --algorithms) need_value "$@"; algorithms=$2; shift ;;
    --runs) need_value "$@"; runs=$2; shift ;;
    --course) need_value "$@"; course=$2; shift ;;
    -h | --help) show_help; exit 0 ;;
    *) usage_error "unknown argument '$1'" ;;
  esac
  shift
done
[ -f "$course" ] || usage_error "--course: no such file: $course"
# The defaults are the course's contract's (grade_lib.sh's contract_value).
[ -n "$runs" ] || runs=$(contract_value .runs)
[ -n "$counts" ] || counts=$(contract_value '.counts | map(tostring) | join(",")')
[ -n "$scenes" ] || scenes=$(contract_value '.scenes[]' |
  awk 'NR == FNR { if ($1 == "render") timed[$2] = 1; next } timed[$1]' "$course" - 2>/dev/null | paste -sd, -)
[[ $runs =~ ^[1-9][0-9]?$ ]] || usage_error "--runs: '$runs' is not a number from 1 to 99"
[[ $scenes =~ ^[A-Za-z0-9]+(,[A-Za-z0-9]+)*$ ]] || usage_error "--scenes: '$scenes' is not a list of scene names"
[[ $counts =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || usage_error "--counts: '$counts' is not a list of element counts"
[[ $algorithms =~ ^[a-z-]+(,[a-z-]+)*$ ]] || usage_error "--algorithms: '$algorithms' is not a list"
seen=" "
for algo in ${algorithms//,/ }; do
  case "$algo" in kogge-stone | blelloch | single-pass | cub) ;; *) usage_error "--algorithms: '$algo' is not kogge-stone, blelloch, single-pass or cub" ;; esac
  [[ $seen != *" $algo "* ]] || usage_error "--algorithms: '$algo' named twice"
  seen+="$algo "
done
bad=$(awk -F '\t' 'NF != 3 || $1 !~ /^(render|scan|find_repeats)$/ || $3 !~ /^[0-9]+(\.[0-9]+)?$/ { print NR; exit }' "$course")
[ -z "$bad" ] || usage_error "--course: line $bad of $course is not TEST<tab>ITEM<tab>MS"
course=$(cd "$(dirname "$course")" && pwd)/$(basename "$course")

require_gpu gpu_calibrate.sh
bench=1
start_steps
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -n 1 | tr -d ' .')
[[ $arch =~ ^[0-9]+$ ]] || { echo "gpu_calibrate.sh: nvidia-smi gave no compute capability ('$arch')" >&2; exit 1; }
work=$(mktemp -d /tmp/gpu-calibrate.XXXXXX) || exit 1
trap 'rm -rf "$work"' EXIT
bin=$repo/build-gpu/bin handout=$work/handout fill=$work/fill
CALIBRATE_JUDGE=$bin/judge
own=$logs/own.tsv judged=$logs/judged.tsv
: >"$own"
: >"$judged"
cp "$course" "$logs/course.tsv"

step "configure (preset gpu)" configure.log cmake --preset gpu
step "build" build.log cmake --build --preset gpu --target render cudaScan judge judge_render_reference \
  judge_scan_reference judge_render_rungs judge_scan_rungs
step "handout with its reference programs (sm_$arch)" handout.log \
  "$script_dir/../make_handout.sh" --cuda-archs "$arch" "$handout"
# shellcheck disable=SC2317  # run by function_step
fill_handout() {
  cp -r "$handout" "$fill" &&
    perl "$repo/tests/student/fills/fill_renderer.pl" "$handout/render/student/student_renderer.cu" \
      >"$fill/render/student/student_renderer.cu" &&
    run_program_in "$fill" 0 cmake --preset gpu -DCMAKE_CUDA_ARCHITECTURES="$arch" &&
    run_program_in "$fill" 0 cmake --build --preset gpu --target render render_worker
}
in_parts() { [[ " ${parts[*]} " == *" $1 "* ]]; }
in_parts render && function_step "the course-style render fill, in a copy of the handout" fill.log fill_handout

# own_times LABEL TEST ITEM LIMIT_MS COMMAND...: up to --runs own times into
# own.tsv, one run only when the first is over LIMIT_MS (none: ""). Fails
# when a run prints no time (its last lines say why).
# shellcheck disable=SC2317  # run by function_step
own_times() {
  local label=$1 test=$2 item=$3 limit=$4 out=$work/run.log t i
  shift 4
  for ((i = 1; i <= runs; i++)); do
    run_program_in . 600 "$@" >"$out" 2>&1 </dev/null
    if [ "$test" = render ]; then t=$(parse_render_total "$out"); else t=$(parse_scan_time "$out"); fi
    if [ -z "$t" ]; then
      echo "$label $test $item: no time printed by: $*"
      tail -n 5 "$out"
      return 1
    fi
    printf '%s\t%s\t%s\t%s\n' "$label" "$test" "$item" "$t" >>"$own"
    if [ -n "$limit" ] && awk -v t="$t" -v l="$limit" 'BEGIN { exit !(t > l) }'; then break; fi
  done
}

# judged_row LABEL WORKER TEST ITEM JUDGE_ARGS...: the judge's row (its
# --rows, read by name) into judged.tsv as "LABEL TEST ITEM STATUS BEST_MS";
# fails when the judge does (a rejected row).
# shellcheck disable=SC2317  # run by function_step
judged_row() {
  local label=$1 worker=$2 test=$3 item=$4 what=--counts dir out=$work/judge.out status
  shift 4
  [ "$test" = render ] && what=--scenes
  dir=$logs/judge/$label-$test-$item
  mkdir -p "$dir"
  rm -f -- "$work/judge.rows"
  run_program_in . 900 "$bin/judge" --worker "$worker" --runs "$runs" --log-dir "$dir" "$what" "$item" \
    --rows "$work/judge.rows" "$@" "$test" >"$out" 2>"$dir/judge.err" </dev/null
  status=$?
  # The best time to the judge's printed 4 decimals.
  [ ! -s "$work/judge.rows" ] || jq -r --arg who "$label" '[$who, .test, .item, .status, (.best_ms // "-")] | @tsv' \
    "$work/judge.rows" | awk -F '\t' -v OFS='\t' '$5 != "-" { $5 = sprintf("%.4f", $5) } { print }' >>"$judged"
  [ "$status" = 0 ] || { echo "$label $test $item: the judge said:"; cat "$out" "$dir/judge.err"; }
  return "$status"
}

# over_limit LABEL TEST ITEM: the submission's first own time was over ten
# times the reference's: not judged.
# shellcheck disable=SC2317  # run by function_step
over_limit() {
  local r s
  r=$(best_of "$own" ref "$2" "$3" 4) s=$(best_of "$own" "$1" "$2" "$3" 4)
  [ -n "$r" ] && [ -n "$s" ] && awk -v r="$r" -v s="$s" 'BEGIN { exit !(s > 10 * r) }'
}

# shellcheck disable=SC2317  # run by function_step
calibrate_render() {
  local scene label limit status=0
  for scene in ${scenes//,/ }; do
    echo "render $scene" >&2
    own_times ref render "$scene" "" "$handout/ref/render_ref" -r cuda -b 0:4 -s 1024 -f '' "$scene" || status=1
    limit=$(awk -v r="$(best_of "$own" ref render "$scene" 4)" 'BEGIN { if (r != "") print 10 * r }')
    own_times fill render "$scene" "$limit" "$fill/build-gpu/bin/render" -r cuda -b 0:4 -s 1024 -f '' "$scene" || status=1
    for label in pixels tiles classic; do
      own_times "$label" render "$scene" "$limit" "$bin/render" -r cuda --cuda-mode "$label" -b 0:4 -s 1024 -f '' "$scene" ||
        status=1
    done
    judged_row ref "$bin/judge_render_reference" render "$scene" --trusted-untimed || status=1
    over_limit fill render "$scene" || judged_row fill "$fill/build-gpu/bin/render_worker" render "$scene" || status=1
    for label in pixels tiles classic; do
      over_limit "$label" render "$scene" ||
        judged_row "$label" "$bin/judge_render_rung_$label" render "$scene" || status=1
    done
  done
  return "$status"
}

# shellcheck disable=SC2317  # run by function_step
calibrate_scan() {
  local test n algo status=0
  for test in scan find_repeats; do
    for n in ${counts//,/ }; do
      echo "$test $n" >&2
      own_times ref "$test" "$n" "" "$handout/ref/cudaScan_ref" -m "$test" -i random -n "$n" || status=1
      judged_row ref "$bin/judge_scan_reference" "$test" "$n" || status=1
      for algo in ${algorithms//,/ }; do
        own_times "$algo" "$test" "$n" "" "$bin/cudaScan" -a "$algo" -m "$test" -i random -n "$n" || status=1
        judged_row "$algo" "$bin/judge_scan_rung_$algo" "$test" "$n" || status=1
      done
    done
  done
  return "$status"
}

for part in "${parts[@]}"; do function_step "$part: own and judged times" "$part.log" "calibrate_$part"; done

{
  echo "# Calibration on $gpu"
  echo
  echo "Points \"course / ours\"; times in ms, the best of $runs."
  for part in "${parts[@]}"; do
    if [ "$part" = render ]; then
      echo && calibration_points "$own" "$judged" "$logs/course.tsv" render fill pixels tiles classic ref
    else
      for test in scan find_repeats; do
        # shellcheck disable=SC2086  # the list, a word per algorithm
        echo && calibration_points "$own" "$judged" "$logs/course.tsv" "$test" ${algorithms//,/ } ref
      done
    fi
  done
} >"$logs/points.md"

summary_start
cat "$logs/points.md"
summary_end
