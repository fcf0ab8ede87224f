#!/usr/bin/env bash
# End-to-end test of scripts/grade.sh's render part on the real judge: the
# CPU renderer's worker graded against the serial worker's time over the
# cores on two small scenes, on host memory, so it runs in CI without a GPU.
# Usage: test_grade_real_render.sh BIN_DIR (the judge's, with judge_render_cpu
# and judge_render_serial). Exit status 77 (skipped) when they are not built
# or bubblewrap is missing.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/grade/testing.sh
source "$here/testing.sh"
bin=${1:-}
for program in judge judge_render_cpu judge_render_serial; do
  if [ -z "$bin" ] || [ ! -x "$bin/$program" ]; then
    echo "SKIPPED: $program is not built (${bin:-no folder given})"
    exit 77
  fi
done
command -v bwrap >/dev/null || { echo "SKIPPED: bubblewrap is not installed (scripts/setup.sh --tests installs it)"; exit 77; }
memory_limit=()
if grep -q __asan_init "$bin/judge_render_cpu"; then memory_limit=(--worker-memory-limit 0); fi

use_temp_folder
quiet_machine

# run_grade NAME [OPTIONS]: grades rgb and pattern at 64x64, two frames each.
run_grade() {
  local name=$1
  shift
  OUT=$("$here/../../scripts/grade.sh" render --renderer cpu --scenes rgb,pattern --size 64 --runs 2 \
    --bin-dir "$bin" --logs "$tmp/$name" --cache-dir "$tmp/cache" "${memory_limit[@]}" "$@" 2>"$tmp/$name.err")
  STATUS=$?
  COMMANDS=$(cat "$tmp/$name/commands.txt")
}

run_grade first
expect_eq "exit status" 0 "$STATUS"
expect_match "rgb graded, correct" \
  '^\| rgb +\| [0-9.]+ +\| [0-9.]+ +\| [2-9] +\| [0-9.]+x +\| [0-9.]+ +\| serial / [0-9]+ cores \(perfect scaling\) +\|$' "$OUT"
expect_match "pattern graded, correct" '^\| pattern +\| [0-9.]+ +\| [0-9.]+ +\| [2-9] +\|' "$OUT"
expect_match "total" '\| Total score: +\| [0-9]+/18 +\|' "$OUT"
expect_no_match "no (F)" '\(F\)' "$OUT"
expect_eq "the judge on the serial worker, once per scene" 2 "$(grep -c 'judge --worker [^ ]*/judge_render_serial' <<<"$COMMANDS")"
expect_match "the judge's rows in its log" $'^render\tpattern\tok\t' "$(cat "$tmp/first/render/pattern.judge_render_cpu.judge.log")"

run_grade second
expect_eq "second run: exit status" 0 "$STATUS"
expect_match "second run: serial times from the cache" '^\| rgb .*\| serial / [0-9]+ cores \(perfect scaling, cached\) +\|$' "$OUT"
expect_eq "second run: no serial worker at all" 0 "$(grep -c 'judge_render_serial' <<<"$COMMANDS")"

run_grade fresh --no-cache
expect_eq "no cache: exit status" 0 "$STATUS"
expect_eq "no cache: the serial worker again" 2 "$(grep -c 'judge --worker [^ ]*/judge_render_serial' <<<"$COMMANDS")"

[ "$failed" -eq 0 ] || { echo "stderr of the first run:"; cat "$tmp/first.err"; }
finish
