#!/usr/bin/env bash
# scripts/test_handout.sh's reading of a ctest log on a GPU: the handout's
# tests may fail only in student_tests (the unfilled slots), whatever status
# ctest gives a failure. Canned logs in ctest's format; runs nothing. Also
# its choice of reference programs for the handout.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=tests/grade/testing.sh
source "$repo/tests/grade/testing.sh"
# shellcheck source=scripts/test_handout.sh
source "$repo/scripts/test_handout.sh"
use_temp_folder

# ctest_log SUMMARY_FAILED LINE...: a ctest log whose summary counts
# SUMMARY_FAILED failures out of 20 and whose FAILED block holds the LINEs.
ctest_log() {
  local failed=$1
  shift
  printf 'Test project /somewhere/build\n'
  printf '      Start  1: scan_tests.Scan.Small\n'
  printf ' 1/20 Test  #1: scan_tests.Scan.Small ....   Passed    0.01 sec\n\n'
  printf '%s%% tests passed, %s tests failed out of 20\n\n' $(((20 - failed) * 5)) "$failed"
  printf 'Label Time Summary:\nstudent    =   0.50 sec*proc (3 tests)\n\n'
  printf 'Total Test time (real) =   2.00 sec\n\n'
  printf 'The following tests FAILED:\n'
  printf '\t%s\n' "$@"
  printf 'Errors while running CTest\n'
}

# verdict LOG_TEXT: yes when only student_tests failed, else no.
verdict() {
  printf '%s\n' "$1" >"$tmp/ctest.log"
  if only_student_tests_failed "$tmp/ctest.log"; then echo yes; else echo no; fi
}

expect_eq "only student_tests failed" yes \
  "$(verdict "$(ctest_log 2 '  3 - student_tests.Saxpy.Matches (Failed)' ' 17 - student_tests.Render.Rgb (SEGFAULT)')")"
for status in Failed Timeout SEGFAULT "Subprocess aborted" "Not Run" "Child aborted" "Subprocess killed" \
  ILLEGAL INTERRUPT OTHER_FAULT Exception BAD_COMMAND; do
  expect_eq "another test failed ($status)" no \
    "$(verdict "$(ctest_log 2 '  3 - student_tests.Saxpy.Matches (Failed)' " 12 - scan_tests.Scan.Large ($status)")")"
done
# Parameterized tests: ctest names them with their parameter.
expect_eq "only student_tests failed, parameterized" yes \
  "$(verdict "$(ctest_log 1 ' 17 - student_tests.Slots/RenderSlot.Matches/rgb  # GetParam() = "rgb" (Failed)')")"
expect_eq "a parameterized test of another program failed" no \
  "$(verdict "$(ctest_log 2 '  3 - student_tests.Saxpy.Matches (Failed)' \
    ' 40 - scan_tests.Algorithms/ScanGpu.Large/cub  # GetParam() = 4-byte object <03-00 00-00> (Child aborted)')")"
expect_eq "the summary counts a failure the block does not show" no \
  "$(verdict "$(ctest_log 3 '  3 - student_tests.Saxpy.Matches (Failed)' ' 17 - student_tests.Render.Rgb (Failed)')")"
expect_eq "a line of the block not read" no \
  "$(verdict "$(ctest_log 2 '  3 - student_tests.Saxpy.Matches (Failed)' ' 12 - scan_tests.Scan.Large (Failed) gpu')")"
expect_eq "no failure at all" no "$(verdict "$(printf '100%% tests passed, 0 tests failed out of 20\n')")"
expect_eq "a failure that is no test (the build)" no "$(verdict "ninja: build stopped: subcommand failed.")"
expect_eq "a student_tests name only as a prefix" no \
  "$(verdict "$(ctest_log 1 '  3 - student_testsX.Saxpy (Failed)')")"

# The reference programs: on a GPU always (grading compares with them), for
# it; without one only when asked, for sm_90.
expect_eq "GPU, no --refs: references for the GPU" "--cuda-archs native" "$(handout_args 1 0)"
expect_eq "GPU, --refs: references for the GPU" "--cuda-archs native" "$(handout_args 1 1)"
expect_eq "no GPU, --refs: references for sm_90" "--cuda-archs 90" "$(handout_args 0 1)"
expect_eq "no GPU, no --refs: none" "--no-refs" "$(handout_args 0 0)"
finish
