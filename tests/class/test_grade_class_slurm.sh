#!/usr/bin/env bash
# scripts/class/grade_class.sh --slurm on a real single-node Slurm cluster
# (slurm_cluster.sh: Debian's slurmctld, slurmd and munged, started for the
# test and stopped at its end), on the stand-in class of class_standins.sh,
# the tasks asking for no GPU gres (the test cluster has none): the same
# gradebook as the local engine, a task cancelled mid-run and graded on its
# retry, a re-run that submits nothing, a changed submission graded alone. Skips (77) without root, Slurm, munge, zip or
# unzip.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=tests/grade/testing.sh
source "$repo/tests/grade/testing.sh"
# shellcheck source=tests/class/slurm_cluster.sh
source "$here/slurm_cluster.sh"
# shellcheck source=tests/class/class_standins.sh
source "$here/class_standins.sh"
skip_without_slurm
use_temp_folder
trap 'stop_cluster; rm -rf "$tmp"' EXIT
make_class
# A task killed mid-run (its node going down): retried once, then graded.
mkdir -p "$subs/ivan"
printf 'DIE_ONCE\nPOINTS scan 4\n' >"$subs/ivan/student_scan.cu"
start_cluster "$tmp/cluster" || { fail "the test cluster starts"; finish; exit 1; }
pass

# run_slurm NAME [OPTIONS]: grade_class.sh --slurm --wait; OUT, ERR, STATUS.
run_slurm() {
  local name=$1
  shift
  OUT=$("$repo/scripts/class/grade_class.sh" --slurm --wait --slurm-gres none --handout "$handout" --out "$tmp/out" \
    --timeout 30 --grade-timeout 3 "$@" "$subs" 2>"$tmp/$name.err")
  STATUS=$?
  ERR=$(cat "$tmp/$name.err")
}
book() { grep "^$1," "$tmp/out/gradebook.csv"; }

: >"$GRADE_CALLS"
run_slurm first
expect_eq "slurm: exit status (some not graded)" 1 "$STATUS"
expect_match "slurm: the array and the gradebook job submitted" \
  '^Submitted to Slurm: array [0-9]+ \(11 submissions\), gradebook job [0-9]+' "$OUT"
expect_eq "slurm: ivan's task killed once" yes "$([ -e "$GRADE_CALLS.died" ] && echo yes || echo no)"
expect_match "slurm: the gradebook job retried it" 'retrying the submissions whose task ended without a grade: ivan' \
  "$(cat "$tmp"/out/.slurm/collect-*.out)"
expect_eq "slurm: ivan graded on the second try" "ivan,4,0,0,4,82,graded,\"none\"" "$(book ivan)"
expect_eq "slurm: alice" "alice,5,2.5,60,67.5,82,graded,\"none\"" "$(book alice)"
expect_eq "slurm: bob" "bob,0,0,72,72,82,graded,\"none\"" "$(book bob)"
expect_match "slurm: carol does not build" '^carol,0,0,0,0,82,build failed,' "$(book carol)"
expect_match "slurm: dave refused" '^dave,0,0,0,0,82,refused,' "$(book dave)"
expect_match "slurm: gina past the limit" '^gina,0,0,0,0,82,not graded,' "$(book gina)"
expect_eq "slurm: a task per submission, and the retry's" 12 "$(find "$tmp/out/.slurm" -name 'task-*.out' | wc -l)"
expect_match "slurm: progress" 'graded [0-9]+ of 11' "$ERR"
expect_eq "slurm: the summary" yes "$([ -f "$tmp/out/summary.md" ] && echo yes || echo no)"
calls=$(wc -l <"$GRADE_CALLS")

run_slurm second
# Only what the grader could not grade: nina's part without a GPU, gina's
# hang past --grade-timeout.
expect_match "slurm re-run: only the ungraded submitted again" '\(2 submissions\)' "$OUT"
expect_eq "slurm re-run: nina and gina graded again" "$((calls + 2))" "$(wc -l <"$GRADE_CALLS")"
expect_eq "slurm: hugo, slow, graded on what it finished" "hugo,4,0,0,4,82,graded,\"none\"" "$(book hugo)"
printf 'POINTS render 72\n' >"$subs/alice/student_renderer.cu"
run_slurm third --array-limit 2 --sbatch-option --comment=class-test
expect_match "slurm, a changed submission: its task, with the ungraded ones" '\(3 submissions\)' "$OUT"
# The array at most two tasks at once; the option given to both jobs.
array=$(sed -n 's/^Submitted to Slurm: array \([0-9]*\) .*gradebook job \([0-9]*\).*/\1 \2/p' <<<"$OUT")
expect_match "--array-limit: the array's throttle" 'ArrayTaskThrottle=2' "$(scontrol show job "${array% *}" 2>&1)"
expect_match "--sbatch-option: on the array" 'Comment=class-test' "$(scontrol show job "${array% *}" 2>&1)"
expect_match "--sbatch-option: on the gradebook job" 'Comment=class-test' "$(scontrol show job "${array#* }" 2>&1)"
expect_match "--sbatch-option: kept for a retry" "--sbatch-option --comment=class-test" "$(cat "$tmp/out/.slurm/collect.sh")"
OUT=$("$repo/scripts/class/grade_class.sh" --handout "$handout" --array-limit 2 "$subs" 2>&1)
expect_eq "--array-limit without --slurm: usage error" 2 "$?"
OUT=$("$repo/scripts/class/grade_class.sh" --slurm --handout "$handout" --array-limit 0 "$subs" 2>&1)
expect_eq "--array-limit 0: usage error" 2 "$?"
OUT=$("$repo/scripts/class/grade_class.sh" --slurm --handout "$handout" --sbatch-option qos "$subs" 2>&1)
expect_eq "--sbatch-option not an option: usage error" 2 "$?"
expect_eq "slurm, a changed submission: its new row" "alice,5,2.5,72,79.5,82,graded,\"none\"" "$(book alice)"
expect_eq "slurm, a changed submission: the others kept" "bob,0,0,72,72,82,graded,\"none\"" "$(book bob)"

# Ctrl-C while following: the jobs it submitted are cancelled, and it says so.
need_proc
mkdir -p "$tmp/paused-class/hal"
echo "HANG $pause" >"$tmp/paused-class/hal/student_scan.cu"
stop_while_paused "slurm --wait stopped by SIGINT" INT 130 "$repo/scripts/class/grade_class.sh" --slurm --wait \
  --slurm-gres none --handout "$handout" --out "$tmp/paused-out" "$tmp/paused-class"
expect_match "SIGINT: the jobs cancelled, said" '; cancelled the Slurm jobs [0-9]+,[0-9]+$' "$STOP_ERR"
for ((i = 0; i < 50; i++)); do [ -n "$(squeue -h 2>/dev/null)" ] || break; sleep 0.2; done
expect_eq "SIGINT: nothing left in the queue" "" "$(squeue -h 2>/dev/null)"
finish
