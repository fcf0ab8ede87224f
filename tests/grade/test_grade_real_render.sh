#!/usr/bin/env bash
# End-to-end test of scripts/grade.sh on the real render program: the CPU
# renderer graded against the serial one on two small scenes, so it runs in
# CI without a GPU. Usage: test_grade_real_render.sh PATH_TO_RENDER
# Exit status 77 (skipped) when render is not built.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/grade/testing.sh
source "$here/testing.sh"
render=${1:-}
if [ -z "$render" ] || [ ! -x "$render" ]; then
  echo "SKIPPED: the render program is not built (${render:-no path given})"
  exit 77
fi

use_temp_folder
quiet_machine

# run_grade NAME [OPTIONS]: grades rgb and pattern at 64x64, once each.
run_grade() {
  local name=$1
  shift
  OUT=$("$here/../../scripts/grade.sh" render --renderer cpu --scenes rgb,pattern --size 64 --runs 1 \
    --bin-dir "$(dirname "$render")" --logs "$tmp/$name" --cache-dir "$tmp/cache" "$@" 2>"$tmp/$name.err")
  STATUS=$?
  COMMANDS=$(cat "$tmp/$name/commands.txt")
}

run_grade first
expect_eq "exit status" 0 "$STATUS"
expect_match "rgb graded, correct" '^\| rgb +\| [0-9.]+ +\| [0-9.]+ +\| [2-9] +\| [0-9.]+x +\| serial / [0-9]+ cores \(perfect scaling\) +\|$' "$OUT"
expect_match "pattern graded, correct" '^\| pattern +\| [0-9.]+ +\| [0-9.]+ +\| [2-9] +\|' "$OUT"
expect_match "total" '\| Total score: +\| [0-9]+/18 +\|' "$OUT"
expect_no_match "no (F)" '\(F\)' "$OUT"
expect_match "the check passed in its log" 'Correctness check passed' "$(cat "$tmp/first/render/pattern.check.log")"
expect_eq "serial runs: an image and a timing per scene" 4 "$(grep -c -- ' -r cpuref ' <<<"$COMMANDS")"
expect_match "checked against the stored image" "^render/pattern.check.log: .* -c --check-against $tmp/cache/render/pattern-64px-seed[0-9]+-[0-9a-f]{16}\.rgbaf " "$COMMANDS"

run_grade second
expect_eq "second run: exit status" 0 "$STATUS"
expect_match "second run: serial times from the cache" '^\| rgb .*\| serial / [0-9]+ cores \(perfect scaling, cached\) +\|$' "$OUT"
expect_eq "second run: no serial render at all" 0 "$(grep -c -- ' -r cpuref ' <<<"$COMMANDS")"
expect_eq "second run: both checks against stored images" 2 "$(grep -c -- ' -c --check-against ' <<<"$COMMANDS")"
expect_match "second run: the check passed" 'Correctness check passed' "$(cat "$tmp/second/render/rgb.check.log")"

run_grade fresh --no-cache
expect_eq "no cache: exit status" 0 "$STATUS"
expect_match "no cache: a fresh image in the log folder" "-c --check-against $tmp/fresh/render/rgb-64px-seed[0-9]+-[0-9a-f]{16}\.rgbaf " "$COMMANDS"

# A damaged cached image fails the check with render's reason.
image=$(ls "$tmp"/cache/render/rgb-64px-*.rgbaf)
truncate -s -1 "$image"
run_grade damaged
expect_eq "damaged image: exit status" 1 "$STATUS"
expect_match "damaged image: render's reason" "^grade.sh: render rgb, seed [0-9]+: failed to run: render: error: cannot read $image: truncated" "$(cat "$tmp/damaged.err")"

[ "$failed" -eq 0 ] || { echo "stderr of the first run:"; cat "$tmp/first.err"; }
finish
