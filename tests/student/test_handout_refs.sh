#!/usr/bin/env bash
# make_handout.sh's reference programs, really built (for sm_90 alone, no GPU
# needed): the four programs and their scripts are there, the kernels each
# binary registers are the reference slots' (judge/reference/course_renderer.cu
# and course_scan.cu) and never one of the suite's own (every
# __global__ function under render/src and scan/src, by name), and the
# scripts' help says what the slot holds. Skips (77) without nvcc or nm.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=tests/grade/testing.sh
source "$repo/tests/grade/testing.sh"
command -v nm >/dev/null || { echo "SKIPPED: nm (binutils) is not installed"; exit 77; }
command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ] ||
  { echo "SKIPPED: no CUDA compiler (nvcc) to build the reference programs"; exit 77; }
export PATH=$PATH:/usr/local/cuda/bin
use_temp_folder

out=$("$repo/scripts/make_handout.sh" --cuda-archs 90 "$tmp/handout" 2>&1)
expect_eq "make_handout.sh with references: exit status" 0 "$?"
expect_match "says so" "^Handout: $tmp/handout \(reference programs in ref/\)\$" "$out"
bin=$tmp/handout/ref/.bin
for program in render cudaScan judge_render_reference judge_scan_reference; do
  expect_eq "ref/.bin/$program is a program" yes "$([ -x "$bin/$program" ] && echo yes || echo no)"
done

# kernels BINARY: the kernels it registers (their host stubs), mangled.
kernels() { nm "$1" 2>/dev/null | grep -o '__device_stub__[A-Za-z0-9_]*' | sort -u; }
# kernel_names FILE...: the __global__ functions the files define, by name
# (launch bounds removed first).
# shellcheck disable=SC2016  # perl's variables, not the shell's
kernel_names() { perl -0ne 's/__launch_bounds__\([^)]*\)//g; print "$1\n" while /__global__\s+void\s+(\w+)\s*\(/g' "$@" | sort -u; }
mapfile -t suite_sources < <(grep -rl __global__ "$repo/render/src" "$repo/scan/src")
mapfile -t suite_kernels < <(kernel_names "${suite_sources[@]}")
expect_eq "the suite's kernels were found" yes "$([ ${#suite_kernels[@]} -ge 10 ] && echo yes || echo no)"
mapfile -t course_scan_kernels < <(kernel_names "$repo/judge/reference/course_scan.cu")

check_binary() {  # check_binary PROGRAM EXPECTED_KERNEL...
  local program=$1 list name found
  shift
  list=$(kernels "$bin/$program")
  for name in "$@"; do
    expect_match "$program registers the reference's $name" "$name" "$list"
  done
  found=""
  for name in "${suite_kernels[@]}"; do
    grep -q "[0-9]$name" <<<"$list" && found+=" $name"
  done
  expect_eq "$program holds none of the suite's kernels" "" "$found"
}
check_binary render kernel_render_circles kernel_clear_image kernel_advance
check_binary judge_render_reference kernel_render_circles kernel_clear_image kernel_advance
check_binary cudaScan "${course_scan_kernels[@]}"
check_binary judge_scan_reference "${course_scan_kernels[@]}"

out=$("$tmp/handout/ref/render_ref" --help 2>&1)
expect_eq "render_ref --help: exit status" 0 "$?"
expect_match "render_ref --help: the program's help" '^Usage: render \[options\] SCENE' "$out"
expect_match "render_ref --help: what its slot holds" "^render_ref: this handout's render with the course's reference design" "$out"
# The help of a handout's program names only what the handout holds.
out=$("$tmp/handout/ref/cudaScan_ref" --help 2>&1)
expect_eq "cudaScan_ref --help: exit status" 0 "$?"
expect_match "cudaScan_ref --help: the student's slot" '^  -a  --algorithm <NAME>   student \(default\)' "$out"
expect_no_match "cudaScan_ref --help: none of the suite's algorithms" 'single-pass|blelloch|kogge-stone|one fused kernel' "$out"
out=$("$tmp/handout/ref/render_ref" --cuda-mode binned rgb 2>&1)
expect_eq "render_ref refuses a suite option: exit status" 2 "$?"
finish
