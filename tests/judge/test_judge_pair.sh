#!/usr/bin/env bash
# The judges' reference and graded worker timed interleaved
# (--reference-worker), on host-code workers; scan first: the reference's row then the
# graded row, scored by the contract; the calls of the two alternate, one
# input each pair; a slow row repeats until the contract's max_runs; a
# graded worker that fails scores 0 beside a good reference; a reference
# that fails writes no graded row; helpers that burn the cores while the
# graded worker is held (zombie leaders) are held too, and those a
# SIGCONT they arranged wakes from a stop by signals (sigcont_slow_ref)
# are rejected, and cannot wake a freezer. Then render's
# pair: the reference's frames trusted, the row scored, either side
# wrong. Then --seed: every call's input of scan and saxpy reproduced with
# the secret; and a graded worker gone at its start leaves the reference
# timed alone. Skips (77) without bubblewrap.
#
# Usage: test_judge_pair.sh JUDGE BIN_DIR
set -uo pipefail
judge=$1 bin=$2
# shellcheck source=tests/grade/testing.sh
source "$(dirname "$0")/../grade/testing.sh"
judge_test_start "$bin/judge_worker_honest"
contract=$(dirname "$0")/../../judge/contract/course.json

# pair GRADED REFERENCE [OPTIONS...]: the judge on the two (file names in
# BIN_DIR), scan at 1000 elements; its exit status in $status, its rows
# in $tmp/rows.jsonl (their table, --rows-table, in $tmp/rows.tsv), the
# workers' logs in $tmp/logs.
pair() {
  local graded=$1 reference=$2
  shift 2
  rm -rf -- "$tmp/logs" "$tmp/rows.jsonl" "$tmp/rows.tsv"
  mkdir -p "$tmp/logs"
  "$judge" --worker "$bin/$graded" --reference-worker "$bin/$reference" --memory host --counts 1000 \
    --call-timeout 3 --start-timeout 30 --memory-limit "$memory_limit" --log-dir "$tmp/logs" \
    --rows "$tmp/rows.jsonl" --rows-table "$tmp/rows.tsv" "$@" scan >"$tmp/out" 2>&1
  status=$?
}

# same_table: "same" when $tmp/rows.tsv holds the rows of $tmp/rows.jsonl,
# every field in the column of its name (numbers compared as numbers, null
# as an empty cell), else what differs.
same_table() {
  jq -nr --rawfile t "$tmp/rows.tsv" --slurpfile j "$tmp/rows.jsonl" '
    def n: if . == null then "" else tostring end | (tonumber? // .);
    ($t | split("\n") | map(select(length > 0) | split("\t"))) as $lines
    | $lines[0] as $h
    | [($lines[1:] | to_entries[] | .key as $i | .value as $cells
        | $h | to_entries[] | select((($cells[.key] // "") | n) != ($j[$i][.value] | n))
        | "row \($i): \(.value)"),
       ([$j[] | keys[]] | unique - $h | .[] | "no column for \(.)"),
       (select(($lines | length) - 1 != ($j | length)) | "\($lines | length - 1) table rows, \($j | length) JSON rows")]
    | if length == 0 then "same" else join("; ") end'
}

# field ROLE NAME: one field of the row of that role.
field() { jq -r --arg role "$1" --arg name "$2" 'select(.role == $role) | .[$name]' "$tmp/rows.jsonl"; }

# Five times slower than the reference: 1.25 / 5 at the best times, by the
# contract's rule (judge score's, from the row's own times).
pair judge_worker_slower_honest judge_worker_slow_honest --runs 3
expect_eq "slower: exit status" 0 "$status"
expect_eq "slower: the reference's row first, then the graded one" "reference:scan reference,scan graded" \
  "$(jq -r '"\(.test) \(.role)"' "$tmp/rows.jsonl" | paste -sd, -)"
want=$("$judge" score --part scan --status ok --best-ms "$(field graded best_ms)" --median-ms "$(field graded median_ms)" \
  --reference-ms "$(field reference best_ms)" --reference-median-ms "$(field reference median_ms)" | jq -c '{score, max_score, score_low, score_high}')
expect_eq "slower: scored by the contract, at the row's times" "$want" "$(jq -c 'select(.role == "graded") | {score, max_score, score_low, score_high}' "$tmp/rows.jsonl")"
expect_eq "slower: the reference time scored against" "$(field reference best_ms)" "$(field graded ref_ms)"
expect_eq "slower: --rows-table holds the rows, each field in its column" same "$(same_table)"
score=$(field graded score)
if awk -v s="$score" 'BEGIN { exit !(s > 0.15 && s < 0.35) }'; then pass; else fail "slower: about 1.25 / 5 (got $score)"; fi
runs=$(field graded runs)
if [ "$runs" = "$(field reference runs)" ] && [ "$runs" -ge 3 ] && [ "$runs" -le "$(jq .max_runs "$contract")" ]; then pass; else
  fail "slower: as many calls each, from --runs to max_runs (got $runs and $(field reference runs))"
fi
if [ "$(field graded stable)" = false ]; then
  expect_eq "slower, unsteady: repeated to max_runs" "$(jq .max_runs "$contract")" "$runs"
fi

# The calls alternate: reference, graded; graded, reference; ... each
# worker's log holds the monotonic clock at its calls.
pair judge_worker_stamp judge_worker_stamp --runs 4
expect_eq "stamps: exit status" 0 "$status"
order=$( { sed -n 's/^call /R /p' "$tmp/logs/reference-scan-1000.log"; sed -n 's/^call /G /p' "$tmp/logs/worker-scan-1000.log"; } |
  sort -k2,2n | awk '{ printf "%s", $1 }')
calls=$(field graded runs)
want=$(awk -v n="$calls" 'BEGIN { for (i = 1; i <= n; i++) printf "%s", (i % 2 ? "RG" : "GR") }')
expect_eq "stamps: the two workers' calls alternate in pairs" "$want" "$order"

# A graded worker whose helpers (zombie leaders: their first thread ended,
# another running on) burn every core while it is held still, that is
# while the reference is timed: the pause holds them too, so the
# reference's calls keep an honest time.
pair judge_worker_zombie_slow_ref judge_worker_honest --runs 3 --counts 1000000 --call-timeout 10
expect_eq "zombie burners: exit status" 0 "$status"
expect_eq "zombie burners: the reference's median call unslowed" yes \
  "$(awk -v m="$(field reference median_ms)" 'BEGIN { print (m < 25) ? "yes" : "no: " m " ms" }')"

# Helpers that undo a pause by signals: each burner has children whose own
# POSIX timer kills them (SIGKILL reaches a stopped process) and whose exit
# signal is SIGCONT, so their parent's stop ends a few ms after the pause
# saw it stopped, while the reference is timed. The judge sees a stopped
# helper run again (under AddressSanitizer's slow looks, often before its
# pause is whole), or measures what ran while it held the worker:
# rejected, and the reference's row good.
# (Where no helper's alarm fell in a hold, nothing of it ran there: its
# row stands, and the reference's median call is unslowed.) A freezer
# cgroup no SIGCONT thaws: the helpers never run while held.
# (Unslowed: against the reference's median beside an honest worker, in
# this run: the burners would take the cores many times over.)
# (At a tenth of the size under AddressSanitizer, whose workers are slow:
# the pause's code is the same, and judge_core_tests covers it there.)
burn_counts=10000000
[ "$asan" = 0 ] || burn_counts=1000000
pair judge_worker_honest judge_worker_honest --runs 5 --counts "$burn_counts" --call-timeout 10
honest_median=$(field reference median_ms)
unslowed() {
  awk -v m="$(field reference median_ms)" -v h="$honest_median" \
    'BEGIN { print (m < 2 * h + 5) ? "yes" : "no: " m " ms against " h " ms beside an honest worker" }'
}
for way in freezer signals; do
  by=()
  [ "$way" = freezer ] || by=(--pause-by-signals)
  pair judge_worker_sigcont_slow_ref judge_worker_honest --runs 5 --counts "$burn_counts" --call-timeout 10 "${by[@]}"
  if [ "$way" = freezer ] && grep -q 'paused by signals' "$tmp/out"; then
    skip_part "sigcont burners in a freezer (the judge said: $(grep -o 'paused by signals[^;]*' "$tmp/out" | head -n 1))"
    continue
  fi
  expect_eq "sigcont burners ($way): the reference's row good" ok "$(field reference status)"
  if [ "$way" = freezer ]; then
    expect_eq "sigcont burners, frozen: not undone, the row stands" ok "$(field graded status)"
    expect_eq "sigcont burners, frozen: the reference's median call unslowed" yes "$(unslowed)"
  elif [ "$(field graded status)" = ok ]; then
    expect_eq "sigcont burners, not seen to run while held: the reference's median call unslowed" yes "$(unslowed)"
  else
    expect_match "sigcont burners: rejected for running while held" 'while the judge held it still' "$(field graded reason)"
  fi
done

# A judge ended while it holds a worker frozen leaves nothing frozen: on
# SIGTERM (a cancelled job, a time limit) its handler thaws the worker,
# which dies with it; on SIGKILL, which no handler sees, the next judge
# sweeps the dead one's cgroups. (Frozen on cgroup v1, a task takes no
# SIGKILL until thawed.)
# frozen_folders PID: the freezer cgroups of judge PID that hold a frozen worker.
frozen_folders() {
  local folder
  while IFS= read -r folder; do
    if grep -qx FROZEN "$folder/freezer.state" 2>/dev/null || grep -qx 'frozen 1' "$folder/cgroup.events" 2>/dev/null; then
      echo "$folder"
    fi
  done < <(find /sys/fs/cgroup -maxdepth 6 -type d -name "judge-worker-*-$1-*" 2>/dev/null)
}
# left_of PID: the tasks still in judge PID's worker cgroups, after up to 3 s.
left_of() {
  local n=0
  for ((i = 0; i < 30; i++)); do
    n=$(find /sys/fs/cgroup -maxdepth 7 -path "*/judge-worker-*-$1-*/cgroup.procs" -exec cat {} + 2>/dev/null | wc -l)
    [ "$n" -eq 0 ] && break
    sleep 0.1
  done
  echo "$n"
}
pair judge_worker_honest judge_worker_honest --runs 3
if grep -q 'paused by signals' "$tmp/out"; then
  skip_part "a judge ended while it holds a worker frozen (the judge said: $(grep -o 'paused by signals[^;]*' "$tmp/out" | head -n 1))"
else
  for sig in TERM KILL; do
    "$judge" --worker "$bin/judge_worker_honest" --reference-worker "$bin/judge_worker_slow_honest" --memory host \
      --counts 1000000 --runs 30 --call-timeout 10 --start-timeout 30 --memory-limit "$memory_limit" \
      --log-dir "$tmp/logs" scan >/dev/null 2>&1 &
    held=$!
    for ((i = 0; i < 1000; i++)); do [ -n "$(frozen_folders "$held")" ] && break; sleep 0.01; done
    expect_eq "SIG$sig: the judge was seen holding a worker frozen" yes "$([ -n "$(frozen_folders "$held")" ] && echo yes || echo no)"
    kill -"$sig" "$held"
    wait "$held" 2>/dev/null
    if [ "$sig" = TERM ]; then
      expect_eq "SIGTERM: its workers thawed and gone with it" 0 "$(left_of "$held")"
    fi
    # The next judge's start sweeps what the dead one left.
    pair judge_worker_honest judge_worker_honest --runs 1
    expect_eq "SIG$sig, then a judge: nothing of its workers left" 0 "$(left_of "$held")"
    expect_eq "SIG$sig, then a judge: their cgroups removed" "" \
      "$(find /sys/fs/cgroup -maxdepth 6 -type d -name "judge-worker-*-$held-*" 2>/dev/null)"
  done
fi

# A graded worker that hangs: rejected, 0 points, the reference's row good.
pair judge_worker_hang judge_worker_slow_honest --runs 2
expect_eq "graded hang: exit status" 1 "$status"
expect_eq "graded hang: rejected, 0 of the row's points" "rejected 0 1.25" \
  "$(field graded status) $(field graded score) $(field graded max_score)"
expect_match "graded hang: its reason" 'no answer within 3 s' "$(field graded reason)"
expect_eq "graded hang: the reference's row" ok "$(field reference status)"
expect_eq "graded hang: --rows-table holds the rows (nulls, a reason)" same "$(same_table)"

# A reference that hangs grades nothing: its row alone, with its reason.
pair judge_worker_honest judge_worker_hang --runs 2
expect_eq "reference hang: exit status" 1 "$status"
expect_eq "reference hang: no graded row" "reference:scan" "$(jq -r .test "$tmp/rows.jsonl" | paste -sd, -)"
expect_match "reference hang: its reason" 'no answer within 3 s' "$(field reference reason)"

# A graded worker that makes the reference beside it fail (standing in for
# the GPU's memory taken or a kernel left resident, which host code cannot
# do; unsandboxed, so that it can reach the reference): the reference is
# judged again alone, passes, and the graded row is rejected for it, 0
# points; the part stands. An honest worker beside the same reference:
# both rows good.
pair judge_worker_spoil_reference judge_worker_spoilable_reference --runs 2 --unsandboxed
expect_eq "spoiler: exit status" 1 "$status"
expect_eq "spoiler: rejected, 0 points" "rejected 0" "$(field graded status) $(field graded score)"
expect_match "spoiler: for what it did to the reference" \
  'made the reference fail beside it \(.*spoiled by its neighbour.*alone, it passed\)' "$(field graded reason)"
expect_eq "spoiler: the reference's row, judged alone, good" ok "$(field reference status)"
pair judge_worker_honest judge_worker_spoilable_reference --runs 2 --unsandboxed
expect_eq "spoilable reference beside an honest worker: both good" "0 ok ok" \
  "$status $(field reference status) $(field graded status)"

# --seed with the secret reproduces every call's input, for the scan and
# saxpy as for the renderer: the judge logs each call's input fingerprint
# (judge-TEST-N.inputs). Another secret, or no --seed, draws others.
head -c 32 /dev/urandom >"$tmp/secret-a"
head -c 32 /dev/urandom >"$tmp/secret-b"
# inputs NAME TEST [OPTIONS...]: the fingerprints of one judge run.
inputs() {
  local name=$1 test=$2 worker=judge_worker_honest
  shift 2
  [ "$test" != saxpy ] || worker=judge_saxpy_worker_honest
  rm -rf -- "$tmp/in-$name" && mkdir -p "$tmp/in-$name"
  "$judge" --worker "$bin/$worker" --memory host --memory-limit "$memory_limit" --counts 1000 --runs 3 \
    --log-dir "$tmp/in-$name" \
    --rows "$tmp/in-$name/rows" "$@" "$test" >/dev/null 2>&1
  cat "$tmp/in-$name/judge-$test-"*.inputs 2>/dev/null
}
for test in scan saxpy; do
  first=$(inputs one "$test" --seed 7 --secret-file "$tmp/secret-a")
  expect_match "--seed, $test: every call's input logged" '^[0-9a-f]+$' "$(head -n 1 <<<"$first")"
  expect_eq "--seed, $test: the same inputs again" "$first" "$(inputs two "$test" --seed 7 --secret-file "$tmp/secret-a")"
  expect_eq "--seed, $test: another secret, other inputs" differ \
    "$([ "$first" != "$(inputs three "$test" --seed 7 --secret-file "$tmp/secret-b")" ] && echo differ || echo same)"
  expect_eq "no --seed, $test: fresh inputs" differ \
    "$([ "$(inputs four "$test" --secret-file "$tmp/secret-a")" != "$(inputs five "$test" --secret-file "$tmp/secret-a")" ] && echo differ || echo same)"
done

# A graded worker that fails before the reference's first call (it leaves
# at its start): the reference is timed alone, and its row stands.
pair judge_worker_early_exit judge_worker_honest --runs 2
expect_eq "graded gone at its start: rejected" rejected "$(field graded status)"
expect_eq "graded gone at its start: the reference's row timed alone, good" "ok 2" \
  "$(field reference status) $(field reference runs)"

# The judge's time limit: a row it ends is rejected ("time limit"), the
# graded worker's; the reference's row and the rows done before stand.
pair judge_worker_slower_honest judge_worker_slow_honest --runs 30 --time-limit 1
expect_eq "time limit, pair: the graded row rejected, 0 points" "rejected 0" "$(field graded status) $(field graded score)"
expect_match "time limit, pair: why" '^time limit: ' "$(field graded reason)"
expect_eq "time limit, pair: the reference's row stands" ok "$(field reference status)"
rm -f -- "$tmp/rows.jsonl"
"$judge" --worker "$bin/judge_worker_slower_honest" --memory host --counts 1,2,3,4,5,6 --runs 3 --time-limit 1 \
  --call-timeout 3 --memory-limit "$memory_limit" --log-dir "$tmp/logs" --rows "$tmp/rows.jsonl" scan >"$tmp/out" 2>&1
expect_eq "time limit: exit status" 1 "$?"
expect_eq "time limit: every row written" 6 "$(wc -l <"$tmp/rows.jsonl")"
expect_eq "time limit: the first row done, ok" ok "$(jq -r 'select(.item == "1") | .status' "$tmp/rows.jsonl")"
expect_match "time limit: the last row not run" '^time limit: .* before this row$' \
  "$(jq -r 'select(.item == "6") | .reason' "$tmp/rows.jsonl")"

# Render: the reference (trusted: its frame alone timed) and the graded
# renderer, one variant a frame for both.
render_pair() {
  local graded=$1 reference=$2
  shift 2
  rm -rf -- "$tmp/logs" "$tmp/rows.jsonl"
  mkdir -p "$tmp/logs"
  "$judge" --worker "$bin/$graded" --reference-worker "$bin/$reference" --memory host --scenes rgb --size 128 \
    --call-timeout 10 --start-timeout 30 --memory-limit "$memory_limit" --log-dir "$tmp/logs" \
    --rows "$tmp/rows.jsonl" "$@" render >"$tmp/out" 2>&1
  status=$?
}
render_pair judge_render_worker_slower_honest judge_render_worker_honest --runs 3
expect_eq "render: exit status" 0 "$status"
expect_eq "render: the reference's row first, then the graded one" "reference:render reference,render graded" \
  "$(jq -r '"\(.test) \(.role)"' "$tmp/rows.jsonl" | paste -sd, -)"
expect_eq "render: the reference's frames not charged" 0 "$(field reference charged_ms)"
want=$("$judge" score --part render --status ok --best-ms "$(field graded best_ms)" --median-ms "$(field graded median_ms)" \
  --reference-ms "$(field reference best_ms)" --reference-median-ms "$(field reference median_ms)" | jq -c '{score, max_score}')
expect_eq "render: scored by the contract" "$want" "$(jq -c 'select(.role == "graded") | {score, max_score}' "$tmp/rows.jsonl")"
expect_eq "render: both drew the same variants" "$(field graded runs)" "$(field reference runs)"
# A reference that draws a wrong image grades nothing; a graded renderer
# that does is rejected beside a good reference.
render_pair judge_render_worker_honest judge_render_worker_forged_print --runs 3
expect_eq "render, wrong reference: no graded row" "reference:render" "$(jq -r .test "$tmp/rows.jsonl" | paste -sd, -)"
expect_match "render, wrong reference: its reason" 'image of timed frame 1 differs' "$(field reference reason)"
render_pair judge_render_worker_forged_print judge_render_worker_honest --runs 3
expect_eq "render, wrong graded: rejected, 0 points" "rejected 0" "$(field graded status) $(field graded score)"

# saxpy takes no reference worker; a reference is no trusted reference.
"$judge" --worker "$bin/judge_worker_honest" --reference-worker "$bin/judge_worker_honest" --memory host saxpy >"$tmp/out" 2>&1
expect_eq "saxpy: usage error" 2 "$?"
"$judge" --worker "$bin/judge_render_worker_honest" --reference-worker "$bin/judge_render_worker_honest" --memory host \
  --trusted-untimed render >"$tmp/out" 2>&1
expect_eq "--trusted-untimed with a reference: usage error" 2 "$?"
finish
