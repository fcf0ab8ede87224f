# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154  # the settings are options.sh's, shared by every part
# grade.sh's runs: messages, signals, running a program, timing it, the score rows.
# Sourced by scripts/grade.sh, after grade_lib.sh, options_lib.sh and run_lib.sh.

# ---------------------------------------------------------------- messages

# A usage error (options_lib.sh) takes away the log folder if this run made
# it (render's scenes are checked after it is made).
# shellcheck disable=SC2317  # run by usage_error
remove_created_logs() { [ -z "$created_logs" ] || rm -rf -- "$created_logs"; }
usage_tidy=remove_created_logs

warn() { echo "grade.sh: $*" >&2; }

progress() { [ "$quiet" = 1 ] || printf '[%4ss] %s\n' "$SECONDS" "$*" >&2; }

# paint: colours "(F)" and the total rows, only when stdout is a terminal.
paint() {
  if [ -t 1 ] && [ -z "${NO_COLOR:-}" ] && [ "${TERM:-dumb}" != dumb ]; then
    sed -e $'s/(F)/\033[31m(F)\033[0m/g' -e $'s/\\(Total score: *|[^|]*\\)/\033[1m\\1\033[0m/'
  else
    cat
  fi
}

# ---------------------------------------------------------------- signals

running_what=""  # the program running now, for the message when stopped
temp_files=()    # removed whatever happens
finished=0

# shellcheck disable=SC2317  # run by the traps below
# remove_partial: what a run that did not finish must not leave: temporary
# cache entries, the scratch folder, the half-made results.
remove_partial() {
  [ ${#temp_files[@]} -eq 0 ] || rm -f -- "${temp_files[@]}"
  [ "$finished" = 1 ] || [ -z "$scores_tsv" ] || rm -f -- "$scores_tsv" "$not_graded_tsv" "$results_part"
  [ "$finished" = 1 ] || [ -z "$work_dir" ] || rm -rf -- "$work_dir"
}

# shellcheck disable=SC2317  # run by stop_on_signals' traps
# stopped: once a signal has stopped the running program (run_lib.sh), what
# was left goes into the one line said.
stopped() {
  remove_partial
  local left="nothing"
  [ -z "$logs" ] || [ ! -d "$logs" ] || left="the logs so far in $logs"
  stop_note="${running_what:+ during $running_what}: no results written; left $left"
}

stop_tidy=stopped
stop_on_signals
trap remove_partial EXIT

# ---------------------------------------------------------------- running

# run_program LOG PROGRAM ARGS...: runs in the scratch folder with a time
# limit, all output in LOG; returns the program's exit status. A signal to
# grade.sh stops it at once (run_lib.sh).
run_program() {
  local log=$1
  shift
  {
    printf '%s:' "${log#"$logs"/}"
    printf ' %q' "$@"
    printf '\n'
  } >>"$logs/commands.txt"
  run_logged "$log" "$work_dir" "$timeout_s" "$@"
}

# timed_runs LABEL LOG_PREFIX PASS_RE PROGRAM ARGS...: runs the command
# --runs times, stopping at the first bad run; each run's time is the first
# time line it printed (render's "Total:", cudaScan's "GPU time:"), as the
# course's checker reads it. Sets RUN_VERDICT (ok, or the bad run's
# verdict), RUN_BEST (the best time, "-" if none) and RUN_LOG (the bad run's
# log, else the first).
timed_runs() {
  local label=$1 prefix=$2 pass=$3
  shift 3
  local i log status verdict time times=""
  RUN_VERDICT=ok RUN_BEST=- RUN_LOG=$prefix.run1.log
  for ((i = 1; i <= runs; i++)); do
    progress "$label: run $i/$runs"
    log=$prefix.run$i.log
    run_program "$log" "$@"
    status=$?
    verdict=$(classify_run "$status" "$log" "$pass")
    time=$(first_time "$log")
    [ -z "$time" ] || times+="$time"$'\n'
    [ "$verdict" != ok ] || [ -n "$time" ] || verdict=unverified
    if [ "$verdict" != ok ]; then
      RUN_VERDICT=$verdict RUN_LOG=$log
      break
    fi
  done
  [ -z "$times" ] || RUN_BEST=$(printf '%s' "$times" | min_number)
}

# first_time LOG: the time a run printed, either program's format.
first_time() {
  local t
  t=$(parse_render_total "$1")
  [ -n "$t" ] || t=$(parse_scan_time "$1")
  printf '%s' "$t"
}

# add_score_row PART ITEM SEED REFERENCE REF_MS YOUR_MS SPEEDUP VERDICT SCORE
# MAX [ROUND_TRIP_MS [NOTE]]: ROUND_TRIP_MS is the judge's empty round trip
# ("-" where the judge did not time the row), NOTE the judge's reason or
# what else the row must say.
add_score_row() {
  local field row=()
  for field in "$1" "$2" "$3" "$4" "$5" "$6" "$7" "$8" "$9" "${10}" "${11:--}" "${12:-}"; do
    row+=("$(one_line "$field")")
  done
  (IFS=$'\t'; printf '%s\n' "${row[*]}") >>"$scores_tsv"
  [ "$8" = ok ] || exit_status=1
}

# report_bad_run WHAT VERDICT LOG: one line on stderr for a wrong or failed run.
report_bad_run() {
  warn "$1: $(verdict_text "$2"): $(first_failure_line "$3") (log: ${3#"$logs"/})"
}

# not_graded PART REASON: a part that could not run at all. Said where its
# table would be (stdout and results.md, so they tell why the table is
# missing; in results.md as Markdown text, markdown_text), and on stderr
# too unless that is the same stream; its row in not_graded.tsv
# (results.json).
not_graded() {
  same_stream || warn "$1: not graded: $2"
  printf '%s\t%s\t%s\n' "$(one_line "$1")" "$(one_line "$2")" "$(points_left "$1")" >>"$not_graded_tsv"
  printf '%s: not graded: %s\n\n' "$1" "$(markdown_text "$2")" >>"$results_part"
  printf '%s: not graded: %s\n\n' "$1" "$2"
  exit_status=1
}

# same_stream: whether standard output and error are one terminal, pipe or
# file, where a line written to both would show twice.
# (Tested here, not in a command substitution, whose output is a pipe.)
same_stream() { [ /dev/fd/1 -ef /dev/fd/2 ]; }

# reference_failed PART NAME: the named reference could not give a time:
# the part stops with the reason (never another reference instead).
reference_failed() {
  not_graded "$1" "the reference $2 $(verdict_text "$RUN_VERDICT"): $(first_failure_line "$RUN_LOG") (log: ${RUN_LOG#"$logs"/})"
}

# reference_runs PART NAME PROGRAM: whether a reference program the user
# named can run here; when not, the part stops with the reason.
reference_runs() {
  local problem
  problem=$(program_problem "$3")
  [ -z "$problem" ] && return 0
  not_graded "$1" "the reference $2 cannot run: $3: $problem"
  return 1
}

