#!/usr/bin/env bash
# scripts/grade.sh under signals and concurrency, on the fake programs:
# SIGINT and SIGTERM during a timed run and during the serial reference
# render stop everything at once and leave no results, no temporary files
# and no processes; two runs started together get different log folders.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/grade/testing.sh
source "$here/testing.sh"

use_temp_folder
bin=$tmp/bin
fake_programs "$bin" render cudaScan cudaSaxpy
quiet_machine
# A pause no other process on the machine uses, to find the fakes' sleeps
# (this script's id in it: two copies of the test may run at once).
pause=47.$$

# wait_for FILE PATTERN: until a line of FILE matches (at most 10 s).
wait_for() {
  local i
  for ((i = 0; i < 200; i++)); do
    grep -Eq -- "$2" "$1" 2>/dev/null && return 0
    sleep 0.05
  done
  return 1
}

# The pauses are found in /proc (not with pgrep: without procps the check
# would pass whatever runs).
[ -r /proc/self/cmdline ] || { echo "no /proc to find processes in: skipped"; exit 77; }

# alive: the fakes' processes (their ids, and their pauses) still running.
alive() {
  local pid dir command
  while read -r pid; do kill -0 "$pid" 2>/dev/null && echo "render $pid"; done <"$tmp/pids"
  for dir in /proc/[0-9]*; do
    command=$({ tr '\0' ' ' <"$dir/cmdline"; } 2>/dev/null)
    [ "${command% }" != "sleep $pause" ] || echo "sleep ${dir#/proc/}"
  done
}

# The check itself sees a pause that runs.
: >"$tmp/pids"
sleep "$pause" &
expect_match "alive: finds a running pause" "^sleep $!\$" "$(alive)"
kill "$!"
wait "$!" 2>/dev/null

# interrupt NAME SIGNAL WANT_STATUS WAIT_RE [ENV...]: starts a grade whose
# fake render pauses, sends SIGNAL once a command matching WAIT_RE runs,
# then checks how it ended.
interrupt() {
  local name=$1 signal=$2 want=$3 wait_re=$4 logs=$tmp/$1 cache=$tmp/$1-cache pid start status
  shift 4
  : >"$tmp/pids"
  # Job control on: a background job must get SIGINT as a terminal's Ctrl-C
  # would deliver it (without it, bash starts background jobs ignoring SIGINT).
  set -m
  env "$@" FAKE_PIDS="$tmp/pids" "$here/../../scripts/grade.sh" render --renderer cpu --scenes rgb \
    --bin-dir "$bin" --logs "$logs" --cache-dir "$cache" --runs 1 --quiet >"$tmp/$name.out" 2>"$tmp/$name.err" &
  pid=$!
  set +m
  if ! wait_for "$logs/commands.txt" "$wait_re"; then
    fail "$name: the run never reached $wait_re" "$(cat "$tmp/$name.err")"
    kill "$pid"
    return
  fi
  sleep 0.3
  start=$SECONDS
  kill -s "$signal" "$pid"
  wait "$pid"
  status=$?
  expect_eq "$name: exit status" "$want" "$status"
  if [ $((SECONDS - start)) -le 5 ]; then pass; else fail "$name: stopped at once (took $((SECONDS - start)) s)"; fi
  expect_match "$name: says what was left" "^grade.sh: stopped by SIG$signal during render: no results written; left the logs so far in $logs\$" "$(cat "$tmp/$name.err")"
  expect_eq "$name: no results" "" "$(find "$logs" -mindepth 1 -maxdepth 1 \( -name '*results*' -o -name '*scores*' -o -name '.*' -o -name work \))"
  expect_eq "$name: no temporary cache entry" "" "$(find "$cache" -name '.tmp-*' 2>/dev/null)"
  expect_eq "$name: no process left" "" "$(alive)"
  expect_eq "$name: nothing on stdout" "" "$(cat "$tmp/$name.out")"
}

interrupt sigint-timed INT 130 'check\.log' FAKE_SLEEP=$pause
interrupt sigterm-timed TERM 143 'check\.log' FAKE_SLEEP=$pause
# The serial reference image, rendered into the cache: killed with the grade.
interrupt sigterm-reference TERM 143 'reference-image\.log' FAKE_SLEEP_CPUREF=$pause
expect_eq "sigterm-reference: nothing cached" "" "$(find "$tmp/sigterm-reference-cache" -type f 2>/dev/null)"

# Two runs started at once, with the default log folder: each its own.
repo=$tmp/repo
mkdir -p "$repo/scripts"
copy_grader "$repo/scripts"
for i in 1 2; do
  "$repo/scripts/grade.sh" render --renderer cpu --scenes rgb,pattern --bin-dir "$bin" --cache-dir "$tmp/cache-$i" \
    --runs 1 --quiet >"$tmp/together-$i.out" 2>&1 &
done
wait
folders=$(find "$repo/grade-results" -mindepth 1 -maxdepth 1 -type d | sort)
expect_eq "together: two folders" 2 "$(wc -l <<<"$folders")"
for folder in $folders; do
  expect_eq "together: $(basename "$folder") has one run's rows" 2 "$(grep -c '^render,' "$folder/scores.csv")"
done
expect_match "together: named by date and time" '/grade-results/[0-9]{8}-[0-9]{6}-[A-Za-z0-9]{6}$' "$folders"

finish
