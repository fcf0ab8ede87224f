# shellcheck shell=bash
# Sourced by scripts/dev/gpu_calibrate.sh (and its test): the calibration's
# tables from what a run measured. The points are the course's rules,
# scored by the judge (judge score, CALIBRATE_JUDGE: the judge program), so
# the table says what the course's checker and our grader would each give
# the same code.
#
# The files, tab-separated, one line per measurement:
#   OWN     LABEL TEST ITEM MS            a program's own printed time (one run)
#   JUDGED  LABEL TEST ITEM STATUS BEST_MS ...   the judge's row, after its label
#   COURSE  TEST ITEM MS                  the course's reference time
# TEST is render, scan or find_repeats; ITEM a scene or an element count;
# LABEL "ref" for the reference, any other word for a submission.

# shellcheck source=scripts/grade_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../grade_lib.sh"

# best_of FILE LABEL TEST ITEM FIELD: the least number in FIELD over FILE's
# lines of that label, test and item ("" when none).
best_of() {
  awk -F '\t' -v l="$2" -v t="$3" -v i="$4" -v f="$5" \
    '$1 == l && $2 == t && $3 == i && $f ~ /^[0-9.]+$/ { if (m == "" || $f + 0 < m + 0) m = $f } END { print m }' "$1"
}

# points TEST T_REF T: the course's points for one row ("-" without a time).
points() {
  if ! has_time "$2" || ! has_time "$3"; then echo "-"; return; fi
  local score
  score=$("$CALIBRATE_JUDGE" score --part "$1" --status ok --reference-ms "$2" --best-ms "$3" | jq -r .score) || return 1
  round_score "$score"
}

# calibration_points OWN JUDGED COURSE TEST LABEL...: the markdown table of
# one test: per item measured, the course's reference time, the reference's own and
# judged times, and per submission "course / ours": the course's points
# (the course's reference time against the submission's own) and ours (the
# judged reference against the judged submission). Then one line: on how
# many judged rows the two agree within a point (render) or 0.15 (scan).
calibration_points() {
  local own=$1 judged=$2 course=$3 test=$4
  shift 4
  local items item label header="| $test | course reference | reference, own | reference, judged |" rule="|---|---:|---:|---:|"
  local close=0 rows=0 tolerance=1
  [ "$test" = render ] || tolerance=0.15
  for label in "$@"; do header+=" $label |"; rule+="---:|"; done
  echo "$header"
  echo "$rule"
  # The items measured, in the order they were first measured.
  items=$(awk -F '\t' -v t="$test" '$2 == t && !seen[$3]++ { print $3 }' "$own" "$judged")
  for item in $items; do
    local c r_own r_judged line cp op
    c=$(awk -F '\t' -v t="$test" -v i="$item" '$1 == t && $2 == i { print $3 }' "$course")
    r_own=$(best_of "$own" ref "$test" "$item" 4)
    r_judged=$(best_of "$judged" ref "$test" "$item" 5)
    line="| $item | ${c:--} | ${r_own:--} | ${r_judged:--} |"
    for label in "$@"; do
      cp=$(points "$test" "$c" "$(best_of "$own" "$label" "$test" "$item" 4)")
      op=$(points "$test" "$r_judged" "$(best_of "$judged" "$label" "$test" "$item" 5)")
      line+=" $cp / $([ "$op" = - ] && echo "not judged" || echo "$op") |"
      if [ "$cp" != - ] && [ "$op" != - ]; then
        rows=$((rows + 1))
        awk -v a="$cp" -v b="$op" -v d="$tolerance" 'BEGIN { x = a - b; exit !(x <= d + 1e-9 && -x <= d + 1e-9) }' &&
          close=$((close + 1))
      fi
    done
    echo "$line"
  done
  echo
  echo "$test: within $tolerance on $close of $rows rows judged."
}
