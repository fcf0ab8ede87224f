#!/usr/bin/env bash
# Writes Gradescope's autograder results.json from a grade.sh log folder:
# one test per row of scores.csv (name, score, max_score, status, output),
# and one test scoring 0 of 0 per part that could not be graded (its reason
# as the output, from results.md), so the student sees why. Format:
# Gradescope's "Autograder Specifications", section "Output format".
#
# Usage: scripts/gradescope.sh [--execution-time SECONDS] LOG_DIR FILE
# grade.sh --gradescope FILE runs it on its own log folder. Bash and awk
# only. Exit status: 0 written, 1 the log folder holds no scores.csv or FILE
# cannot be written, 2 usage.
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
if [ ! -f "$log_dir/scores.csv" ]; then
  echo "gradescope.sh: $log_dir holds no scores.csv (is it a grade.sh log folder?)" >&2
  exit 1
fi
results_md=$log_dir/results.md
[ -f "$results_md" ] || results_md=/dev/null

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

awk -v execution_time="$execution_time" -v results_md="$results_md" '
  # csv_split(LINE, F): RFC 4180 fields of LINE into F[1..n]; returns n.
  function csv_split(line, f,    n, i, c, field, quoted) {
    n = 0; field = ""; quoted = 0
    for (i = 1; i <= length(line); i++) {
      c = substr(line, i, 1)
      if (quoted) {
        if (c == "\"" && substr(line, i + 1, 1) == "\"") { field = field "\""; i++ }
        else if (c == "\"") quoted = 0
        else field = field c
      } else if (c == "\"") quoted = 1
      else if (c == ",") { f[++n] = field; field = "" }
      else field = field c
    }
    f[++n] = field
    return n
  }
  function json_string(s) {
    gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); gsub(/\t/, "\\t", s); gsub(/\r/, "", s)
    gsub(/\n/, "\\n", s)
    return "\"" s "\""
  }
  function number(s) { return s ~ /^[0-9]+(\.[0-9]+)?$/ ? s : "0" }
  function add_test(name, score, max, status, output) {
    tests[++count] = "    {\"name\": " json_string(name) ", \"score\": " score \
      ", \"max_score\": " max ", \"status\": \"" status "\", \"output\": " json_string(output) "}"
    total += score
  }
  FNR == 1 && FILENAME != results_md {
    ncol = csv_split($0, header)
    for (i = 1; i <= ncol; i++) col[header[i]] = i
    next
  }
  FILENAME != results_md {
    csv_split($0, f)
    verdict = f[col["verdict"]]
    output = "verdict: " verdict "\nyour time: " f[col["your_ms"]] " ms, reference time: " \
      f[col["ref_ms"]] " ms (" f[col["reference"]] "), speedup " f[col["speedup"]]
    if (f[col["seed"]] != "" && f[col["seed"]] != "-") output = output "\ncheck seed: " f[col["seed"]]
    add_test(f[col["part"]] " " f[col["item"]], number(f[col["score"]]), number(f[col["max_score"]]),
             verdict == "ok" ? "passed" : "failed", output)
    next
  }
  /: not graded: / {
    part = $0; sub(/: not graded: .*/, "", part)
    reason = $0; sub(/^[^:]*: not graded: /, "", reason)
    add_test(part " (not graded)", 0, 0, "failed", reason)
    not_graded = not_graded (not_graded == "" ? "" : "\n") $0
  }
  END {
    print "{"
    printf "  \"score\": %s,\n", total + 0
    if (execution_time != "") printf "  \"execution_time\": %s,\n", execution_time
    output = "Graded by scripts/grade.sh: one test per graded item."
    if (not_graded != "") output = output "\n" not_graded
    printf "  \"output\": %s,\n", json_string(output)
    print "  \"visibility\": \"visible\","
    print "  \"stdout_visibility\": \"hidden\","
    print "  \"tests\": ["
    for (i = 1; i <= count; i++) printf "%s%s\n", tests[i], i < count ? "," : ""
    print "  ]"
    print "}"
  }
' "$log_dir/scores.csv" "$results_md" >"$tmp_out" || exit 1
mv -f -- "$tmp_out" "$out" || exit 1
trap - EXIT
echo "Gradescope results: $out"
