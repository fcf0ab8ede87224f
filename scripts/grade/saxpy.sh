# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154  # the settings are options.sh's, shared by every part
# grade.sh's saxpy part: cudaSaxpy's timing table (not scored). cudaSaxpy
# holds the submission's code, so it runs in the judge's sandbox (`judge
# run`), never as the grader: nothing it does can reach the programs or
# files the rest of the grade uses.
# Sourced by scripts/grade.sh, after grade_lib.sh, options_lib.sh and run_lib.sh.

# ---------------------------------------------------------------- saxpy

grade_saxpy() {
  ensure_program cudaSaxpy || { not_graded saxpy "cudaSaxpy is not available"; return; }
  ensure_program judge || { not_graded saxpy "$(unavailable judge)"; return; }
  local log=$logs/saxpy.log judge_log=$logs/saxpy.judge.log args=(-r "$runs") status verdict memcpy rows n row path
  [ -z "$saxpy_n" ] || args+=(-n "$saxpy_n")
  local -a judge_args=(--worker "$bin_dir/cudaSaxpy" --memory "$judge_memory" --call-timeout "$timeout_s"
    --log-dir "$logs/saxpy.worker")
  hidden_paths
  for path in "${judge_hidden[@]}"; do judge_args+=(--hide "$path"); done
  [ "$unsandboxed" = 0 ] || judge_args+=(--unsandboxed)
  [ -z "$worker_memory_limit" ] || judge_args+=(--memory-limit "$worker_memory_limit")
  mkdir -p -- "$logs/saxpy.worker"
  progress "saxpy: cudaSaxpy ${args[*]} (in the judge's sandbox)"
  run_program "$judge_log" "$bin_dir/judge" "${judge_args[@]}" run -- "${args[@]}"
  status=$?
  row=$(awk -F '\t' '$1 == "run" { print; exit }' "$judge_log")
  if [ -z "$row" ]; then
    # The judge could not start it: no GPU, no sandbox.
    verdict=$(classify_run "$status" "$judge_log")
    [ "$verdict" != nogpu ] || { not_graded saxpy "cudaSaxpy needs a GPU: $(first_failure_line "$judge_log")"; return; }
    not_graded saxpy "the judge could not run cudaSaxpy: $(first_failure_line "$judge_log")"
    return
  fi
  cp -- "$logs/saxpy.worker/worker-run.log" "$log" 2>/dev/null || : >"$log"
  # Its exit status as the judge saw it; a hang or a kill is a crash.
  case "$(cut -f 3,9 <<<"$row")" in
    ok*) status=0 ;;
    *"exited with status "*) status=${row##*exited with status } status=${status%%[!0-9]*} ;;
    *) status=137 ;;
  esac
  verdict=$(classify_run "$status" "$log" "$GRADE_SAXPY_PASS_RE")
  [ "$verdict" != nogpu ] || { not_graded saxpy "cudaSaxpy needs a GPU: $(first_failure_line "$log")"; return; }
  memcpy=$(parse_saxpy_memcpy "$log")
  rows=$(parse_saxpy_best "$log")
  n=$(parse_saxpy_n "$log")
  [ -n "$rows" ] || [ "$verdict" != ok ] || verdict=unverified
  [ "$verdict" = ok ] || { report_bad_run saxpy "$verdict" "$log"; exit_status=1; }
  [ -n "$rows" ] || { not_graded saxpy "cudaSaxpy printed no timings (see $log)"; return; }
  print_saxpy_table "$rows" "${memcpy:--}" "$verdict" "${n:-${saxpy_n:-its default}}"
}

# print_saxpy_table ROWS MEMCPY_GBS VERDICT N: the timing table (not
# scored), on stdout, in results.md and in saxpy.csv.
print_saxpy_table() {
  local rows tsv title="Saxpy timing table (N = $4, best of $runs, not scored)"
  rows=$(printf '%s\n' "$1" | awk -F '\t' -v memcpy="$2" -v verdict="$3" '{
    ratio = (memcpy != "-" && $5 != "-" && memcpy + 0 > 0) ? sprintf("%.3f", $5 / memcpy) : "-"
    print $0 "\t" ratio "\t" verdict }')
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
    echo "Device-to-device memcpy: $2 GB/s. Results: $(verdict_text "$3")."
    echo
  } | paint
  {
    printf '%s\n' "$tsv" | format_markdown_table "$title" 0
    printf 'Device-to-device memcpy: %s GB/s. Results: %s.\n\n' "$2" "$(verdict_text "$3")"
  } >>"$results_part"
}

