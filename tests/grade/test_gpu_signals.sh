#!/usr/bin/env bash
# The GPU machine's scripts under SIGINT and SIGTERM, on stand-ins that
# pause (the real steps need a GPU): the script stops its running programs
# at once and exits 130 or 143 with one line saying where the logs are;
# gpu_check.sh stops the gpu_render.sh it runs, and that what it runs;
# bench_render.sh, bench_scan.sh and bench_saxpy.sh --data leave their CSV
# as it was.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/grade/testing.sh
source "$here/testing.sh"
scripts=$here/../../scripts

use_temp_folder
need_proc
# Stand-ins on PATH: a GPU, a cmake that pauses (unless FAKE_CMAKE=quick),
# a ctest that passes and a compute-sanitizer that pauses.
fakebin=$tmp/fakebin
mkdir -p "$fakebin"
printf '#!/bin/sh\necho "NVIDIA H200, 570.86.15, 143771 MiB"\n' >"$fakebin/nvidia-smi"
# shellcheck disable=SC2016  # expanded by the stand-in
printf '#!/bin/sh\n[ "${FAKE_CMAKE:-}" = quick ] || exec sleep %s\n' "$pause" >"$fakebin/cmake"
printf '#!/bin/sh\nexit 0\n' >"$fakebin/ctest"
printf '#!/bin/sh\nexec sleep %s\n' "$pause" >"$fakebin/compute-sanitizer"
chmod +x "$fakebin"/*
# A build folder of fakes: render pauses in its checks (FAKE_SLEEP).
build=$tmp/build
fake_programs "$build/bin" render cudaScan cudaSaxpy
printf '#!/bin/sh\nexit 0\n' >"$build/bin/render_cuda_tests"
chmod +x "$build/bin/render_cuda_tests"

# stopped NAME SIGNAL STATUS LOGS COMMAND...: COMMAND stops at once on SIGNAL
# with STATUS and its script says so in its last line.
stopped() {
  local name=$1 signal=$2 want=$3 logs=$4 script word
  shift 4
  for word in "$@"; do [[ $word != *.sh ]] || script=$(basename "$word"); done
  stop_while_paused "$name" "$signal" "$want" env PATH="$fakebin:$PATH" FAKE_SLEEP="$pause" "$@"
  expect_eq "$name: said" "$script: stopped by SIG$signal: the logs so far are in $logs" "$(tail -n 1 <<<"$STOP_ERR")"
  expect_eq "$name: nothing on stdout" "" "$STOP_OUT"
}

for signal in INT:130 TERM:143 HUP:129; do
  name=${signal%:*} status=${signal#*:}
  # Checks and sanitizer runs, several at once; an older summary goes.
  mkdir -p "$tmp/render-$name"
  echo "an older run's" >"$tmp/render-$name/summary.txt"
  stopped "gpu_render.sh, SIG$name" "$name" "$status" "$tmp/render-$name" \
    "$scripts/dev/gpu_render.sh" "$build" "$tmp/render-$name" --no-bench
  expect_eq "gpu_render.sh, SIG$name: no summary" "" "$(ls "$tmp/render-$name/summary.txt" 2>/dev/null)"
  # Configuring the build folder.
  stopped "gpu_scan.sh, SIG$name" "$name" "$status" "$tmp/scan-$name" \
    "$scripts/dev/gpu_scan.sh" "$tmp/scan-build" "$tmp/scan-$name"
  for script in gpu_check.sh gpu_portable.sh; do
    stopped "$script, SIG$name" "$name" "$status" "$tmp/$script-$name" \
      "$scripts/dev/$script" --logs "$tmp/$script-$name"
  done
done

# gpu_check.sh stopped while its gpu_render.sh runs: both stop, and what
# gpu_render.sh ran. In a copy of the scripts whose build-gpu holds the fakes.
repo=$tmp/repo
mkdir -p "$repo/build-gpu"
cp -r "$scripts" "$repo/scripts"
cp -r "$build/bin" "$repo/build-gpu/bin"
stopped "gpu_check.sh running gpu_render.sh, SIGINT" INT 130 "$tmp/chain" \
  env FAKE_CMAKE=quick "$repo/scripts/dev/gpu_check.sh" --only render --no-bench --logs "$tmp/chain"
expect_eq "gpu_check.sh running gpu_render.sh: it stopped too" \
  "gpu_render.sh: stopped by SIGTERM: the logs so far are in $tmp/chain/render" "$(tail -n 1 "$tmp/chain/render.log")"

# bench_render.sh --data stopped in a run: the render stops, the CSV is
# left as it was and nothing is left beside it.
mkdir -p "$tmp/bench-data"
echo "an older run's" >"$tmp/bench-data/render.csv"
for signal in INT:130 TERM:143; do
  name=${signal%:*} status=${signal#*:}
  stop_while_paused "bench_render.sh --data, SIG$name" "$name" "$status" env PATH="$fakebin:$PATH" FAKE_SLEEP="$pause" \
    "$scripts/dev/bench_render.sh" "$build" --data "$tmp/bench-data/render.csv"
  expect_eq "bench_render.sh --data, SIG$name: said" \
    "bench_render.sh: stopped by SIG$name: $tmp/bench-data/render.csv is left as it was" "$(tail -n 1 <<<"$STOP_ERR")"
  expect_eq "bench_render.sh --data, SIG$name: the file as it was" "an older run's" "$(cat "$tmp/bench-data/render.csv")"
  expect_eq "bench_render.sh --data, SIG$name: nothing beside it" "render.csv" "$(ls "$tmp/bench-data")"
done

# bench_scan.sh and bench_saxpy.sh --data stopped while their program runs:
# it stops, the CSV is left as it was and nothing is left beside it.
for script in bench_scan.sh bench_saxpy.sh; do
  mkdir -p "$tmp/$script-data"
  echo "an older run's" >"$tmp/$script-data/data.csv"
  for signal in INT:130 TERM:143 HUP:129; do
    name=${signal%:*} status=${signal#*:}
    stop_while_paused "$script --data, SIG$name" "$name" "$status" env PATH="$fakebin:$PATH" FAKE_SLEEP="$pause" \
      "$scripts/dev/$script" "$build" --data "$tmp/$script-data/data.csv"
    expect_eq "$script --data, SIG$name: said" \
      "$script: stopped by SIG$name: $tmp/$script-data/data.csv is left as it was" "$(tail -n 1 <<<"$STOP_ERR")"
    expect_eq "$script --data, SIG$name: nothing on stdout" "" "$STOP_OUT"
    expect_eq "$script --data, SIG$name: the file as it was" "an older run's" "$(cat "$tmp/$script-data/data.csv")"
    expect_eq "$script --data, SIG$name: nothing beside it" "data.csv" "$(ls "$tmp/$script-data")"
  done
done

# A bad run limit is a usage error before anything runs or is written.
for bad in abc 0 -5 1.5; do
  err=$(GPU_RENDER_RUN_LIMIT=$bad "$scripts/dev/gpu_render.sh" "$build" "$tmp/limit" --no-bench 2>&1)
  status=$?
  expect_eq "GPU_RENDER_RUN_LIMIT=$bad: exit status" 2 "$status"
  expect_match "GPU_RENDER_RUN_LIMIT=$bad: says why" "GPU_RENDER_RUN_LIMIT must be a positive number" "$err"
  expect_eq "GPU_RENDER_RUN_LIMIT=$bad: no log folder" no "$([ -e "$tmp/limit" ] && echo yes || echo no)"
done
finish
