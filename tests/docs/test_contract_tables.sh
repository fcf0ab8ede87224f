#!/usr/bin/env bash
# The docs' contract tables are the contract's (scripts/dev/contract_table.sh
# makes them from judge/contract/course.json), and a stale one is caught.
set -uo pipefail
repo=$1
# shellcheck source=tests/grade/testing.sh
source "$repo/tests/grade/testing.sh"
command -v jq >/dev/null || { echo "SKIPPED: jq is not installed (scripts/setup.sh installs it)"; exit 77; }
use_temp_folder

docs=("$repo/docs/grading.md" "$repo/docs/students.md")
if out=$("$repo/scripts/dev/contract_table.sh" --check "${docs[@]}" 2>&1); then pass; else fail "the docs' tables are the contract's" "$out"; fi
table=$("$repo/scripts/dev/contract_table.sh")
expect_match "render's row: its points and rule" \
  '^\| render \| 8 scenes at 1024x1024: rgb, .* \| 9 \| 72 \| 9 if T <= 1.2 T_ref; 2 if T > 10 T_ref; else 2 \+ ceil\(7 T_ref / T\) \|$' "$table"
expect_match "scan's row" '^\| scan \| 4 sizes: 1000000, 10000000, 20000000, 40000000 elements \| 1.25 \| 5 \| 1.25 if T <= 1.2 T_ref, else 1.25 T_ref / T \|$' "$table"

# A doc whose table says 8 points per scene is caught, and --write mends it.
sed 's/| render | 8 scenes at 1024x1024: \(.*\) | 9 | 72 |/| render | 8 scenes at 1024x1024: \1 | 8 | 64 |/' "$repo/docs/students.md" >"$tmp/students.md"
expect_eq "the stale copy differs" 1 "$(diff -q "$repo/docs/students.md" "$tmp/students.md" >/dev/null; echo $?)"
"$repo/scripts/dev/contract_table.sh" --check "$tmp/students.md" 2>"$tmp/err"
expect_eq "a stale table: exit 1" 1 "$?"
expect_match "a stale table: named" "students.md: the contract block is out of date" "$(cat "$tmp/err")"
"$repo/scripts/dev/contract_table.sh" --write "$tmp/students.md"
expect_eq "--write mends it" "" "$(diff "$repo/docs/students.md" "$tmp/students.md")"
echo "no block" >"$tmp/none.md"
"$repo/scripts/dev/contract_table.sh" --check "$tmp/none.md" 2>/dev/null
expect_eq "a doc without a block: exit 1" 1 "$?"
finish
