# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154  # the settings are options.sh's, shared by every part
# grade.sh's judge: runs the trusted judge (judge/, docs/grading.md "The
# judge") on one worker for one test and count, and reads its row. Nothing
# the worker prints reaches the row: its output goes to its own log.
# Sourced by scripts/grade.sh, after grade_lib.sh, options_lib.sh and run_lib.sh.

# ---------------------------------------------------------------- the judge

judge_hidden=()  # what the worker must not see, found once

# hidden_paths: sets judge_hidden to the folders the worker must not see:
# the suite (the reference programs and workers, the other programs, the
# sources), the build, the cache and the logs, each that exists, leaving out
# those inside another one (the judge binds the worker itself back in).
hidden_paths() {
  [ ${#judge_hidden[@]} -eq 0 ] || return 0
  local path real kept
  local -a found=()
  for path in "$repo" "$build_dir" "$bin_dir" "$cache_dir" "$logs" "$ref_worker" "$ref_render_worker"; do
    if [ -z "$path" ] || [ ! -e "$path" ]; then continue; fi
    [ -d "$path" ] || path=$(dirname -- "$path")
    real=$(cd "$path" && pwd -P) || continue
    found+=("$real")
  done
  # Sorted, a folder comes before the folders inside it.
  while IFS= read -r path; do
    for kept in "${judge_hidden[@]}"; do
      [[ $path == "$kept" || $path == "$kept"/* ]] && continue 2
    done
    judge_hidden+=("$path")
  done < <(printf '%s\n' "${found[@]}" | LC_ALL=C sort -u)
}

# judge_worker LABEL PREFIX WORKER TEST ITEM [MEMORY]: the judge's row for
# WORKER on TEST (scan, find_repeats: ITEM elements; render: the scene ITEM
# at --size), --runs timed calls, the shared arrays in MEMORY (default
# --judge-memory). Sets what judge_row sets; JUDGE_LOG is the judge's
# output; the worker's is in PREFIX.worker/, with the judge's per-frame
# costs of a render row.
judge_worker() {
  run_judge "$@"
  judge_row "$4" "$5"
}

# run_judge LABEL PREFIX WORKER TEST ITEM [MEMORY]: runs the judge as
# judge_worker says (saxpy: ITEM elements, its rows read with judge_row);
# its output in JUDGE_LOG, its rows as a table in JUDGE_ROWS (its
# --rows-table: a header line of column names, then a tab-separated line
# a row), its exit status in JUDGE_STATUS. JUDGE_REFERENCE=PATH: that worker is the
# reference, timed interleaved with WORKER (judge_pair).
run_judge() {
  local label=$1 prefix=$2 worker=$3 test=$4 n=$5 memory=${6:-$judge_memory} path
  local -a args=(--worker "$worker" --runs "$runs" --memory "$memory")
  if [ "$test" = render ]; then
    args+=(--scenes "$n" --size "$size")
  else
    args+=(--counts "$n")
  fi
  # The judge's seeds start at 1 (its 0 draws afresh); every part's inputs
  # come from the seed and the secret.
  [[ ! $seed_mode =~ ^[0-9]+$ ]] || args+=(--seed "$((seed_mode + 1))")
  [ -z "${JUDGE_REFERENCE:-}" ] || args+=(--reference-worker "$JUDGE_REFERENCE")
  JUDGE_LOG=$prefix.judge.log JUDGE_ROWS=$prefix.judge.table
  rm -f -- "$JUDGE_ROWS"
  hidden_paths
  for path in "${judge_hidden[@]}"; do args+=(--hide "$path"); done
  [ "$unsandboxed" = 0 ] || args+=(--unsandboxed)
  [ -z "$worker_memory_limit" ] || args+=(--memory-limit "$worker_memory_limit")
  [ "$allow_every_gpu" = 0 ] || args+=(--allow-every-gpu)
  args+=(--time-limit "$(judge_time_limit)")
  args+=(--secret-file "$secret_file")
  mkdir -p -- "$prefix.worker"
  progress "$label: the judge, $runs timed calls"
  run_program "$JUDGE_LOG" "$bin_dir/judge" "${args[@]}" --log-dir "$prefix.worker" --rows-table "$JUDGE_ROWS" "$test"
  JUDGE_STATUS=$?
}

# judge_time_limit: the judge's --time-limit for its next run: what is left
# of --timeout (one run's) and of --time-limit (the grade's, from
# grade.sh's start), less a minute for its own start and end and for the
# call it may be in when the time is up, and at least 1 s (every row
# then ends at once as "time limit").
judge_time_limit() {
  local left=$timeout_s
  [ -z "$time_limit_s" ] || [ $((time_limit_s - SECONDS)) -ge "$left" ] || left=$((time_limit_s - SECONDS))
  left=$((left - 60))
  echo $((left < 1 ? 1 : left))
}

# row_fields [NAME=VALUE...] -- COLUMN...: the COLUMNs of the first row
# of the judge's table on standard input (JUDGE_ROWS; judge score
# --table) whose NAMEs hold the VALUEs, one a line; nothing when no row
# does. The cells hold no tab or line break (the judge's --rows-table);
# an empty one is a field the row has not (null).
row_fields() {
  local -a where=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do
    where+=("$1")
    shift
  done
  shift
  WHERE=$(printf '%s\t' "${where[@]}") WANT=$(printf '%s\t' "$@") awk -F'\t' '
    NR == 1 {
      for (i = 1; i <= NF; i++) column[$i] = i
      n_where = split(ENVIRON["WHERE"], where, "\t") - 1
      n_want = split(ENVIRON["WANT"], want, "\t") - 1
      next
    }
    {
      for (i = 1; i <= n_where; i++) {
        if (where[i] == "") continue
        eq = index(where[i], "=")
        name = substr(where[i], 1, eq - 1)
        if (!(name in column) || $column[name] != substr(where[i], eq + 1)) next
      }
      for (i = 1; i <= n_want; i++) print ((want[i] in column) ? $column[want[i]] : "")
      exit
    }'
}

# judge_row TEST ITEM: the row of TEST and ITEM in JUDGE_ROWS, each field
# read by its name. Sets JUDGE_VERDICT (ok; rejected: the judge caught it;
# nogpu; error: the judge itself could not run), JUDGE_MS (the best call,
# "-" if none), JUDGE_MEDIAN (the median call, "-" if none),
# JUDGE_ROUND_TRIP (the empty round trip, ms) and JUDGE_NOTE (the judge's
# reason, or "unsandboxed"). The times keep the judge's four decimals.
judge_row() {
  local -a row=()
  JUDGE_MS=- JUDGE_MEDIAN=- JUDGE_ROUND_TRIP=- JUDGE_NOTE=""
  [ ! -s "$JUDGE_ROWS" ] ||
    mapfile -t row < <(row_fields "test=$1" "item=$2" -- status best_ms median_ms empty_ms reason <"$JUDGE_ROWS")
  if [ ${#row[@]} -ne 5 ]; then
    JUDGE_VERDICT=$(classify_run "$JUDGE_STATUS" "$JUDGE_LOG")
    [ "$JUDGE_VERDICT" != ok ] && [ "$JUDGE_VERDICT" != wrong ] || JUDGE_VERDICT=error
    JUDGE_NOTE=$(first_failure_line "$JUDGE_LOG")
    return
  fi
  JUDGE_VERDICT=${row[0]}
  [ -z "${row[1]}" ] || JUDGE_MS=$(LC_ALL=C printf '%.4f' "${row[1]}")
  [ -z "${row[2]}" ] || JUDGE_MEDIAN=$(LC_ALL=C printf '%.4f' "${row[2]}")
  JUDGE_ROUND_TRIP=$(LC_ALL=C printf '%.4f' "${row[3]}")
  [ "$JUDGE_VERDICT" = ok ] || JUDGE_VERDICT=rejected
  JUDGE_NOTE=$(one_line "${row[4]}")
}

# judge_score PART REF_MS REF_MEDIAN [CORES]: the row just read (judge_row)
# scored by the course's contract, by the judge (judge score: the grader
# does no arithmetic on a row): sets ROW_SCORE ("n/a" without both times),
# ROW_MAX, ROW_LOW and ROW_HIGH (the scores at the medians' times),
# ROW_SPEEDUP ("N.NNx" or "-") and ROW_REF_MS (the reference time scored
# against: REF_MS, or over CORES cores to 4 decimals). Fails, the judge's
# line in ROW_PROBLEM, when it cannot score.
judge_score() {
  local out status=rejected
  [ "$JUDGE_VERDICT" != ok ] || status=ok
  if ! out=$("$bin_dir/judge" score --table --part "$1" --status "$status" --best-ms "${JUDGE_MS:--}" --median-ms "${JUDGE_MEDIAN:--}" \
    --reference-ms "${2:--}" --reference-median-ms "${3:--}" --reference-cores "${4:-1}" 2>&1); then
    ROW_PROBLEM=$(one_line "$out")
    return 1
  fi
  read_score_fields <<<"$out"
  ROW_REF_MS=$2
  [ "${4:-1}" = 1 ] || [ "$score_ref" = - ] || ROW_REF_MS=$(LC_ALL=C printf '%.4f' "$score_ref")
}

# read_score_fields [NAME=VALUE...]: the score fields of the first row of
# the judge's table on standard input (judge score's, or a scored row's,
# read by name) whose NAMEs hold the VALUEs into ROW_SCORE, ROW_MAX,
# ROW_LOW, ROW_HIGH and ROW_SPEEDUP; score_ref is its ref_ms ("-" for
# none).
read_score_fields() {
  local -a f=()
  mapfile -t f < <(row_fields "$@" -- score max_score score_low score_high speedup ref_ms)
  ROW_SCORE=${f[0]:-n/a} ROW_MAX=${f[1]:-} ROW_LOW=${f[2]:-n/a} ROW_HIGH=${f[3]:-n/a}
  ROW_SPEEDUP=- score_ref=${f[5]:--}
  [ -z "${f[4]:-}" ] || ROW_SPEEDUP=$(LC_ALL=C printf '%.2fx' "${f[4]}")
}

# judge_pair LABEL PREFIX WORKER REFERENCE TEST N: (N: render's scene) the judge on WORKER and
# REFERENCE timed interleaved (its --reference-worker), one row scored by
# the judge: sets what judge_row and read_score_fields set, ROW_REF_MS
# and REF_MEDIAN (the reference's best and median, 4 decimals). Fails,
# with why in ROW_PROBLEM, when the row could not be graded (the
# reference failed, or the judge could not run).
judge_pair() {
  local label=$1 prefix=$2 worker=$3 reference=$4 test=$5 n=$6 graded="" ref_row=""
  JUDGE_REFERENCE=$reference run_judge "$label" "$prefix" "$worker" "$test" "$n"
  judge_row "$test" "$n"
  [ ! -s "$JUDGE_ROWS" ] || graded=$(row_fields "test=$test" "item=$n" role=graded -- role <"$JUDGE_ROWS")
  if [ -z "$graded" ]; then
    [ ! -s "$JUDGE_ROWS" ] ||
      ref_row=$(row_fields "test=reference:$test" "item=$n" status=rejected -- reason <"$JUDGE_ROWS")
    if [ -n "$ref_row" ]; then
      ROW_PROBLEM="the reference $(basename -- "$reference") was rejected by the judge: $(one_line "$ref_row") (log: ${JUDGE_LOG#"$logs"/})"
    else
      ROW_PROBLEM=$(judge_problem)
      [ -n "$ROW_PROBLEM" ] || ROW_PROBLEM="the judge wrote no row (log: ${JUDGE_LOG#"$logs"/})"
    fi
    return 1
  fi
  read_score_fields "test=$test" "item=$n" role=graded <"$JUDGE_ROWS"
  ROW_REF_MS=-
  [ "$score_ref" = - ] || ROW_REF_MS=$(LC_ALL=C printf '%.4f' "$score_ref")
  REF_MEDIAN=$(row_fields "test=reference:$test" "item=$n" -- median_ms <"$JUDGE_ROWS")
  REF_MEDIAN=${REF_MEDIAN:--}
  [ "$REF_MEDIAN" = - ] || REF_MEDIAN=$(LC_ALL=C printf '%.4f' "$REF_MEDIAN")
}

# judge_problem: why the judge cannot grade at all (no GPU, no sandbox),
# from its log, for the part's "not graded" line; nothing when it ran.
judge_problem() {
  case "$JUDGE_VERDICT" in
    ok | rejected) ;;
    nogpu) echo "the judge needs a GPU: $JUDGE_NOTE" ;;
    *)
      if grep -q 'cannot make the sandbox' "$JUDGE_LOG"; then
        echo "$JUDGE_NOTE (scripts/setup.sh installs bubblewrap; --unsandboxed grades your own work without it)"
      else
        echo "the judge $(verdict_text "$JUDGE_VERDICT"): $JUDGE_NOTE (log: ${JUDGE_LOG#"$logs"/})"
      fi
      ;;
  esac
}
