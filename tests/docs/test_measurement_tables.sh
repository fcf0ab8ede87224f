#!/usr/bin/env bash
# The measurement pages' generated tables are their CSVs' (docs/data, made
# into tables by scripts/dev/measurement_tables.sh), and a stale one is caught.
set -uo pipefail
repo=$1
# shellcheck source=tests/grade/testing.sh
source "$repo/tests/grade/testing.sh"
use_temp_folder
tables=$repo/scripts/dev/measurement_tables.sh

mapfile -t pages < <(grep -l '^<!-- table: begin ' "$repo"/docs/*.md "$repo"/docs/*/*.md)
expect_eq "pages with a generated table" 1 "$([ "${#pages[@]}" -ge 4 ] && echo 1)"
if out=$("$tables" --check "${pages[@]}" 2>&1); then pass; else fail "the pages' tables are their CSVs'" "$out"; fi
# Every CSV a page names: every row has the header's fields, the commit and
# the machine among them.
while IFS= read -r csv; do
  expect_match "$csv: commit and machine columns" '(^|,)commit,machine$' "$(head -n 1 "$repo/docs/$csv")"
done < <(sed -n 's/^<!-- table: begin (made from \(.*\)) -->$/\1/p' "${pages[@]}" | sort -u)

# A copy of a page and its CSV, one figure changed: --check exits 1 naming
# the block and the command, and --write mends the page.
mkdir -p "$tmp/docs/data" "$tmp/docs/measurements"
page=$tmp/docs/measurements/scan_h200.md
cp "$repo/docs/measurements/scan_h200.md" "$page"
sed 's/^10M,scan,28.0,/10M,scan,29.5,/' "$repo/docs/data/scan_bench_h200.csv" >"$tmp/docs/data/scan_bench_h200.csv"
expect_eq "the CSV copy differs" 1 "$(diff -q "$repo/docs/data/scan_bench_h200.csv" "$tmp/docs/data/scan_bench_h200.csv" >/dev/null; echo $?)"
"$tables" --docs "$tmp/docs" --check "$page" 2>"$tmp/err"
expect_eq "a stale table: exit 1" 1 "$?"
expect_eq "a stale table: named, with the fix" \
  "measurement_tables.sh: $page: the table made from data/scan_bench_h200.csv is out of date (scripts/dev/measurement_tables.sh --write $page)" \
  "$(cat "$tmp/err")"
"$tables" --docs "$tmp/docs" --write "$page"
expect_eq "--write: exit 0" 0 "$?"
expect_match "--write: the new figure" '^\| 10M \| scan \| 29.5 \| 34.1 \| 1.22x \|' "$(cat "$page")"
expect_eq "--write: nothing else changed" "< | 10M | scan | 28.0 | 34.1 | 1.22x | 94.2% | 0.0334 | 3.9x |
---
> | 10M | scan | 29.5 | 34.1 | 1.22x | 94.2% | 0.0334 | 3.9x |" \
  "$(diff "$repo/docs/measurements/scan_h200.md" "$page" | sed 1d)"
"$tables" --docs "$tmp/docs" --check "$page"
expect_eq "--write: then up to date" 0 "$?"
expect_eq "--write: nothing left beside the page" "scan_h200.md" "$(ls "$tmp/docs/measurements")"

# Quoted fields, an empty cell, a text column among numbers; commit and
# machine left out.
printf '%s\n' 'name,ms,ratio,note,commit,machine' 'a,1.5,2x,"met, 0.5×",abc1234,GPU' 'b,,50%,"say ""hi""",abc1234,GPU' \
  >"$tmp/docs/data/t.csv"
printf '%s\n' 'before' '<!-- table: begin (made from data/t.csv) -->' 'old' '<!-- table: end -->' 'after' >"$tmp/t.md"
"$tables" --docs "$tmp/docs" --write "$tmp/t.md"
expect_eq "a table of quoted fields" "before
<!-- table: begin (made from data/t.csv) -->
| name | ms | ratio | note |
|---|---:|---:|---|
| a | 1.5 | 2x | met, 0.5× |
| b |  | 50% | say \"hi\" |
<!-- table: end -->
after" "$(cat "$tmp/t.md")"

# Errors: a missing CSV, a block without its end, usage.
printf '%s\n' '<!-- table: begin (made from data/none.csv) -->' '<!-- table: end -->' >"$tmp/none.md"
"$tables" --docs "$tmp/docs" --check "$tmp/none.md" 2>/dev/null
expect_eq "a missing CSV: exit 1" 1 "$?"
printf '%s\n' '<!-- table: begin (made from data/t.csv) -->' '| x |' >"$tmp/open.md"
cp "$tmp/open.md" "$tmp/open.orig"
"$tables" --docs "$tmp/docs" --write "$tmp/open.md" 2>/dev/null
expect_eq "a block without its end: exit 1" 1 "$?"
expect_eq "a block without its end: left as it was" "" "$(diff "$tmp/open.orig" "$tmp/open.md")"
"$tables" --bogus 2>"$tmp/err"
expect_eq "an unknown option: exit 2" 2 "$?"
expect_eq "an unknown option: one line" 1 "$(wc -l <"$tmp/err")"
"$tables" --help >/dev/null
expect_eq "--help: exit 0" 0 "$?"
finish
