#!/usr/bin/env bash
# The course's reference renderer (judge/reference/course_renderer.cu) is a
# submission in the slot's shape: outside what a student writes, it must be
# the slot (render/student/student_renderer.cu) as handed out, so that the
# reference is timed with the same given setup, clear, advance and image.
# What a student writes: the opening comment, the includes, the kernels
# after the given kernel_advance, and render() with the comment above it.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=tests/grade/testing.sh
source "$repo/tests/grade/testing.sh"
use_temp_folder
slot=$repo/render/student/student_renderer.cu
reference=$repo/judge/reference/course_renderer.cu

# given_code FILE: FILE's lines a student does not write, each with its
# region's name in front; exit 1 when a region's bounds are not found.
given_code() {
  awk '
    !started && /^#include/ { started = 1 }
    !started { next }
    /^#include/ { next }
    /^__global__ void kernel_advance\(/ { in_advance = 1 }
    in_advance && /^}/ { in_advance = 0; print "given: " $0; kernels = 1; found_kernels = 1; next }
    kernels && /^class StudentRenderer/ { kernels = 0 }
    kernels { next }
    /^  \/\// { comment = comment "given: " $0 "\n"; next }
    /^  void render\(\) override \{/ { comment = ""; in_render = 1; found_render = 1; next }
    in_render { if ($0 ~ /^  }$/) in_render = 0; next }
    { printf "%s", comment; comment = ""; print "given: " $0 }
    END {
      printf "%s", comment
      if (!found_kernels || !found_render || kernels || in_render) exit 1
    }' "$1"
}

slot_given=$(given_code "$slot")
expect_eq "the slot's regions are found" 0 "$?"
reference_given=$(given_code "$reference")
expect_eq "the reference's regions are found" 0 "$?"
expect_match "the given code holds setup()" "void setup\(const scenes::Scene& scene" "$slot_given"
expect_no_match "the given code holds no kernel of the student's" "kernel_render_circles\(" "$slot_given"
if [ "$slot_given" = "$reference_given" ]; then pass; else
  fail "the reference's given code is the slot's" "$(diff <(echo "$slot_given") <(echo "$reference_given") | head -20)"
fi

# The check can fail: a reference whose setup() differs from the slot's.
sed 's/arrays_\[k\].copy_from_host(host\[k\]->data(), n);/arrays_[k].copy_from_host(host[k]->data(), n \/ 2);/' \
  "$reference" >"$tmp/changed.cu"
expect_eq "a changed setup() is a change" yes "$(cmp -s "$reference" "$tmp/changed.cu" || echo yes)"
expect_eq "a changed setup() is seen" yes "$([ "$(given_code "$tmp/changed.cu")" != "$slot_given" ] && echo yes)"
# A reference without render() is refused, not read as all given.
sed '/void render() override {/d' "$reference" >"$tmp/no_render.cu"
given_code "$tmp/no_render.cu" >/dev/null
expect_eq "a file without render() is refused" 1 "$?"
finish
