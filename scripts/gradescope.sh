#!/usr/bin/env bash
# Writes Gradescope's autograder results.json from a grade.sh log folder:
# one test per row of scores.tsv (name, score, max_score, status, output),
# and one test scoring 0 per row of not_graded.tsv (a part that could not be
# graded, out of the points it could still have scored, its reason as the
# output), so the student sees why and the total's maximum is the
# assignment's.
# Format: Gradescope's "Autograder Specifications", section "Output format".
#
# Usage: scripts/gradescope.sh [--execution-time SECONDS] LOG_DIR FILE
# grade.sh writes LOG_DIR/results.json with it, and FILE too with
# --gradescope FILE. The JSON is jq's: any bytes a log holds come out as
# valid JSON. Exit status: 0 written, 1 the log folder holds no scores.tsv,
# FILE cannot be written or jq is missing, 2 usage.
set -uo pipefail

usage_error() {
  echo "gradescope.sh: $1 (try --help)" >&2
  exit 2
}

execution_time=""
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --execution-time)
      [ $# -ge 2 ] || usage_error "--execution-time needs a value"
      [[ $2 =~ ^[0-9]{1,9}$ ]] || usage_error "--execution-time: '$2' is not a whole number of seconds"
      execution_time=$2
      shift
      ;;
    -h | --help)
      awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
      exit 0
      ;;
    -*) usage_error "unknown option '$1'" ;;
    *) args+=("$1") ;;
  esac
  shift
done
[ ${#args[@]} -eq 2 ] || usage_error "needs LOG_DIR and FILE"
log_dir=${args[0]} out=${args[1]}
if [ ! -f "$log_dir/scores.tsv" ]; then
  echo "gradescope.sh: $log_dir holds no scores.tsv (is it a grade.sh log folder?)" >&2
  exit 1
fi
not_graded=$log_dir/not_graded.tsv
[ -f "$not_graded" ] || not_graded=/dev/null
command -v jq >/dev/null || {
  echo "gradescope.sh: needs jq, which is not installed (scripts/setup.sh installs it)" >&2
  exit 1
}

# mv would put the file inside a folder and say nothing.
if [ -d "$out" ]; then
  echo "gradescope.sh: '$out' is a folder, not a file" >&2
  exit 1
fi
# Written beside FILE, then renamed: no partial results.json.
tmp_out=$(mktemp "$(dirname -- "$out")/.results.XXXXXX" 2>/dev/null) || {
  echo "gradescope.sh: cannot write in the folder of '$out'" >&2
  exit 1
}
trap 'rm -f "$tmp_out"' EXIT

# rows: a TSV text as objects keyed by its header line; a row of not_graded.tsv
# is a part that could not be graded.
jq -n --rawfile scores "$log_dir/scores.tsv" --rawfile not_graded "$not_graded" \
  --arg execution_time "$execution_time" '
  def rows: split("\n") | map(select(length > 0) | split("\t"))
    | .[0] as $header | .[1:] | map([$header, .] | transpose | map({(.[0]): (.[1] // "")}) | add);
  def number: if test("^[0-9]+(\\.[0-9]+)?$") then tonumber else 0 end;
  def test_of_row:
    {name: "\(.part) \(.item)", score: (.score | number), max_score: (.max_score | number),
     status: (if .verdict == "ok" then "passed" else "failed" end),
     output: ("verdict: \(.verdict)\nyour time: \(.your_ms) ms, reference time: \(.ref_ms) ms (\(.reference)), speedup \(.speedup)"
              + (if (.seed // "-") != "-" and .seed != "" then "\ncheck seed: \(.seed)" else "" end)
              + (if (.round_trip_ms // "-") != "-" then "\ntimed by the judge (its empty round trip: \(.round_trip_ms) ms)" else "" end)
              + (if (.note // "") != "" then "\nthe judge: \(.note)" else "" end))};
  ($not_graded | rows) as $skipped
  | ([$scores | rows | .[] | test_of_row]
     + [$skipped[] | {name: "\(.part) (not graded)", score: 0, max_score: ((.max_score // "0") | number), status: "failed", output: .reason}]) as $tests
  | {score: ([$tests[].score] | add // 0)}
  + (if $execution_time != "" then {execution_time: ($execution_time | tonumber)} else {} end)
  + {output: ([("Graded by scripts/grade.sh: one test per graded item.")]
              + [$skipped[] | "\(.part): not graded: \(.reason)"] | join("\n")),
     visibility: "visible", stdout_visibility: "hidden", tests: $tests}
' >"$tmp_out" || exit 1
mv -f -- "$tmp_out" "$out" || exit 1
trap - EXIT
echo "Gradescope results: $out"
