#!/usr/bin/env bash
# scripts/grade.sh under signals and concurrency, on the fake programs:
# SIGINT, SIGTERM and SIGHUP while the judge grades the renderer and while
# it times the serial reference, and SIGTERM while configuring or building, stop
# everything at once and leave no results, no temporary files and no
# processes; two runs started together get different log folders.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/grade/testing.sh
source "$here/testing.sh"

use_temp_folder
bin=$tmp/bin
fake_programs "$bin" render cudaScan
fake_judge "$bin"
quiet_machine
need_proc

# alive: the fakes' processes (their ids, and their pauses) still running.
alive() {
  local pid
  while read -r pid; do kill -0 "$pid" 2>/dev/null && echo "render $pid"; done <"$tmp/pids"
  pauses | sed 's/^/sleep /'
}

# The check itself sees a pause that runs.
: >"$tmp/pids"
sleep "$pause" &
expect_match "alive: finds a running pause" "^sleep $!\$" "$(alive)"
kill "$!"
wait "$!" 2>/dev/null

# interrupt NAME SIGNAL WANT_STATUS RUNNING_RE [ENV...]: starts a grade whose
# fake judge pauses, sends SIGNAL once it does, then checks how it ended
# and that the command paused was the one matching RUNNING_RE.
interrupt() {
  local name=$1 signal=$2 want=$3 running_re=$4 logs=$tmp/$1 cache=$tmp/$1-cache
  shift 4
  : >"$tmp/pids"
  stop_while_paused "$name" "$signal" "$want" env "$@" FAKE_PIDS="$tmp/pids" "$here/../../scripts/grade.sh" render \
    --renderer cpu --scenes rgb --bin-dir "$bin" --logs "$logs" --cache-dir "$cache" --runs 1 --quiet
  expect_match "$name: stopped while $running_re ran" "$running_re" "$(tail -n 1 "$logs/commands.txt")"
  expect_match "$name: says what was left" "^grade.sh: stopped by SIG$signal during judge: no results written; left the logs so far in $logs\$" "$STOP_ERR"
  expect_eq "$name: no results" "" "$(find "$logs" -mindepth 1 -maxdepth 1 \( -name '*results*' -o -name '*scores*' -o -name '.*' -o -name work \))"
  expect_eq "$name: no temporary cache entry" "" "$(find "$cache" -name '.tmp-*' 2>/dev/null)"
  expect_eq "$name: no process left" "" "$(alive)"
  expect_eq "$name: nothing on stdout" "" "$STOP_OUT"
}

interrupt sigint-timed INT 130 'judge_render_cpu\.judge\.log' FAKE_JUDGE_SLEEP=$pause
interrupt sigterm-timed TERM 143 'judge_render_cpu\.judge\.log' FAKE_JUDGE_SLEEP=$pause
interrupt sighup-timed HUP 129 'judge_render_cpu\.judge\.log' FAKE_JUDGE_SLEEP=$pause
# The serial reference's time, cached when measured: killed with the grade.
interrupt sigterm-reference TERM 143 'serial\.judge\.log' FAKE_JUDGE_SLEEP_SERIAL=$pause
# (The judge's secret is kept there from the start; no time may be.)
expect_eq "sigterm-reference: nothing cached" "" "$(find "$tmp/sigterm-reference-cache" -type f ! -name judge-secret 2>/dev/null)"

# Configuring and building the programs (a cmake that pauses): stopped at
# once too. A build folder with a cache is only built.
fakecmake=$tmp/fakecmake
mkdir -p "$fakecmake" "$tmp/build-build"
printf '#!/bin/sh\nexec sleep %s\n' "$pause" >"$fakecmake/cmake"
chmod +x "$fakecmake/cmake"
: >"$tmp/build-build/CMakeCache.txt"
for stage in configure build; do
  logs=$tmp/sigterm-$stage
  stop_while_paused "sigterm-$stage" TERM 143 env PATH="$fakecmake:$PATH" "$here/../../scripts/grade.sh" render \
    --renderer cpu --scenes rgb --build-dir "$tmp/build-$stage" --logs "$logs" --cache-dir "$tmp/$stage-cache" --quiet
  expect_eq "sigterm-$stage: says what was left" \
    "grade.sh: stopped by SIGTERM during cmake: no results written; left the logs so far in $logs" "$STOP_ERR"
  expect_eq "sigterm-$stage: the $stage log" yes "$([ -f "$logs/$([ "$stage" = build ] && echo build-judge || echo configure).log" ] && echo yes || echo no)"
done

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
