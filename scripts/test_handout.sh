#!/usr/bin/env bash
# The handout end to end, from a fresh clone of this repository's committed
# state: make_handout.sh writes a handout, which must pass its own README's
# build-and-test commands; the slots as handed out must fail with the
# message naming the file to edit; the slots filled correctly (from
# tests/student/fills/ and judge/reference/) must build and, on a GPU, pass the slot tests and
# get full correctness from grade.sh, whose Gradescope results.json must
# validate; and the Gradescope bundle's run_autograder, given the filled
# files as a submission, must write a valid results.json (every test passed
# on a GPU). Without a GPU the GPU steps say so and are skipped. Takes
# minutes (three builds of the handout; with the reference programs, on a
# GPU or with --refs, longer).
#
# Usage: scripts/test_handout.sh [--refs] [--keep]
#   --refs   build the handout's reference programs (for sm_90 without a
#            GPU; on a GPU always, for it: grading compares with them)
#   --keep   keep the temporary folder and name it
# Exit status: 0 every step passed, 1 a step failed, 2 usage.
set -uo pipefail

# only_student_tests_failed LOG: whether the ctest run logged in LOG failed
# in student_tests alone (on a GPU the unfilled slots' own tests must fail):
# every line of ctest's "The following tests FAILED:" block, whatever its
# status, names a student_tests test, and ctest's summary counts as many
# failures (a line this does not read still counts there).
only_student_tests_failed() {
  awk '
    /[0-9]+ tests? failed out of [0-9]+/ {
      count = $0
      sub(/ tests? failed out of.*/, "", count)
      sub(/.* /, "", count)
      summary = count + 0
    }
    /^The following tests FAILED:$/ { inside = 1; next }
    # "N - NAME (STATUS)"; a parameterized test has "  # GetParam() = ..."
    # between its name and the status.
    inside && /^[ \t]*[0-9]+ - [^ \t]+ .*\(.*\)$/ {
      if ($3 ~ /^student_tests\./) student++; else other++
      next
    }
    { inside = 0 }
    END { exit !(student > 0 && other == 0 && summary == student) }
  ' "$1"
}
# Sourced (by its test) for the function alone.
# cuda_arch GPU: the architecture the handout's programs are built for:
# this machine's GPU, or sm_90 (compiled, not run) without one.
cuda_arch() { if [ "$1" = 1 ]; then echo native; else echo 90; fi; }

# handout_args GPU REFS: make_handout.sh's options for the reference
# programs. On a GPU (GPU 1) they are always built, for it: grading the
# filled slots there compares with them, so a handout without them cannot
# pass. Without one, only with REFS 1.
handout_args() {
  if [ "$1" = 1 ] || [ "$2" = 1 ]; then
    echo --cuda-archs "$(cuda_arch "$1")"
  else
    echo --no-refs
  fi
}

[ "${BASH_SOURCE[0]}" = "$0" ] || return 0

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$script_dir/.." && pwd)
refs=0
keep=0
for arg in "$@"; do
  case "$arg" in
    --refs) refs=1 ;;
    --keep) keep=1 ;;
    -h | --help)
      awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
      exit 0
      ;;
    *) echo "test_handout.sh: unknown argument '$arg' (try --help)" >&2; exit 2 ;;
  esac
done
command -v jq >/dev/null || { echo "test_handout.sh: needs jq (apt-get install jq)" >&2; exit 1; }

tmp=$(mktemp -d)
if [ "$keep" = 1 ]; then echo "test_handout.sh: working in $tmp"; else trap 'rm -rf "$tmp"' EXIT; fi
failures=0
step() { printf '\n== %s\n' "$*"; }
ok() { echo "ok: $*"; }
bad() { echo "FAILED: $*"; failures=$((failures + 1)); }
# expect DESCRIPTION COMMAND...: ok or FAILED, by the command's status.
expect() {
  local description=$1
  shift
  if "$@"; then ok "$description"; else bad "$description"; fi
}

gpu=0
if nvidia-smi -L >/dev/null 2>&1; then gpu=1; fi

step "fresh clone and handout"
git clone -q "$repo" "$tmp/suite" || { bad "git clone"; exit 1; }
arch=$(cuda_arch "$gpu")
read -ra make_args <<<"$(handout_args "$gpu" "$refs")"
make_args+=(--autograder "$tmp/autograder.zip")
"$tmp/suite/scripts/make_handout.sh" "${make_args[@]}" "$tmp/handout" || { bad "make_handout.sh"; exit 1; }
handout=$tmp/handout
cd "$handout" || exit 1

step "the handout's README commands"
# The first ```sh block of the README, one command per line.
mapfile -t commands < <(awk '/^```sh$/ { inside = 1; next } inside && /^```$/ { exit } inside' README.md)
[ ${#commands[@]} -ge 2 ] || bad "the README has no two commands in its first sh block"
for command in "${commands[@]}"; do
  echo "\$ $command"
  if bash -c "$command" >"$tmp/readme.log" 2>&1; then ok "$command"; else
    # On a GPU the unfilled slots' own tests must fail (that is how a student
    # sees what is left to write); any other failing test is a defect.
    if [ "$gpu" = 1 ] && only_student_tests_failed "$tmp/readme.log"; then
      ok "$command (only the unfilled slots' student_tests fail, as they must on a GPU)"
    else
      tail -n 30 "$tmp/readme.log"
      bad "$command"
    fi
  fi
done

step "the handout's renderer offers only what the handout holds"
help=$(build/bin/render --help 2>&1)
if grep -q -- --cuda-mode <<<"$help"; then bad "render --help names --cuda-mode"; else
  ok "render --help names no --cuda-mode"; fi
out=$(build/bin/render -r cpu -s 16 -f '' rgb 2>&1)
status=$?
if [ "$status" -ne 0 ] && grep -q "not part of the handout: -r cpuref is the serial reference" <<<"$out"; then
  ok "render -r cpu: an error naming the serial reference"
else bad "render -r cpu: status $status, said: $out"; fi
if [ "$gpu" = 0 ]; then
  out=$(build/bin/render -s 16 -f '' rgb 2>&1)
  if grep -q "the serial reference renderer draws instead" <<<"$out" && grep -q "^Renderer: cpuref" <<<"$out"; then
    ok "render without a GPU: the serial reference draws, and it says so"
  else bad "render without a GPU: said: $out"; fi
fi

# grade_slots NAME: grade.sh on the handout's build (small sizes), results
# and logs under $tmp/NAME.
grade_slots() {
  scripts/grade.sh scan find_repeats render --no-build --bin-dir build/bin --counts 1000000,4000000 \
    --scenes rgb,rand10k,pattern,biglittle --runs 1 --logs "$tmp/$1" \
    --gradescope "$tmp/$1.json" >"$tmp/$1.out" 2>&1
}

step "the slots as handed out"
if [ "$gpu" = 0 ]; then
  echo "skipped: no GPU (the unfilled saxpy and scan slots' messages are checked by student_slot_tests)"
else
  ctest --preset default -R student_tests >"$tmp/unfilled.log" 2>&1 && bad "student_tests pass on unfilled slots"
  for file in saxpy/student/student_saxpy.cu scan/student/student_scan.cu render/student/student_renderer.cu; do
    if grep -q "$file" "$tmp/unfilled.log"; then ok "an unfilled-slot failure names $file"; else bad "no failure names $file"; fi
  done
  expect "the tests say 'not implemented yet'" grep -q "not implemented yet" "$tmp/unfilled.log"
  grade_slots unfilled
  total=$(jq '.score' "$tmp/unfilled.json" 2>/dev/null)
  expect "unfilled slots score 0 (got $total)" [ "$total" = 0 ]
  expect "grade.sh shows 'not implemented yet'" grep -q "not implemented yet" "$tmp/unfilled.out"
fi

step "the slots filled correctly"
fills=$tmp/suite/tests/student/fills
cp "$fills/student_saxpy.cu" saxpy/student/student_saxpy.cu
cp "$tmp/suite/judge/reference/course_scan.cu" scan/student/student_scan.cu
perl -i "$fills/fill_renderer.pl" render/student/student_renderer.cu || bad "fill_renderer.pl"
if cmake --build --preset default >"$tmp/filled-build.log" 2>&1; then ok "the filled handout builds"; else
  tail -n 30 "$tmp/filled-build.log"
  bad "the filled handout does not build"
fi
if [ "$gpu" = 0 ]; then
  echo "skipped: no GPU (the filled slots' tests and grading)"
else
  if ctest --preset default -R student_tests >"$tmp/filled.log" 2>&1; then ok "student_tests pass"; else
    tail -n 40 "$tmp/filled.log"
    bad "student_tests fail on the filled slots"
  fi
  expect "grade.sh: exit status 0 (every result correct)" grade_slots filled
  wrong=$(awk -F, 'NR > 1 && $8 != "ok"' "$tmp/filled/scores.csv")
  expect "every graded row is ok${wrong:+ (not: $wrong)}" [ -z "$wrong" ]
  failed=$(jq '[.tests[] | select(.status != "passed")] | length' "$tmp/filled.json")
  expect "results.json: every test passed ($failed not)" [ "$failed" = 0 ]
  cat "$tmp/filled.out"
fi

step "the Gradescope bundle"
ag=$tmp/autograder
mkdir -p "$ag/source" "$ag/submission/my files"
unzip -q "$tmp/autograder.zip" -d "$ag/source" || bad "unzip the bundle"
cp saxpy/student/student_saxpy.cu scan/student/student_scan.cu render/student/student_renderer.cu \
  "$ag/submission/my files/"
AUTOGRADER_ROOT=$ag AUTOGRADER_CUDA_ARCHITECTURES=$arch TMPDIR=$tmp bash "$ag/source/run_autograder" \
  >"$tmp/autograder.log" 2>&1
expect "run_autograder writes results.json" [ -f "$ag/results/results.json" ]
tests=$(jq '.tests | length' "$ag/results/results.json" 2>/dev/null)
expect "results.json parses and has tests ($tests)" [ "${tests:-0}" -gt 0 ]
if [ "$gpu" = 1 ]; then
  failed=$(jq '[.tests[] | select(.status != "passed")] | length' "$ag/results/results.json")
  expect "autograder: every test passed ($failed not)" [ "$failed" = 0 ]
else
  jq -r '.tests[] | "\(.name): \(.output)"' "$ag/results/results.json" 2>/dev/null | head -n 5
  expect "autograder without a GPU: a build, no build failure" \
    [ "$(jq -r '.tests[0].name' "$ag/results/results.json" 2>/dev/null)" != build ]
fi

echo
if [ "$failures" = 0 ]; then echo "test_handout.sh: all steps passed$([ "$gpu" = 0 ] && echo " (GPU steps skipped)")"; else
  echo "test_handout.sh: $failures steps failed"
fi
[ "$failures" = 0 ]
