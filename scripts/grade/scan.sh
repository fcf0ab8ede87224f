# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154  # the settings are options.sh's, shared by every part
# grade.sh's scan and find_repeats parts: each size of the graded worker and
# of the reference worker timed interleaved and checked by one judge run
# (judge.sh's judge_pair), which scores the row; or, with --ref-scan, the
# graded worker judged against a course-style reference program's own
# printed time.
# Sourced by scripts/grade.sh, after grade_lib.sh, options_lib.sh and run_lib.sh.

# ---------------------------------------------------------------- scan

# --ref-scan's times per test and count, measured once (--ladder reuses them).
declare -A scan_ref_ms=()

# scan_rungs_available: whether this build has the workers of our algorithms
# (a handout has none).
scan_rungs_available() { [ ! -f "$repo/.handout" ]; }

# scan_worker_target ALGO: the worker that runs ALGO (empty or student: the
# student's slot).
scan_worker_target() {
  case "$1" in
    "" | student) echo scan_worker ;;
    *) echo "judge_scan_rung_$1" ;;
  esac
}

# scan_reference_worker: the reference worker's program ("" with --ref-scan).
scan_reference_worker() {
  if [ -n "$ref_scan" ]; then
    echo ""
  elif [ -n "$ref_worker" ]; then
    echo "$ref_worker"
  elif [ "$ref_algorithm" = course ]; then
    echo "$bin_dir/judge_scan_reference"
  else
    echo "$bin_dir/$(scan_worker_target "$ref_algorithm")"
  fi
}

# scan_programs: the targets the scan parts build (judge.sh's judge, the
# graded workers, the reference worker when it is built here).
scan_programs() {
  local algo
  echo judge
  [ "$judge_memory" = host ] || echo judge_calibration_worker
  if [ "$ladder" = 1 ]; then
    for algo in "${scan_rungs[@]}"; do scan_worker_target "$algo"; done
  else
    scan_worker_target "$algorithm"
  fi
  if [ -z "$ref_scan$ref_worker" ]; then
    if [ "$ref_algorithm" = course ]; then echo judge_scan_reference; else scan_worker_target "$ref_algorithm"; fi
  fi
}

# scan_reference_name: the reference named in every row.
scan_reference_name() {
  if [ -n "$ref_scan" ]; then
    echo "$(basename "$ref_scan") (its own time)"
  elif [ -n "$ref_worker" ]; then
    basename "$ref_worker"
  elif [ "$ref_algorithm" = course ]; then
    echo "course design (judge_scan_reference)"
  else
    echo "$ref_algorithm (judge_scan_rung_$ref_algorithm)"
  fi
}

# scan_reference_time PART TEST N LABEL: sets REF_MS from the --ref-scan
# program's own printed time (REF_MEDIAN "-"), measured once per size (the
# ladder's rungs reuse it); a reference that cannot give a correct time
# stops the part (not_graded).
scan_reference_time() {
  local part=$1 test=$2 n=$3 label=$4
  REF_MS=${scan_ref_ms[$test:$n]:-} REF_MEDIAN=-
  [ -z "$REF_MS" ] || return 0
  timed_runs "$label: reference $(scan_reference_name)" "$logs/$test/$n.ref" "$GRADE_SCAN_PASS_RE" \
    "$ref_scan" -m "$test" -i random -n "$n"
  if [ "$RUN_VERDICT" != ok ]; then
    reference_failed "$part" "$(scan_reference_name)"
    return 1
  fi
  REF_MS=$RUN_BEST
  scan_ref_ms[$test:$n]=$REF_MS
}

# grade_scan_count PART TEST N LABEL ALGORITHM: one row of the scan or
# find_repeats table. The reference worker and the graded one are timed
# interleaved by one judge run, which scores the row (judge_pair); a
# --ref-scan program's own time is measured first, once per size, and the
# judge scores the graded worker's row against it (judge_score). Returns 1
# when the part cannot go on (no GPU, no sandbox, no reference).
grade_scan_count() {
  local part=$1 test=$2 n=$3 label=$4 algo=$5 problem prefix ref_ms
  prefix=$logs/$test/$n${algo:+.$algo}
  if [ -n "$ref_scan" ]; then
    scan_reference_time "$part" "$test" "$n" "$label" || return 1
    judge_worker "$label" "$prefix" "$bin_dir/$(scan_worker_target "$algo")" "$test" "$n"
    problem=$(judge_problem)
    if [ -n "$problem" ]; then
      not_graded "$part" "$problem"
      return 1
    fi
    judge_score "$test" "$REF_MS" "$REF_MEDIAN" || { not_graded "$part" "the judge could not score $n: $ROW_PROBLEM"; return 1; }
    ref_ms=$REF_MS
  else
    judge_pair "$label (against $(scan_reference_name))" "$prefix" "$bin_dir/$(scan_worker_target "$algo")" \
      "$(scan_reference_worker)" "$test" "$n" || { not_graded "$part" "$ROW_PROBLEM"; return 1; }
    ref_ms=$ROW_REF_MS
  fi
  [ "$JUDGE_VERDICT" = ok ] ||
    warn "$test $n${algo:+ ($algo)}: rejected by the judge: $JUDGE_NOTE (worker's log: ${prefix#"$logs"/}.worker/)"
  local seed=-
  [[ ! $seed_mode =~ ^[0-9]+$ ]] || seed=$seed_mode
  add_score_row "$part" "$n" "$seed" "$(scan_reference_name)" "$ref_ms" "$JUDGE_MS" "$ROW_SPEEDUP" "$JUDGE_VERDICT" \
    "$ROW_SCORE" "$ROW_MAX" "$JUDGE_ROUND_TRIP" \
    "$(noted "$JUDGE_NOTE" "$(noise_note "$JUDGE_VERDICT" "$ROW_SCORE" "$ROW_LOW" "$ROW_HIGH" "$ref_ms" "$REF_MEDIAN" "$JUDGE_MS" "$JUDGE_MEDIAN")")"
}

# grade_scan_rung TEST ALGORITHM: the table of one worker (ALGORITHM empty:
# the student's, or --algorithm's).
grade_scan_rung() {
  local test=$1 algo=$2 part=$1 n i=0 total what=""
  [ -z "$algo" ] || [ "$ladder" = 0 ] || part=$test/$algo
  [ -z "$algo" ] || what=" (judge_scan_rung_$algo)"
  [ "$algo" != student ] || what=""
  total=$(wc -w <<<"${counts//,/ }")
  for n in ${counts//,/ }; do
    i=$((i + 1))
    grade_scan_count "$part" "$test" "$n" "$test${algo:+ $algo} $n ($i/$total)" "$algo" || return 1
  done
  print_score_table "$part" "Score table: $test$what (ms, best of $runs timed by the judge)" \
    "Element Count" "Ref Time" "Student Time"
}

grade_scan() {
  local test=$1 algo target
  for target in $(scan_programs); do
    ensure_program "$target" || { not_graded "$test" "$(unavailable "$target")"; return; }
  done
  [ -z "$ref_scan" ] || reference_runs "$test" "$(scan_reference_name)" "$ref_scan" || return
  [ -z "$ref_worker" ] || reference_runs "$test" "$(scan_reference_name)" "$ref_worker" || return
  mkdir -p "$logs/$test"
  if [ "$ladder" = 0 ]; then
    grade_scan_rung "$test" "$algorithm"
    return
  fi
  for algo in "${scan_rungs[@]}"; do grade_scan_rung "$test" "$algo" || return; done
  print_ladder_table "Ladder: $test, ms per element count, best of $runs, against $(scan_reference_name)" \
    "$counts" "$test" "${scan_rungs[@]}"
}
