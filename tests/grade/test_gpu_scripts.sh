#!/usr/bin/env bash
# The GPU machine's scripts run on stand-ins that finish at once (the real
# steps need a GPU): a log folder that cannot be made is one line and exit 1.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/grade/testing.sh
source "$here/testing.sh"
scripts=$here/../../scripts

use_temp_folder
# Stand-ins on PATH: a GPU, and a compute-sanitizer that runs the program
# it is given (after --tool T --error-exitcode N).
fakebin=$tmp/fakebin
mkdir -p "$fakebin"
printf '#!/bin/sh\necho "NVIDIA H200, 570.86.15, 143771 MiB"\n' >"$fakebin/nvidia-smi"
printf '#!/bin/sh\nshift 4\nexec "$@"\n' >"$fakebin/compute-sanitizer"
chmod +x "$fakebin"/*
# A build folder of fakes.
build=$tmp/build
fake_programs "$build/bin" render
printf '#!/bin/sh\nexit 0\n' >"$build/bin/render_cuda_tests"
chmod +x "$build/bin/render_cuda_tests"

# A log folder inside a file: "SCRIPT: cannot create FOLDER", exit 1,
# before anything runs.
: >"$tmp/file"
bad=$tmp/file/logs
for command in "gpu_render.sh $build $bad --no-bench" "gpu_scan.sh $tmp/scan-build $bad" \
  "gpu_check.sh --logs $bad" "gpu_portable.sh --logs $bad"; do
  script=${command%% *}
  # shellcheck disable=SC2086  # the command's words
  out=$(PATH="$fakebin:$PATH" "$scripts/"$command 2>&1)
  expect_eq "$script, log folder in a file: exit status" 1 "$?"
  expect_eq "$script, log folder in a file: says so last" "$script: cannot create $bad" "$(tail -n 1 <<<"$out")"
done
finish
