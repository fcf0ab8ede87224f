# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154  # the settings are options.sh's, shared by every part
# grade.sh's output: the score tables on stdout and in results.md, and the results files.
# Sourced by scripts/grade.sh, after grade_lib.sh, options_lib.sh and run_lib.sh.

# ---------------------------------------------------------------- tables

# print_score_table PART TITLE ITEM_HEADER REF_HEADER YOUR_HEADER:
# the part's rows of scores.tsv in the course's layout (stdout) and in
# Markdown (results.md). Incorrect results get "(F)" after their time;
# scores show at most 3 decimals, the total is summed from the exact ones.
# Rows the judge timed show its empty round trip, the overhead inside each
# time; the judge's notes (why a row was rejected) follow the table, in
# results.md as Markdown text (markdown_text).
print_score_table() {
  local part=$1 title=$2 tsv notes md_notes item note judged trip_header=""
  judged=$(awk -F '\t' -v part="$part" '$1 == part && $11 != "-" { print "yes"; exit }' "$scores_tsv")
  [ -z "$judged" ] || trip_header=$'Round trip\t'
  tsv=$(
    printf '%s\t%s\t%s\tScore\tSpeedup\t%sReference\n' "$3" "$4" "$5" "$trip_header"
    awk -F '\t' -v part="$part" -v judged="$judged" '$1 == part {
      t = $6; if ($8 != "ok") t = t " (F)"
      s = $9; if (s ~ /^[0-9.]+$/) { s = sprintf("%.3f", s); sub(/0+$/, "", s); sub(/\.$/, "", s) }
      print $2 "\t" $5 "\t" t "\t" s "\t" $7 "\t" (judged ? $11 "\t" : "") $4 }' "$scores_tsv"
    printf 'TOTAL\t%s\n' "$(part_total "$part")"
  )
  notes=$(awk -F '\t' -v part="$part" '$1 == part && $12 != "" { print "  " $2 ": " $12 }' "$scores_tsv")
  # In results.md a note is Markdown text (markdown_text): it may quote the
  # student's worker, whose words must not render as the staff's page.
  md_notes=$(awk -F '\t' -v part="$part" '$1 == part && $12 != "" { print $2 "\t" $12 }' "$scores_tsv" |
    while IFS= read -r note; do
      item=${note%%$'\t'*} note=${note#*$'\t'}
      printf -- '- %s: %s\n' "$item" "$(markdown_text "$note")"
    done)
  {
    printf '%s\n' "$tsv" | format_box_table "$title" 4
    [ -z "$notes" ] || printf 'The judge'"'"'s notes:\n%s\n' "$notes"
    echo
  } | paint
  {
    printf '%s\n' "$tsv" | format_markdown_table "$title" 4
    [ -z "$md_notes" ] || printf 'The judge'"'"'s notes:\n\n%s\n\n' "$md_notes"
  } >>"$results_part"
}

# part_total PART: "SUM/MAX" of the part's rows.
part_total() { awk -F '\t' -v part="$1" '$1 == part { print $9, $10 }' "$scores_tsv" | score_total; }

# print_ladder_table TITLE ITEMS PART_PREFIX RUNG...: one row per rung: its
# time per item ("(F)" when wrong) and its total.
print_ladder_table() {
  local title=$1 items=$2 prefix=$3 rung tsv
  shift 3
  tsv=$(
    printf 'Rung\t%s\tTotal score\n' "$(tr ',' '\t' <<<"$items")"
    for rung in "$@"; do
      awk -F '\t' -v part="$prefix/$rung" -v rung="$rung" -v total="$(part_total "$prefix/$rung")" '
        $1 == part { t = $6; if ($8 != "ok") t = t " (F)"; line = line "\t" t }
        END { print rung line "\t" total }' "$scores_tsv"
    done
  )
  {
    printf '%s\n' "$tsv" | format_box_table "$title" 0
    echo
  } | paint
  printf '%s\n' "$tsv" | format_markdown_table "$title" 0 >>"$results_part"
}


# write_results: the tables as they were carried, in TSV (scores.tsv, and
# not_graded.tsv: each part that could not run and why), and what is made
# from them: scores.csv (tsv_to_csv, the one CSV writer), results.json
# (write_gradescope) and results.md.
write_results() {
  local files="results.md, scores.csv, scores.tsv, not_graded.tsv"
  {
    printf 'part\titem\tseed\treference\tref_ms\tyour_ms\tspeedup\tverdict\tscore\tmax_score\tround_trip_ms\tnote\n'
    cat "$scores_tsv"
  } >"$logs/scores.tsv"
  {
    printf 'part\treason\tmax_score\n'
    cat "$not_graded_tsv"
  } >"$logs/not_graded.tsv"
  tsv_to_csv <"$logs/scores.tsv" >"$logs/scores.csv"
  mv -f -- "$results_part" "$logs/results.md"
  rm -f -- "$scores_tsv" "$not_graded_tsv"
  finished=1
  rmdir "$work_dir" 2>/dev/null || true  # kept only when a program left files there
  [ ! -f "$logs/saxpy.csv" ] || files+=", saxpy.csv"
  if write_gradescope "$logs/results.json" >/dev/null; then
    files+=", results.json"
  else
    exit_status=1
  fi
  echo "Logs and results ($files): $logs"
}

# write_gradescope FILE: Gradescope's results.json of the log folder, written
# by the judge (judge results: the rows as typed rows, the JSON byte for
# byte as grade.sh wrote it before), whole or not at all. Without the judge none is written, and
# this says why.
write_gradescope() {
  if ! ensure_program judge; then
    warn "$(basename -- "$1") is not written: it is the judge's to write, and $(unavailable judge)"
    return 1
  fi
  "$bin_dir/judge" results --execution-time "$SECONDS" -- "$logs" "$1"
}

# print_maximum_points: each scoring part's most points (--maximum), by the
# course's contract.
print_maximum_points() {
  local part rung n max
  for part in "${parts[@]}"; do
    case "$part" in
      scan | find_repeats) n=$(wc -w <<<"${counts//,/ }") ;;
      render) n=$(wc -w <<<"${scenes//,/ }") ;;
      *) continue ;;
    esac
    max=$(contract_maximum "$part" "$n")
    if [ "$ladder" = 0 ]; then
      printf '%s\t%s\n' "$part" "$max"
    else
      local -a rungs=("${scan_rungs[@]}")
      [ "$part" != render ] || rungs=("${render_rungs[@]}")
      for rung in "${rungs[@]}"; do printf '%s\t%s\n' "$part/$rung" "$max"; done
    fi
  done
}

# points_left PART: what PART may still score beyond its rows so far (its
# maximum less its rows' maxima): what a part not graded costs.
points_left() {
  local max
  max=$(print_maximum_points | awk -F '\t' -v p="$1" '$1 == p { print $2 }')
  awk -F '\t' -v p="$1" -v max="${max:-0}" '$1 == p { m += $10 } END { v = max - m; printf "%g\n", (v > 0 ? v : 0) }' "$scores_tsv"
}
