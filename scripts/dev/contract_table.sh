#!/usr/bin/env bash
# Prints the course's contract (judge/contract/course.json) as the Markdown
# block the docs show between "<!-- contract: begin -->" and
# "<!-- contract: end -->" (docs/grading.md, docs/students.md), so that the
# docs never restate a point or a threshold by hand. With --check FILE...:
# exit 1, naming each, where a file's block is not what this prints;
# with --write FILE...: replaces each file's block with it.
# Usage: scripts/dev/contract_table.sh [--check|--write FILE...]
set -euo pipefail
contract=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/judge/contract/course.json

block() {
  echo "<!-- contract: begin (made from judge/contract/course.json) -->"
  jq -r '
    def rule_text(r):
      if r.formula == "proportional" then
        "\(r.points) if T <= \(r.full_at) T_ref, else \(r.points) T_ref / T"
      else
        "\(r.points) if T <= \(r.full_at) T_ref; \(r.floor_points) if T > \(r.floor_beyond) T_ref; else \(r.floor_points) + ceil(\(r.points - r.floor_points) T_ref / T)"
      end;
    . as $c |
    "| part | rows | points per row | most | a correct row scores |",
    "|---|---|---:|---:|---|",
    (.parts[] | . as $p | $c.rules[$p.rule] as $r | $c[$p.items] as $items |
      "| \($p.part) | " +
      (if $p.items == "scenes" then "\($items | length) scenes at \($c.size)x\($c.size): \($items | join(", "))"
       else "\($items | length) sizes: \($items | map(tostring) | join(", ")) elements" end) +
      " | \($r.points) | \($r.points * ($items | length)) | \(rule_text($r)) |"),
    "",
    "T is the best of \(.runs) timed calls of the graded code, T_ref the reference'"'"'s, both on the judge'"'"'s clock; an incorrect or rejected row scores 0. saxpy is timed at \(.saxpy_count) elements and scores no points."
  ' "$contract"
  echo "<!-- contract: end -->"
}

# replace FILE: FILE with its block replaced by BLOCK, on stdout.
replace() {
  awk -v block="$BLOCK" '
    /^<!-- contract: begin/ { print block; skipping = 1; next }
    /^<!-- contract: end -->/ { skipping = 0; next }
    !skipping' "$1"
}

mode=${1:-}
case "$mode" in
  "") block ;;
  --check | --write)
    shift
    [ $# -gt 0 ] || { echo "contract_table.sh: $mode needs files" >&2; exit 2; }
    BLOCK=$(block)
    status=0
    for file in "$@"; do
      grep -q '^<!-- contract: begin' "$file" || { echo "contract_table.sh: $file has no contract block" >&2; status=1; continue; }
      if [ "$mode" = --write ]; then
        replace "$file" >"$file.new" && mv -f -- "$file.new" "$file"
      elif ! diff -u "$file" <(replace "$file") >/dev/null; then
        echo "contract_table.sh: $file: the contract block is out of date (scripts/dev/contract_table.sh --write $file)" >&2
        status=1
      fi
    done
    exit "$status"
    ;;
  -h | --help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "contract_table.sh: unknown option '$mode' (try --help)" >&2; exit 2 ;;
esac
