#!/usr/bin/env bash
# scripts/gpu_check.sh on a machine without a GPU: one line saying so, exit
# 1, before configuring or building anything (no PASS lines, no raw
# "command not found").
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

# check NAME MESSAGE_RE: runs gpu_check.sh with PATH=$fakebin:$base_path.
check() {
  local out status
  : >"$tmp/calls"
  out=$(cd "$tmp" && PATH=$fakebin:$base_path "$here/../../scripts/gpu_check.sh" --logs "$tmp/logs-$1" 2>&1)
  status=$?
  expect_eq "$1: exit status" 1 "$status"
  expect_match "$1: says so" "$2" "$out"
  expect_eq "$1: one line" 1 "$(wc -l <<<"$out")"
  expect_no_match "$1: no PASS" 'PASS' "$out"
  expect_no_match "$1: no raw shell error" 'command not found' "$out"
  expect_eq "$1: nothing configured or built" "" "$(cat "$tmp/calls")"
}

# A driver that does not answer, as on a machine whose GPU is gone.
printf '#!/bin/sh\necho "NVIDIA-SMI has failed because it couldn'"'"'t communicate with the NVIDIA driver."\nexit 9\n' >"$fakebin/nvidia-smi"
chmod +x "$fakebin/nvidia-smi"
base_path=/usr/bin:/bin
check "driver does not answer" "^gpu_check.sh: no GPU here: nvidia-smi says: NVIDIA-SMI has failed because it couldn't communicate"

# No nvidia-smi at all (where the system folders have none of their own).
rm "$fakebin/nvidia-smi"
if PATH=$base_path command -v nvidia-smi >/dev/null; then
  echo "SKIPPED: no nvidia-smi case (this machine has one in $base_path)"
else
  check "no nvidia-smi" "^gpu_check.sh: no GPU here: nvidia-smi is not installed"
fi
finish
