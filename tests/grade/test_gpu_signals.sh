#!/usr/bin/env bash
# The GPU machine's scripts under SIGINT and SIGTERM, on stand-ins that
# pause (the real steps need a GPU): the script stops its running programs
# at once and exits 130 or 143 with one line saying where the logs are.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/grade/testing.sh
source "$here/testing.sh"
scripts=$here/../../scripts

use_temp_folder
need_proc
# Stand-ins on PATH: a cmake and a compute-sanitizer that pause, and a GPU.
fakebin=$tmp/fakebin
mkdir -p "$fakebin"
for tool in cmake compute-sanitizer; do
  printf '#!/bin/sh\nexec sleep %s\n' "$pause" >"$fakebin/$tool"
done
printf '#!/bin/sh\necho "NVIDIA H200, 570.86.15, 143771 MiB"\n' >"$fakebin/nvidia-smi"
chmod +x "$fakebin"/*
# A build folder of fakes: render pauses in its checks (FAKE_SLEEP).
build=$tmp/build
fake_programs "$build/bin" render cudaScan
printf '#!/bin/sh\nexit 0\n' >"$build/bin/render_cuda_tests"
chmod +x "$build/bin/render_cuda_tests"

# stopped NAME SIGNAL STATUS LOGS COMMAND...: COMMAND stops at once on SIGNAL
# with STATUS and says so in its last line.
stopped() {
  local name=$1 signal=$2 want=$3 logs=$4 script
  shift 4
  script=$(basename "$1")
  stop_while_paused "$name" "$signal" "$want" env PATH="$fakebin:$PATH" FAKE_SLEEP="$pause" "$@"
  expect_eq "$name: said" "$script: stopped by SIG$signal: the logs so far are in $logs" "$(tail -n 1 <<<"$STOP_ERR")"
  expect_eq "$name: nothing on stdout" "" "$STOP_OUT"
}

for signal in INT:130 TERM:143; do
  name=${signal%:*} status=${signal#*:}
  # Checks and sanitizer runs, several at once; an older summary goes.
  mkdir -p "$tmp/render-$name"
  echo "an older run's" >"$tmp/render-$name/summary.txt"
  stopped "gpu_render.sh, SIG$name" "$name" "$status" "$tmp/render-$name" \
    "$scripts/gpu_render.sh" "$build" "$tmp/render-$name" --no-bench
  expect_eq "gpu_render.sh, SIG$name: no summary" "" "$(ls "$tmp/render-$name/summary.txt" 2>/dev/null)"
  # Configuring the build folder.
  stopped "gpu_scan.sh, SIG$name" "$name" "$status" "$tmp/scan-$name" \
    "$scripts/gpu_scan.sh" "$tmp/scan-build" "$tmp/scan-$name"
  for script in gpu_check.sh gpu_portable.sh; do
    stopped "$script, SIG$name" "$name" "$status" "$tmp/$script-$name" \
      "$scripts/$script" --logs "$tmp/$script-$name"
  done
done
finish
