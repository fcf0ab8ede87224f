# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154  # the settings are options.sh's, shared by every part
# grade.sh's scan and find_repeats parts.
# Sourced by scripts/grade.sh, after grade_lib.sh, options_lib.sh and run_lib.sh.

# ---------------------------------------------------------------- scan

# Reference times per test and count, measured once (--ladder reuses them).
declare -A scan_ref_ms=()

# scan_reference_name: the reference named in every row.
scan_reference_name() {
  if [ -n "$ref_scan" ]; then basename "$ref_scan"; else echo "cudaScan -a $ref_algorithm"; fi
}

# scan_reference_time TEST N LABEL: sets REF_MS from the named reference;
# fails (the part stops) when it cannot give a correct time.
scan_reference_time() {
  local test=$1 n=$2 label=$3 program=("$ref_scan")
  REF_MS=${scan_ref_ms[$test:$n]:-}
  [ -z "$REF_MS" ] || return 0
  [ -n "$ref_scan" ] || program=("$bin_dir/cudaScan" -a "$ref_algorithm")
  timed_runs "$label: reference $(scan_reference_name)" "$logs/$test/$n.ref" "$GRADE_SCAN_PASS_RE" \
    "${program[@]}" -m "$test" -i random -n "$n"
  [ "$RUN_VERDICT" = ok ] || return 1
  REF_MS=$RUN_BEST
  scan_ref_ms[$test:$n]=$REF_MS
}

# grade_scan_count PART TEST N LABEL ALGORITHM: one row of the scan or
# find_repeats table (ALGORITHM: cudaScan's -a, empty for its own choice).
# Returns 1 when the part cannot go on (no GPU, no reference).
grade_scan_count() {
  local part=$1 test=$2 n=$3 label=$4 algo=$5 verdict your_ms student_log args=()
  [ -z "$algo" ] || args=(-a "$algo")
  timed_runs "$label" "$logs/$test/$n${algo:+.$algo}" "$GRADE_SCAN_PASS_RE" \
    "$bin_dir/cudaScan" "${args[@]}" -m "$test" -i random -n "$n"
  verdict=$RUN_VERDICT your_ms=$RUN_BEST student_log=$RUN_LOG
  if [ "$verdict" = nogpu ]; then
    not_graded "$part" "cudaScan needs a GPU: $(first_failure_line "$student_log")"
    return 1
  fi
  [ "$verdict" = ok ] || report_bad_run "$test $n${algo:+ (-a $algo)}" "$verdict" "$student_log"
  scan_reference_time "$test" "$n" "$label" || { reference_failed "$part" "$(scan_reference_name)"; return 1; }
  add_score_row "$part" "$n" - "$(scan_reference_name)" "$REF_MS" "$your_ms" "$verdict" \
    "$(scan_score "$verdict" "$REF_MS" "$your_ms")" 1.25
}

# grade_scan_rung TEST ALGORITHM: the table of one algorithm (empty:
# cudaScan's own choice, or --algorithm).
grade_scan_rung() {
  local test=$1 algo=$2 part=$1 n i=0 total
  [ -z "$algo" ] || [ "$ladder" = 0 ] || part=$test/$algo
  total=$(wc -w <<<"${counts//,/ }")
  for n in ${counts//,/ }; do
    i=$((i + 1))
    grade_scan_count "$part" "$test" "$n" "$test${algo:+ -a $algo} $n ($i/$total)" "$algo" || return 1
  done
  print_score_table "$part" "Score table: $test${algo:+ (cudaScan -a $algo)} (ms, best of $runs)" \
    "Element Count" "Ref Time" "Student Time" 1.25
}

grade_scan() {
  local test=$1 algo
  ensure_program cudaScan || { not_graded "$test" "cudaScan is not available"; return; }
  [ -z "$ref_scan" ] || reference_runs "$test" "$(scan_reference_name)" "$ref_scan" || return
  mkdir -p "$logs/$test"
  if [ "$ladder" = 0 ]; then
    grade_scan_rung "$test" "$algorithm"
    return
  fi
  for algo in "${scan_rungs[@]}"; do grade_scan_rung "$test" "$algo" || return; done
  print_ladder_table "Ladder: $test, ms per element count, best of $runs, against $(scan_reference_name)" \
    "$counts" "$test" 1.25 "${scan_rungs[@]}"
}

