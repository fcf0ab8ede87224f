#!/usr/bin/env bash
# The saxpy judge against host-code saxpy workers (--memory host, no GPU
# needed): the honest control keeps its trip and kernel rows at awkward
# sizes; a wrong last element, a write past the result and the unfilled
# slot are rejected with their reasons; a kernel that skips inputs it has
# seen pays for every call; forged lines stay in the worker's log.
# Skips (77) without bubblewrap.
#
# Usage: test_saxpy_judge.sh JUDGE BIN_DIR
set -uo pipefail
judge=$1 bin=$2
# shellcheck source=tests/grade/testing.sh
source "$(dirname "$0")/../grade/testing.sh"
judge_test_start "$bin/judge_saxpy_worker_honest"

# saxpy_rows WORKER COUNTS [OPTIONS...]: the judge's output for the saxpy
# worker (a file name in BIN_DIR); its exit status in $status.
saxpy_rows() {
  local worker=$1 counts=$2
  shift 2
  mkdir -p "$tmp/logs-$worker"
  rm -f -- "$tmp/rows.jsonl"
  rows=$("$judge" --worker "$bin/$worker" --memory host --runs 3 --counts "$counts" \
    --call-timeout 30 --start-timeout 30 --memory-limit "$memory_limit" --log-dir "$tmp/logs-$worker" \
    --rows "$tmp/rows.jsonl" "$@" saxpy 2>&1)
  status=$?
}

# field TEST N NAME: one field of that row, by its name (the judge's
# --rows: JSON lines).
field() { jq -r --arg t "$1" --arg n "$2" --arg name "$3" 'select(.test == $t and .item == $n) | .[$name]' "$tmp/rows.jsonl"; }

saxpy_rows judge_saxpy_worker_honest 1,2,17,1000,65537
expect_eq "honest: exit status" 0 "$status"
for n in 1 2 17 1000 65537; do
  for t in saxpy_trip saxpy_kernel; do
    expect_eq "honest $t $n: ok, three calls, no reason" ok:3: "$(field $t $n status):$(field $t $n runs):$(field $t $n reason)"
  done
done
expect_no_match "honest: no memcpy row on host memory" '^memcpy' "$rows"

saxpy_rows judge_saxpy_worker_wrong_last 1000
expect_eq "wrong last element: exit status" 1 "$status"
expect_eq "wrong last element: the trip names the index" \
  "rejected:result of trip 1 differs from the reference at index 999" \
  "$(field saxpy_trip 1000 status):$(field saxpy_trip 1000 reason | sed 's/ (got.*//')"
expect_eq "wrong last element: the kernel row too" rejected "$(field saxpy_kernel 1000 status)"

saxpy_rows judge_saxpy_worker_overrun 1000
expect_eq "overrun: exit status" 1 "$status"
expect_eq "overrun: the trip's device result's guard" "trip 1 wrote past its result (byte 4000)" "$(field saxpy_trip 1000 reason)"

saxpy_rows judge_saxpy_worker_stale 1000
expect_eq "stale kernel: exit status" 0 "$status"
for t in saxpy_trip saxpy_kernel; do
  expect_eq "stale kernel: $t ok, every call pays its 50 ms" ok:1 \
    "$(field $t 1000 status):$(awk -v ms="$(field $t 1000 best_ms)" 'BEGIN { print (ms >= 50) }')"
done

# A thread that watches the inputs: the judge holds the worker still while
# it writes them (8M elements: tens of milliseconds of writes, a look every
# 0.2 ms), so it never sees a kernel call's inputs well before the call.
# (Its thread may still look once the arrays are gone: a crash at its exit
# that AddressSanitizer reports after its last count.)
saxpy_rows judge_saxpy_worker_watch_inputs 8388608
expect_eq "watched inputs: exit status" 0 "$status"
expect_eq "watched inputs: none seen ahead" "kernel calls whose inputs it saw ahead: 0 of 3" \
  "$(grep '^kernel calls whose' "$tmp"/logs-judge_saxpy_worker_watch_inputs/worker-saxpy-8388608.log | tail -n 1)"

# The same watcher in a helper process whose first thread has ended (a
# zombie leader, its other thread running on): the pause holds it too.
saxpy_rows judge_saxpy_worker_zombie_watch 8388608
expect_eq "watched from a zombie leader: exit status" 0 "$status"
expect_eq "watched from a zombie leader: none seen ahead" "kernel calls whose inputs it saw ahead: 0 of 3" \
  "$(grep '^kernel calls whose' "$tmp"/logs-judge_saxpy_worker_zombie_watch/worker-saxpy-8388608.log | tail -n 1)"

saxpy_rows judge_saxpy_worker_forged_print 1000
expect_eq "forged lines: exit status" 0 "$status"
expect_eq "forged lines: one row of each test, the judge's" 1:1 \
  "$(grep -c '^saxpy_trip' <<<"$rows"):$(grep -c '^saxpy_kernel' <<<"$rows")"
expect_no_match "forged lines: not its times" $'\t0.0001\t' "$rows"
expect_match "forged lines: its lines stay in its log" '999999.000 GB/s' "$(cat "$tmp"/logs-judge_saxpy_worker_forged_print/*.log)"

# The slot as handed out (the build's saxpy_worker) throws, on any memory.
if [ -x "$bin/saxpy_worker" ]; then
  saxpy_rows saxpy_worker 1000
  expect_eq "unfilled slot: exit status" 1 "$status"
  expect_match "unfilled slot: its message in both rows" \
    '^trip 1 failed: not implemented yet: write the kernel in saxpy/student/student_saxpy.cu' \
    "$(field saxpy_kernel 1000 reason)"
fi

out=$("$judge" --worker "$bin/judge_saxpy_worker_honest" --memory host saxpy scan 2>&1)
expect_eq "saxpy and scan at once: usage error" 2 "$?"
expect_match "saxpy and scan at once: says why" 'saxpy a saxpy worker' "$out"
finish
