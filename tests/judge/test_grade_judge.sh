#!/usr/bin/env bash
# grade.sh's scan and find_repeats parts on the real judge, with workers
# built on host code (--judge-memory host), so it runs without a GPU: an
# honest worker keeps full marks against a slower reference, a slow one
# gets the course's partial score, and submissions that forge their lines or
# hand the work to another program of the build get 0 with the judge's
# reason, whatever they print. Skips (77) without bubblewrap or jq.
#
# Usage: test_grade_judge.sh BIN_DIR (the build's bin: judge and the workers)
set -uo pipefail
bin=$(cd "$1" && pwd) || exit 1
repo=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/grade/testing.sh
source "$repo/tests/grade/testing.sh"
for tool in bwrap jq; do
  command -v "$tool" >/dev/null || { echo "SKIPPED: $tool is not installed (scripts/setup.sh --tests installs it)"; exit 77; }
done
use_temp_folder
# Workers built with AddressSanitizer reserve terabytes of shadow memory,
# which the judge's data limit counts (as in test_judge_exploits.sh).
memory_limit=()
if grep -q __asan_init "$bin/judge_worker_honest"; then memory_limit=(--worker-memory-limit 0); fi

# grade_with NAME STUDENT REFERENCE [ARGS...]: grade.sh on the workers
# judge_worker_STUDENT (as the student's scan_worker) and
# judge_worker_REFERENCE (as the reference), both parts, sizes 17 and 1000.
# Best of 3 calls, so one slow wake-up on a busy machine moves no score.
# Sets STATUS, OUT, LOGS.
grade_with() {
  local name=$1 student=$2 reference=$3 programs=$tmp/$1.bin
  shift 3
  mkdir -p "$programs"
  ln -s "$bin/judge" "$programs/judge"
  ln -s "$bin/judge_worker_$student" "$programs/scan_worker"
  ln -s "$bin/judge_worker_$reference" "$programs/judge_scan_reference"
  LOGS=$tmp/$name.logs
  OUT=$("$repo/scripts/grade.sh" scan find_repeats --counts 17,1000 --runs 3 --bin-dir "$programs" \
    --judge-memory host --logs "$LOGS" --quiet "${memory_limit[@]}" "$@" 2>"$tmp/$name.err")
  STATUS=$?
}

# column NAME: one column of the log folder's scores.tsv, the rows joined by commas.
column() {
  awk -F '\t' -v name="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next }
    { printf "%s%s", sep, $c; sep = "," }' "$LOGS/scores.tsv"
}

grade_with honest honest slow_honest
expect_eq "honest: exit status" 0 "$STATUS"
expect_eq "honest: every row correct" ok,ok,ok,ok "$(column verdict)"
expect_eq "honest: full marks" 1.25,1.25,1.25,1.25 "$(column score)"
expect_match "honest: the judge's round trip in each row" '^[0-9.]+,[0-9.]+,[0-9.]+,[0-9.]+$' "$(column round_trip_ms)"
expect_match "honest: the table names the judge" 'Score table: scan \(ms, best of 3 timed by the judge\)' "$OUT"
expect_eq "honest: results.json's total" 5 "$(jq '.score' "$LOGS/results.json")"

# 100 ms against 20: 1.25 * 20 / 100 = 0.25 a row, give or take the sleeps
# (on a busy machine a sleep of 20 ms can take 40): partial, far from full.
grade_with slow slower_honest slow_honest
expect_eq "slow: exit status" 0 "$STATUS"
expect_eq "slow: every row correct" ok,ok,ok,ok "$(column verdict)"
expect_eq "slow: the course's partial score" yes \
  "$(column score | awk -F, '{ for (i = 1; i <= NF; i++) if ($i < 0.1 || $i >= 1) { print "no: " $0; exit } print "yes" }')"

grade_with forged forged_print slow_honest
expect_eq "forged lines: exit status" 1 "$STATUS"
expect_eq "forged lines: every row rejected" rejected,rejected,rejected,rejected "$(column verdict)"
expect_eq "forged lines: no points" 0,0,0,0 "$(column score)"
expect_match "forged lines: the judge's reason" 'differs from the reference' "$(column note)"
expect_no_match "forged lines: its lines stay in its log" 'Student GPU time|outputs are correct' "$OUT"
expect_match "forged lines: its lines are in its log" 'Student GPU time: 0.001 ms' \
  "$(cat "$LOGS"/scan/17.worker/*.log)"
expect_match "forged lines: results.json says why" 'the judge: output of timed call 1 differs' \
  "$(jq -r '.tests[0].output' "$LOGS/results.json")"

# The build's folder is hidden: the worker cannot become another worker.
grade_with sibling run_sibling slow_honest
expect_eq "handing over to another program: exit status" 1 "$STATUS"
expect_eq "handing over to another program: no points" 0,0,0,0 "$(column score)"

# Without the sandbox the same attack works: --unsandboxed is for one's own
# work, and every row says so.
grade_with sibling_unsandboxed run_sibling slow_honest --unsandboxed
expect_eq "unsandboxed: the rows say so" unsandboxed,unsandboxed,unsandboxed,unsandboxed "$(column note)"

# A reference that the judge rejects stops the part, with the reason.
grade_with bad_reference honest forged_print
expect_eq "rejected reference: exit status" 1 "$STATUS"
expect_match "rejected reference: not graded, with the reason" \
  '^scan	the reference .* was rejected by the judge: output of timed call 1 differs' "$(cat "$LOGS/not_graded.tsv")"
finish
