#!/usr/bin/env bash
# scripts/make_handout.sh --no-refs: the tree it writes holds the student
# slots, the serial references, scenes, grader, slot tests and student docs,
# is marked as a handout, and holds none of the suite's GPU implementations:
# no solution source file by name, no kernel outside the slots, and no
# kernel name of a solution file anywhere. Also its usage errors. Quick: it
# builds nothing (scripts/test_handout.sh builds and tests a handout).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=tests/grade/testing.sh
source "$repo/tests/grade/testing.sh"
make_handout=$repo/scripts/make_handout.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
handout=$tmp/handout

out=$("$make_handout" --no-refs "$handout" 2>&1)
expect_eq "make_handout: exit status" 0 "$?"
expect_match "make_handout: names the handout" "^Handout: $handout\$" "$out"

# Its grade.sh --help names only what a handout grades.
out=$("$handout/scripts/grade.sh" --help)
expect_eq "handout grade.sh --help: exit status" 0 "$?"
expect_match "handout grade.sh --help: its options" '^  --scenes LIST' "$out"
expect_no_match "handout grade.sh --help: none of the suite's" \
  '--renderer|--cuda-mode|--algorithm|--ladder|--ref-mode|--ref-algorithm|kogge-stone|single-pass|tiled binned' "$out"

for file in .handout README.md CMakeLists.txt CMakePresets.json \
  saxpy/student/student_saxpy.cu scan/student/student_scan.cu render/student/student_renderer.cu \
  saxpy/src/saxpy_serial.cpp saxpy/src/chunks.cpp scan/src/reference.cpp render/src/host/ref_renderer.cpp \
  render/include/render/shade.h scenes/src/course_scenes.cpp scripts/gradescope.sh scripts/submit.sh scripts/profile.sh \
  render/student/circle_box.h render/student/block_scan.cuh tests/student/test_student_gpu.cpp docs/students.md; do
  expect_eq "handout holds $file" yes "$([ -f "$handout/$file" ] && echo yes || echo no)"
done

# The grader: grade.sh and every file it sources, and those theirs, read from
# their source lines (not from the list make_handout.sh copies).
grader=(grade.sh)
for ((i = 0; i < ${#grader[@]}; i++)); do
  # shellcheck disable=SC2016  # "$script_dir" is text in the sourced line
  while read -r lib; do
    [[ " ${grader[*]} " == *" $lib "* ]] || grader+=("$lib")
  done < <(sed -n 's|^[[:space:]]*source "$script_dir/\([^"]*\)".*$|\1|p' "$repo/scripts/${grader[$i]}")
done
expect_match "grade.sh's libraries found" '^grade_lib\.sh$' "$(printf '%s\n' "${grader[@]}")"
for file in "${grader[@]}"; do
  expect_eq "handout holds scripts/$file (the grader)" yes "$([ -f "$handout/scripts/$file" ] && echo yes || echo no)"
done
expect_eq "README is the student docs" "$(cat "$repo/docs/students.md")" "$(cat "$handout/README.md")"
# The docs it carries: their parts about the suite are gone, and every link
# and every path they and the source comments name leads to something the
# handout holds.
expect_eq "no suite-only part left in the docs" "" "$(cd "$handout" && grep -l 'suite-only' README.md docs/*.md)"
expect_match "the suite's docs have suite-only parts to drop" '<!-- suite-only -->' "$(cat "$repo/docs/grading.md")"
# Nor a suite-only mark in any other file (make_handout.sh's SUITE_ONLY_MARK).
mark=$(sed -n "s/^SUITE_ONLY_MARK='\(.*\)'\$/\1/p" "$make_handout")
expect_match "make_handout.sh says what a suite-only mark is" 'suite-only' "$mark"
expect_eq "no suite-only mark left in the handout" "" "$(cd "$handout" && grep -rnIE -- "$mark" .)"
out=$(bash "$repo/tests/docs/test_doc_links.sh" "$handout" 2>&1)
expect_eq "the handout's docs: the link check's exit status" 0 "$?"
expect_eq "the handout's docs: every link and path leads into the handout" "" "$(grep '^FAIL' <<<"$out")"
expect_eq "no reference programs with --no-refs" no "$([ -e "$handout/ref" ] && echo yes || echo no)"

# The suite's GPU sources (the judge's reference scan too), other than the
# slots, the public interface of the CUDA renderer, the library's own scan
# (the course keeps Thrust) and the bench's empty kernel (the floor of the
# course's timing, no solution).
solutions=$(cd "$repo" && find saxpy scan render judge/reference -name '*.cu' -o -name '*.cuh' -o -name 'cuda_*' |
  grep -v -e '/student/' -e '^render/include/' -e '^scan/src/cub_backend.cu$' \
    -e '^scan/app/empty_launch.cu$' | sort)
expect_match "the suite has solution sources to look for" 'single_pass' "$solutions"
for path in $solutions; do
  name=$(basename "$path")
  found=$(cd "$handout" && find . -name "$name")
  expect_eq "no solution file $name in the handout" "" "$found"
done

allowed_kernel_files=" render/student/student_renderer.cu saxpy/student/student_saxpy.cu scan/student/student_scan.cu tests/scenes/gpu_advance.cu scan/app/empty_launch.cu judge/host/probe.cu judge/worker/calibration_slot.cu "
kernel_files=$(cd "$handout" && grep -rl '__global__' . | sed 's|^\./||' | sort)
expect_match "the render slot has kernels" '^render/student/student_renderer.cu$' "$kernel_files"
for file in $kernel_files; do
  expect_match "kernels only in the slots, the animation test and the bench's empty kernel: $file" "^yes\$" \
    "$([[ $allowed_kernel_files == *" $file "* ]] && echo yes || echo no)"
done

# Every __global__ function name of the solution sources (the judge's
# reference scan names its kernels after the course's pseudocode, which the
# slot quotes: not those).
kernels=$(cd "$repo" && for path in $solutions; do [[ $path == judge/reference/* ]] || cat "$path"; done |
  perl -0ne 'while (/__global__\s+(?:void\s+)?(?:__launch_bounds__\([^)]*\)\s+)?(?:void\s+)?(\w+)\s*\(/g) { print "$1\n" }' |
  sort -u)
expect_match "the solution kernels have names to look for" 'tuned_kernel' "$kernels"
for kernel in $kernels; do
  expect_eq "kernel $kernel is nowhere in the handout" "" "$(grep -rlw -- "$kernel" "$handout")"
done

# The parallel CPU renderer (tiles, bins and the tuned helpers of its
# shading) and the CUDA renderer's interface to its tuned designs are the
# assignment's design too: none of their files or names.
for path in render/src/cpu/cpu_renderer.cpp render/include/render/cpu_renderer.h render/src/cpu/tile_bins.cpp \
  render/src/cpu/tile_bins.h render/src/cpu/run_shading.cpp render/src/cpu/run_shading.h render/include/render/covered_run.h \
  render/include/render/suffix.h render/bench/bench_cpu_render.cpp render/include/render/cuda_renderer.h \
  judge/worker/render_cpu_slot.cpp judge/worker/render_rung_slot.cpp; do
  expect_eq "the suite has $path" yes "$([ -f "$repo/$path" ] && echo yes || echo no)"
  expect_eq "no $path in the handout" no "$([ -e "$handout/$path" ] && echo yes || echo no)"
done
for name in CpuRenderer TileBins TileGrid for_each_covered_run shade_flat_circle_runs ColorBounds \
  CudaRenderer CudaRendererOptions suffix_min_pairs max_pairs_per_pass; do
  expect_match "the suite's CPU renderer names $name" "$name" "$(cd "$repo" && cat render/src/cpu/cpu_renderer.cpp \
    render/include/render/cpu_renderer.h render/src/cpu/tile_bins.h render/src/cpu/run_shading.h render/include/render/covered_run.h \
    render/include/render/suffix.h render/include/render/cuda_renderer.h)"
  expect_eq "$name is nowhere in the handout" "" "$(grep -rlw -- "$name" "$handout")"
done

# The handout speaks only of itself: no text file or path in it names a
# design of the suite's that it does not hold (scripts/suite_design_names.txt,
# whose every name the suite does use). Each hit is printed as FILE:LINE:TEXT
# (a path alone for a path).
mapfile -t design_names < <(grep -v -e '^#' -e '^$' "$repo/scripts/suite_design_names.txt")
expect_match "the suite's design names are listed" 'kogge' "$(printf '%s\n' "${design_names[@]}")"
for pattern in "${design_names[@]}"; do
  expect_match "the suite names /$pattern/" . \
    "$(cd "$repo" && grep -rliE -- "$pattern" docs render scan scripts judge | head -n 1)"
  expect_eq "the handout names no /$pattern/" "" \
    "$(cd "$handout" && { grep -rnIiE -- "$pattern" .; find . | grep -iE -- "$pattern"; } | sed 's|^\./||')"
done

# make_handout.sh itself refuses a handout that names one, and marks that
# do not pair up or sit in a file of a language it does not know: on a copy
# of the suite with such a line added to a file the handout holds. Nothing
# is written.
suite_copy=$tmp/suite
mkdir -p "$suite_copy"
(cd "$repo" && tar --exclude='./build*' --exclude=./.git -cf - .) | (cd "$suite_copy" && tar -xf -)
check_refusal() {
  local name=$1 file=$2 line=$3 want=$4 out
  cp "$suite_copy/$file" "$tmp/kept"
  printf '%s\n' "$line" >>"$suite_copy/$file"
  out=$("$suite_copy/scripts/make_handout.sh" --no-refs "$tmp/refused" 2>&1)
  expect_eq "make_handout.sh, $name: exit status" 1 "$?"
  expect_match "make_handout.sh, $name: says where" "$want" "$out"
  expect_eq "make_handout.sh, $name: nothing written" no "$([ -e "$tmp/refused" ] && echo yes || echo no)"
  mv "$tmp/kept" "$suite_copy/$file"
}
check_refusal "a design named" scan/src/inputs.cpp '// decoupled look-back' \
  '^scan/src/inputs\.cpp:[0-9]+:// decoupled look-back$'
check_refusal "an unpaired mark" scan/src/inputs.cpp '// suite-only' \
  '^make_handout.sh: scan/src/inputs\.cpp: unbalanced suite-only marks$'
check_refusal "a mark of an unknown language" judge/contract/course.json '# suite-only' \
  '^make_handout.sh: judge/contract/course\.json: suite-only marks in a file whose comments'

# No judge tests: their workers attack the judge (the suite's CI runs them).
expect_eq "no judge tests in the handout" no "$([ -e "$handout/tests/judge" ] && echo yes || echo no)"

# The slot stand-ins, not the suite's code, sit where the kernels were;
# the scan library's suite algorithms are cut, CUB's and the student's kept,
# and so are the CUDA renderer's modes, but for auto.
expect_match "render builds the stand-in in a handout" 'student/not_handed_out.cpp' "$(cat "$handout/render/CMakeLists.txt")"
expect_match "the handout's scan library keeps CUB's algorithm" '\{Algorithm::kCub, "cub"\}' \
  "$(cat "$handout/scan/src/algorithm.cpp")"
expect_match "the handout's scan library keeps the student's" '^  kStudent$' "$(cat "$handout/scan/include/scan/algorithm.h")"
expect_match "the handout's CudaMode keeps Auto" '^  Auto$' "$(cat "$handout/render/include/render/cuda_mode.h")"

# The reference scripts and the Gradescope bundle, on reference programs
# that print their arguments.
fake_bin=$tmp/fake-bin
mkdir -p "$fake_bin"
for program in render cudaScan judge_scan_reference judge_render_reference; do
  printf '#!/usr/bin/env bash\necho "%s $*"\n' "$program" >"$fake_bin/$program"
  chmod +x "$fake_bin/$program"
done
check_refs_and_bundle() {
  local with_refs out listing entry
  with_refs=$tmp/with-refs
  out=$("$make_handout" --ref-bin "$fake_bin" --autograder "$tmp/bundle.zip" "$with_refs" 2>&1)
  expect_eq "with references and bundle: exit status" 0 "$?"
  expect_match "names the bundle" "^Autograder bundle: $tmp/bundle.zip\$" "$out"
  expect_match "names the references" "^Handout: $with_refs \(reference programs in ref/\)\$" "$out"
  expect_eq "render_ref runs the reference's render" "render -r cuda -c rgb" "$("$with_refs/ref/render_ref" -r cuda -c rgb)"
  expect_eq "render_ref takes the course's options, values too" "render -s 256 -b 0:4 -f  -S -1 rgb" \
    "$("$with_refs/ref/render_ref" -s 256 -b 0:4 -f '' -S -1 rgb)"
  local refused
  for refused in --cuda-mode=binned "--cuda-mode binned" --list --gif=x.gif "--format ppm"; do
    # shellcheck disable=SC2086  # the option and its value, as two words
    out=$("$with_refs/ref/render_ref" $refused rgb 2>&1)
    expect_eq "render_ref refuses $refused: exit status" 2 "$?"
    expect_match "render_ref refuses $refused: says why" \
      "^render_ref: ${refused%%[= ]*} is not an option of the course's reference program" "$out"
  done
  out=$("$with_refs/ref/cudaScan_ref" -a cub -m scan 2>&1)
  expect_eq "cudaScan_ref refuses -a: exit status" 2 "$?"
  expect_match "cudaScan_ref refuses -a: says why" "^cudaScan_ref: -a is not an option of the course's reference program" "$out"
  expect_eq "cudaScan_ref runs the reference's cudaScan" "cudaScan -m scan -n 100" "$("$with_refs/ref/cudaScan_ref" -m scan -n 100)"
  expect_eq "cudaScan_ref takes -t" "cudaScan -m scan -t" "$("$with_refs/ref/cudaScan_ref" -m scan -t)"
  out=$("$with_refs/ref/render_ref" --help)
  expect_eq "render_ref --help: the program's help" "render --help" "$(head -n 1 <<<"$out")"
  expect_match "render_ref --help: says what its slot holds and what it takes" \
    "^render_ref: this handout's render with the course's reference design in the student's slot .* Options taken: -r --renderer -s" "$out"
  expect_match "cudaScan_ref -?: the same" "^cudaScan_ref: this handout's cudaScan with the course's reference design" \
    "$("$with_refs/ref/cudaScan_ref" '-?')"
  listing=$(unzip -Z1 "$tmp/bundle.zip")
  for entry in setup.sh run_autograder handout/.handout handout/ref/render_ref handout/ref/.bin/cudaScan \
    handout/ref/.bin/judge_scan_reference handout/ref/.bin/judge_render_reference handout/judge/app/judge_main.cpp \
    handout/render/student/student_renderer.cu; do
    expect_match "the bundle holds $entry" "^$entry\$" "$listing"
  done
  # The bundle's setup.sh is the handout's set-up (Ninja for the presets,
  # apt-get update first), not a list of its own.
  mkdir -p "$tmp/bundle"
  (cd "$tmp/bundle" && unzip -q "$tmp/bundle.zip")
  expect_match "the bundle's setup.sh runs the handout's" '^  scripts/setup.sh \[--clang\] \[--tests\] \[--check\] \[--dry-run\]$' \
    "$("$tmp/bundle/setup.sh" --help 2>&1)"
  expect_match "run_autograder grades for Gradescope" "--gradescope \"\\\$results\"" \
    "$(unzip -p "$tmp/bundle.zip" run_autograder)"
}
if command -v zip >/dev/null && command -v unzip >/dev/null; then
  check_refs_and_bundle
else
  skip_part "the reference scripts and the bundle (zip or unzip is not installed)"
fi

# Usage errors: one line, status 2, nothing written.
out=$("$make_handout" --no-refs "$handout" 2>&1)
expect_eq "existing handout: exit status" 2 "$?"
expect_match "existing handout: says why" "exists and is not an empty folder" "$out"
out=$("$make_handout" 2>&1)
expect_eq "no DIR: exit status" 2 "$?"
out=$("$make_handout" --cuda-archs 'sm 90' "$tmp/other" 2>&1)
expect_eq "bad --cuda-archs: exit status" 2 "$?"
expect_eq "bad --cuda-archs: nothing written" no "$([ -e "$tmp/other" ] && echo yes || echo no)"
out=$("$make_handout" --no-refs --cuda-archs 90 "$tmp/other" 2>&1)
expect_eq "--cuda-archs without a reference build: exit status" 2 "$?"
expect_match "--cuda-archs without a reference build: says why" "--cuda-archs goes with building the references" "$out"
expect_eq "--cuda-archs without a reference build: nothing written" no "$([ -e "$tmp/other" ] && echo yes || echo no)"
out=$("$make_handout" --no-refs --autograder /nonexistent/bundle.zip "$tmp/other" 2>&1)
expect_eq "bundle in no folder: exit status" 2 "$?"
expect_eq "bundle in no folder: one line" "make_handout.sh: --autograder: no folder '/nonexistent' (try --help)" "$out"
expect_eq "bundle in no folder: nothing written" no "$([ -e "$tmp/other" ] && echo yes || echo no)"
# A reference build that fails leaves no half-made handout.
fake_tools=$tmp/fake-tools
mkdir -p "$fake_tools"
printf '#!/bin/sh
echo "CMake Error: no CUDA compiler"
exit 1
' >"$fake_tools/cmake"
chmod +x "$fake_tools/cmake"
out=$(PATH="$fake_tools:$PATH" "$make_handout" "$tmp/other" 2>&1)
expect_eq "reference build fails: exit status" 1 "$?"
expect_match "reference build fails: says so" "^make_handout.sh: building the reference programs failed" "$out"
expect_eq "reference build fails: nothing left" no "$([ -e "$tmp/other" ] && echo yes || echo no)"
mkdir "$tmp/empty"
PATH="$fake_tools:$PATH" "$make_handout" "$tmp/empty" >/dev/null 2>&1
expect_eq "reference build fails in an empty folder: the folder stays, empty" "" "$(ls -A "$tmp/empty")"

# Stopped by a signal while the reference programs build (a cmake that
# sends it to make_handout.sh): exit 130 or 143, and nothing this run made
# is left: the handout, the temporary build folder and its log.
for signal in INT:130 TERM:143; do
  # shellcheck disable=SC2016  # expanded by the fake cmake
  printf '#!/bin/sh\nmkdir -p "$4/bin"\nkill -%s $PPID\n' "${signal%:*}" >"$fake_tools/cmake"
  rm -rf "$tmp/tmpdir" "$tmp/other"
  mkdir -p "$tmp/tmpdir"
  out=$(PATH="$fake_tools:$PATH" TMPDIR=$tmp/tmpdir "$make_handout" "$tmp/other" 2>&1)
  expect_eq "SIG${signal%:*} during the reference build: exit status" "${signal#*:}" "$?"
  expect_match "SIG${signal%:*} during the reference build: said" "^make_handout.sh: stopped by SIG${signal%:*}" "$out"
  expect_eq "SIG${signal%:*} during the reference build: no handout left" no "$([ -e "$tmp/other" ] && echo yes || echo no)"
  expect_eq "SIG${signal%:*} during the reference build: no temporary build left" "" "$(ls -A "$tmp/tmpdir")"
done
# A failing build leaves no temporary build either.
# shellcheck disable=SC2016  # expanded by the fake cmake
printf '#!/bin/sh\nmkdir -p "$4"\nexit 1\n' >"$fake_tools/cmake"
rm -rf "$tmp/tmpdir/"* "$tmp/other"
PATH="$fake_tools:$PATH" TMPDIR=$tmp/tmpdir "$make_handout" "$tmp/other" >/dev/null 2>&1
expect_eq "reference build fails: no temporary build left" "" "$(ls -A "$tmp/tmpdir")"

finish
