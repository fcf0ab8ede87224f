#!/usr/bin/env bash
# scripts/dev/gpu_check.sh and scripts/dev/gpu_portable.sh on a machine without a
# GPU: one line saying so, exit 1, before configuring or building anything
# (no PASS lines, no raw "command not found"); and their usage errors.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/grade/testing.sh
source "$here/testing.sh"

use_temp_folder
fakebin=$tmp/bin
mkdir -p "$fakebin"
# cmake and ctest that record being called: they must not be.
for tool in cmake ctest; do
  printf '#!/bin/sh\necho "%s $*" >>"%s"\n' "$tool" "$tmp/calls" >"$fakebin/$tool"
  chmod +x "$fakebin/$tool"
done

# check NAME MESSAGE_RE: runs gpu_check.sh and gpu_portable.sh with
# PATH=$fakebin:$base_path; MESSAGE_RE follows "SCRIPT: ".
check() {
  local out status script
  for script in gpu_check.sh gpu_portable.sh; do
    : >"$tmp/calls"
    out=$(cd "$tmp" && PATH=$fakebin:$base_path "$here/../../scripts/dev/$script" --logs "$tmp/logs-$1" 2>&1)
    status=$?
    expect_eq "$script, $1: exit status" 1 "$status"
    expect_match "$script, $1: says so" "^$script: $2" "$out"
    expect_eq "$script, $1: one line" 1 "$(wc -l <<<"$out")"
    expect_no_match "$script, $1: no PASS" 'PASS' "$out"
    expect_no_match "$script, $1: no raw shell error" 'command not found' "$out"
    expect_eq "$script, $1: nothing configured or built" "" "$(cat "$tmp/calls")"
  done
}

# usage SCRIPT MESSAGE ARGS...: exit status 2 and that one line.
usage() {
  local script=$1 message=$2 out
  shift 2
  out=$(PATH=$fakebin:/usr/bin:/bin "$here/../../scripts/dev/$script" "$@" 2>&1)
  expect_eq "$script $*: exit status" 2 "$?"
  expect_eq "$script $*: one line" "$script: $message" "$out"
}
usage gpu_check.sh "--only: unknown part 'sort' (saxpy, scan, render)" --only sort
usage gpu_check.sh "unknown argument '--fast' (try --help)" --fast
usage gpu_portable.sh "--arch needs a compute capability of 75 or more, e.g. 75" --arch 70
usage gpu_portable.sh "--arch needs a compute capability of 75 or more, e.g. 75" --arch sm90
usage gpu_portable.sh "unknown argument '--fast' (try --help)" --fast
usage gpu_portable.sh "--arch needs a compute capability of 75 or more, e.g. 75" --arch 99999999999999999999
usage gpu_portable.sh "--arch needs a compute capability of 75 or more, e.g. 75" --arch 1000
usage gpu_portable.sh "--arch needs a compute capability of 75 or more, e.g. 75" --arch ""
for script in gpu_check.sh gpu_portable.sh; do
  usage "$script" "--logs needs a value (try --help)" --logs
  usage "$script" "--logs needs a value (try --help)" --logs ""
  usage "$script" "--logs needs a value (try --help)" --logs --no-bench
  usage "$script" "--logs needs a folder, not '-h' (try --help)" --logs -h
done

# A driver that does not answer, as on a machine whose GPU is gone.
printf '#!/bin/sh\necho "NVIDIA-SMI has failed because it couldn'"'"'t communicate with the NVIDIA driver."\nexit 9\n' >"$fakebin/nvidia-smi"
chmod +x "$fakebin/nvidia-smi"
base_path=/usr/bin:/bin
check "driver does not answer" "no GPU here: nvidia-smi says: NVIDIA-SMI has failed because it couldn't communicate"

# No nvidia-smi at all (where the system folders have none of their own).
rm "$fakebin/nvidia-smi"
if PATH=$base_path command -v nvidia-smi >/dev/null; then
  skip_part "no nvidia-smi case (this machine has one in $base_path)"
else
  check "no nvidia-smi" "no GPU here: nvidia-smi is not installed"
fi
finish
