# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154  # the settings are options.sh's, shared by every part
# grade.sh's saxpy part: the judge's timing table (not scored). The judge
# runs each saxpy worker in its sandbox and times, on its own clock, the
# course's whole trip and the kernel alone, each call on fresh inputs and
# checked bit for bit; it measures the device-to-device memcpy itself.
# Nothing cudaSaxpy or a worker prints counts. In a handout the worker holds
# the student's kernel; in the suite, cudaSaxpy's course and tuned kernels.
# Sourced by scripts/grade.sh, after grade_lib.sh, options_lib.sh and run_lib.sh.

# ---------------------------------------------------------------- saxpy

# saxpy_variants: the variants graded, one a line.
saxpy_variants() {
  if [ -f "$repo/.handout" ]; then echo student; else printf '%s\n' course tuned; fi
}

# saxpy_worker_target VARIANT: the worker that runs VARIANT's kernel.
saxpy_worker_target() {
  case "$1" in
    student) echo saxpy_worker ;;
    *) echo "judge_saxpy_rung_$1" ;;
  esac
}

grade_saxpy() {
  local n=$saxpy_n variant target prefix rows="" memcpy_ms=- problem verdict
  local trip_ms kernel_ms
  ensure_program judge || { not_graded saxpy "$(unavailable judge)"; return; }
  for variant in $(saxpy_variants); do
    target=$(saxpy_worker_target "$variant")
    ensure_program "$target" || { not_graded saxpy "$(unavailable "$target")"; return; }
    prefix=$logs/saxpy-$variant
    run_judge "saxpy $variant" "$prefix" "$bin_dir/$target" saxpy "$n"
    judge_row saxpy_trip "$n"
    problem=$(judge_problem)
    [ -z "$problem" ] || { not_graded saxpy "$problem"; return; }
    verdict=$JUDGE_VERDICT trip_ms=$JUDGE_MS
    [ "$verdict" = ok ] || warn "saxpy $variant: rejected by the judge: $JUDGE_NOTE (worker's log: ${prefix#"$logs"/}.worker/)"
    judge_row saxpy_kernel "$n"
    kernel_ms=$JUDGE_MS
    if [ "$JUDGE_VERDICT" != ok ]; then
      [ "$verdict" != ok ] || warn "saxpy $variant: rejected by the judge: $JUDGE_NOTE (worker's log: ${prefix#"$logs"/}.worker/)"
      verdict=rejected
    fi
    [ "$verdict" = ok ] || exit_status=1
    judge_row memcpy "$((n * 4))"
    [ "$JUDGE_VERDICT" != ok ] || memcpy_ms=$JUDGE_MS
    rows+="$variant"$'\t'"$trip_ms"$'\t'"$kernel_ms"$'\t'"$verdict"$'\n'
  done
  print_saxpy_table "${rows%$'\n'}" "$memcpy_ms" "$n"
}

# print_saxpy_table ROWS MEMCPY_MS N: the timing table (not scored), on
# stdout, in results.md and in saxpy.csv. ROWS: variant, trip ms, kernel ms
# ("-" when rejected), verdict, one a line. Rates are GB/s as the course's
# program prints them (2^30 bytes): the trip and the kernel move 12 N bytes,
# the memcpy 8 N (one array read and written).
print_saxpy_table() {
  local rows tsv title="Saxpy timing table (N = $3, best of $runs, the judge's clock, not scored)"
  local memcpy_gbs
  memcpy_gbs=$(awk -v ms="$2" -v n="$3" 'BEGIN { print (ms + 0 > 0) ? sprintf("%.3f", 8 * n / 2^30 / (ms / 1e3)) : "-" }')
  rows=$(printf '%s\n' "$1" | awk -F '\t' -v n="$3" -v memcpy="$memcpy_gbs" '
    function gbs(ms) { return (ms != "-" && ms + 0 > 0) ? sprintf("%.3f", 12 * n / 2^30 / (ms / 1e3)) : "-" }
    { kg = gbs($3)
      ratio = (memcpy != "-" && kg != "-") ? sprintf("%.3f", kg / memcpy) : "-"
      print $1 "\t" $2 "\t" gbs($2) "\t" $3 "\t" kg "\t" ratio "\t" $4 }')
  {
    printf 'variant\ttrip_ms\ttrip_gbs\tkernel_ms\tkernel_gbs\tkernel_per_memcpy\tverdict\n'
    printf '%s\n' "$rows"
  } | tsv_to_csv >"$logs/saxpy.csv"
  tsv=$(
    printf 'Variant\tTrip (ms)\tTrip GB/s\tKernel (ms)\tKernel GB/s\tKernel/memcpy\n'
    printf '%s\n' "$rows" | awk -F '\t' '{
      trip = $2; if ($7 != "ok") trip = trip " (F)"
      print $1 "\t" trip "\t" $3 "\t" $4 "\t" $5 "\t" $6 }'
  )
  {
    printf '%s\n' "$tsv" | format_box_table "$title" 0
    echo "Device-to-device memcpy (the judge's): $memcpy_gbs GB/s."
    echo
  } | paint
  {
    printf '%s\n' "$tsv" | format_markdown_table "$title" 0
    printf 'Device-to-device memcpy (the judge'"'"'s): %s GB/s.\n\n' "$memcpy_gbs"
  } >>"$results_part"
}
