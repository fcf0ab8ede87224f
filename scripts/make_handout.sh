#!/usr/bin/env bash
# Writes the tree a class receives (docs/instructors.md, "For instructors: the
# handout"):
# the student slots, the serial references, the scenes, the shading rule,
# the grader, the tests of the slots and the student docs, and none of the
# suite's own GPU implementations. It builds and tests with the same README
# commands as the suite; inside it the course's names select the slots.
# Unless --no-refs, it also holds reference programs for
# REF_CUDA_ARCHITECTURES, as the course ships render_ref and cudaScan_ref:
# ref/render_ref (the course's renderer design) and ref/cudaScan_ref (the
# course's scan design), and the judge's reference workers. They are built
# from a copy of the handout itself whose two slots hold the reference
# designs (judge/reference/), so they hold nothing else of the suite.
#
# Usage: scripts/make_handout.sh [options] DIR
#   DIR                   the handout folder; must not exist or be empty
#   --no-refs             no reference programs (fast; for tests)
#   --cuda-archs LIST     architectures of the reference programs
#                         (default: REF_CUDA_ARCHITECTURES below)
#   --ref-bin DIR         take the reference programs from DIR (another
#                         handout's ref/.bin: render, cudaScan,
#                         judge_scan_reference, judge_render_reference)
#                         instead of building
#   --autograder ZIP      also write a Gradescope autograder bundle to ZIP
#                         (setup.sh, run_autograder and the handout)
#   -h, --help            this text
# Exit status: 0 written, 1 failure (a listed file missing, a build failing),
# 2 usage, 130 or 143 when stopped by SIGINT or SIGTERM (a run that does not
# finish leaves nothing it made).
set -uo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$script_dir/.." && pwd)
# GRADE_FILES, the grader's files; functions and constants only.
# shellcheck source=scripts/grade_lib.sh
source "$script_dir/grade_lib.sh" || exit 1

# The course-level references, in the slots' shape: the scan's, and the
# renderer's (one block per tile, circles in batches compacted by a
# block-wide scan).
REF_SCAN_SLOT=judge/reference/course_scan.cu
REF_RENDER_SLOT=judge/reference/course_renderer.cu
# The GPU architectures the suite supports; the reference programs hold
# machine code for each ("-real": no PTX, which would be far easier to read
# than machine code). The single-pass scan's Hopper bulk copies hold it at
# sm_90 for now; with the portable paths for older GPUs this becomes the
# course's T4 and newer, "75-real;80-real;86-real;89-real;90-real;100-real;120-real".
REF_CUDA_ARCHITECTURES="75-real;80-real;86-real;89-real;90-real;100-real;120-real"

# The renderer's public headers a handout holds: not the CUDA renderer's
# (cuda_renderer.h, its tuned designs' options) or the parallel CPU
# renderer's and its helpers (cpu_renderer.h, covered_run.h, suffix.h).
RENDER_HEADERS=(banded_ref_renderer.h check.h cuda_mode.h frame_loop.h gif.h host_renderer.h
  image.h image_io.h ref_renderer.h renderer.h renderer_factory.h shade.h)

# The judge's worker side a handout holds: not the slots of the suite's
# own renderers and scans (judge_render_cpu, the rungs).
JUDGE_WORKERS=(include worker_loop.cpp alloc_cache.cpp alloc_cache.h calibration_slot.cu
  device_arena.cpp device_arena.h render_empty_slot.cpp render_host_slot.cpp
  render_worker.cpp saxpy_worker.cpp scan_worker.cpp)

# What the handout holds, as paths from the top of the suite (folders whole).
# A path listed here that is missing stops the script: update the list when
# files move. The suite's GPU implementations are left out on purpose;
# saxpy's and render's student/not_handed_out.cpp stand in for them
# (cmake/Handout.cmake), and the lines that name them are cut
# (strip_handout).
# So are the judge's tests: their workers attack the judge, and a student's
# build has no use for them (the suite's CI runs them).
HANDOUT_PATHS=(
  .clang-format CMakeLists.txt CMakePresets.json cmake
  common scenes
  saxpy/CMakeLists.txt saxpy/app saxpy/include saxpy/src/chunks.cpp saxpy/src/saxpy_serial.cpp saxpy/src/variants.cpp
  saxpy/src/saxpy_run.cpp
  saxpy/student
  scan/CMakeLists.txt scan/app scan/include scan/src/algorithm.cpp scan/src/inputs.cpp
  scan/src/reference.cpp scan/src/workspace.cpp scan/src/dispatch.cpp scan/src/cub_backend.cu
  scan/src/kernels.h scan/src/workspace_access.h scan/student
  render/CMakeLists.txt render/app render/student "${RENDER_HEADERS[@]/#/render/include/render/}"
  render/src/check.cpp render/src/frame_loop.cpp render/src/renderer_factory.cpp render/src/host
  render/src/io
  tests/CMakeLists.txt tests/gpu_test.h tests/run_program.h tests/temp_dir.h tests/test_seed.h
  tests/cmake tests/common tests/scenes tests/student/CMakeLists.txt tests/student/test_student_gpu.cpp
  judge/CMakeLists.txt judge/app judge/host judge/protocol judge/contract "${JUDGE_WORKERS[@]/#/judge/worker/}"
  scripts/setup.sh scripts/submit.sh "${GRADE_FILES[@]/#/scripts/}" scripts/fuzz_scene_file.sh
  scripts/profile.sh scripts/plot_ladder.gp
  docs/students.md docs/render.md docs/grading.md docs/design/judge.md docs/scene_file_format.md docs/scenes.md
)

# The names of the suite's designs, which a handout must not hold: one
# pattern a line (its opening comment says more). The handout's lines that
# name them sit between suite-only marks (strip_suite_only).
SUITE_DESIGN_NAMES=$script_dir/suite_design_names.txt

usage_error() {
  echo "make_handout.sh: $1 (try --help)" >&2
  exit 2
}
# fail MESSAGE: exit 1; what the run wrote goes with it (remove_unfinished).
fail() {
  echo "make_handout.sh: $1" >&2
  exit 1
}

# Whatever ends the run before the handout is complete (a failure, Ctrl-C,
# SIGTERM) removes what this run made: its temporary build and staging
# folders, the half-made handout (a folder that was there empty stays,
# empty) and a half-written bundle.
written=0
dir_existed=0
finished=0
temps=()  # this run's temporary folders and files
bundle=""  # the autograder bundle once its writing begins
# shellcheck disable=SC2317  # run by the traps below
remove_unfinished() {
  [ ${#temps[@]} -eq 0 ] || rm -rf -- "${temps[@]}"
  [ "$finished" = 0 ] || return 0
  [ -z "$bundle" ] || rm -f -- "$bundle"
  [ "$written" = 1 ] || return 0
  if [ "$dir_existed" = 1 ]; then find "$dir" -mindepth 1 -delete; else rm -rf -- "$dir"; fi
}
# shellcheck disable=SC2317  # run by the traps below
on_signal() {
  trap '' INT TERM
  echo "make_handout.sh: stopped by SIG$1: removed what this run wrote" >&2
  exit "$2"
}
trap remove_unfinished EXIT
trap 'on_signal INT 130' INT
trap 'on_signal TERM 143' TERM

refs=1
archs=$REF_CUDA_ARCHITECTURES
ref_bin=""
archs_given=0
zip_out=""
dir=""
while [ $# -gt 0 ]; do
  if [[ $1 == --*=* ]]; then set -- "${1%%=*}" "${1#*=}" "${@:2}"; fi
  case "$1" in
    --no-refs) refs=0 ;;
    --cuda-archs)
      [ $# -ge 2 ] || usage_error "--cuda-archs needs a value"
      [[ $2 =~ ^[0-9a-z]+(-real|-virtual)?(\;[0-9a-z]+(-real|-virtual)?)*$ ]] ||
        usage_error "--cuda-archs: '$2' is not a ;-separated list of architectures (e.g. 75;80;90)"
      archs=$2
      archs_given=1
      shift
      ;;
    --ref-bin)
      [ $# -ge 2 ] || usage_error "--ref-bin needs a value"
      for program in render cudaScan judge_scan_reference judge_render_reference; do
        [ -x "$2/$program" ] || usage_error "--ref-bin: '$2' holds no $program program"
      done
      ref_bin=$(cd "$2" && pwd)
      shift
      ;;
    --autograder)
      [ $# -ge 2 ] || usage_error "--autograder needs a value"
      [[ $2 == *.zip ]] || usage_error "--autograder: '$2' does not end in .zip"
      zip_out=$2
      shift
      ;;
    -h | --help)
      awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
      exit 0
      ;;
    -*) usage_error "unknown option '$1'" ;;
    *)
      [ -z "$dir" ] || usage_error "one DIR only ('$dir', then '$1')"
      dir=$1
      ;;
  esac
  shift
done
[ -n "$dir" ] || usage_error "needs DIR, the handout folder to write"
# --cuda-archs only says how to build the references: refuse it where none are built.
if [ "$archs_given" = 1 ] && { [ "$refs" = 0 ] || [ -n "$ref_bin" ]; }; then
  usage_error "--cuda-archs goes with building the references, not with --no-refs or --ref-bin"
fi
if [ -e "$dir" ] && { [ ! -d "$dir" ] || [ -n "$(ls -A -- "$dir")" ]; }; then
  usage_error "'$dir' exists and is not an empty folder"
fi
if [ -n "$zip_out" ]; then
  [ ! -e "$zip_out" ] || usage_error "'$zip_out' exists"
  # Checked now, not after building the reference programs; usage first.
  zip_dir=$(cd "$(dirname -- "$zip_out")" 2>/dev/null && pwd) ||
    usage_error "--autograder: no folder '$(dirname -- "$zip_out")'"
  command -v zip >/dev/null || fail "--autograder needs zip (apt-get install zip)"
fi
for path in "${HANDOUT_PATHS[@]}"; do
  [ -e "$repo/$path" ] || fail "$path is listed in HANDOUT_PATHS but missing from the suite"
done

# strip_suite_only FILE OPEN CLOSE: drops, in place, the parts of a file
# that are about the suite rather than the assignment (its designs, its
# measurements, the instructors' tools), which name what the handout does
# not hold: the lines from one reading "OPEN suite-only CLOSE" to one
# reading "OPEN /suite-only CLOSE" (indented or not), and any line ending in
# " OPEN suite-only CLOSE"; blank lines left doubled by a cut become one.
# OPEN and CLOSE make the mark a comment of the file's language
# (suite_only_marks). Status 1, the file left as it was, when the block
# marks do not pair up.
strip_suite_only() {
  local stripped
  stripped=$(awk -v start="$2 suite-only$3" -v end="$2 /suite-only$3" '
    { line = $0; sub(/^[ \t]+/, "", line) }
    line == start { if (skip) exit 1; skip = 1; cut = 1; next }
    line == end { if (!skip) exit 1; skip = 0; next }
    skip || (length($0) > length(start) + 1 && substr($0, length($0) - length(start)) == " " start) { cut = 1; next }
    /^$/ && cut && blank { next } # one blank line where a part was cut
    { print; blank = $0 == ""; if (!blank) cut = 0 }
    END { if (skip) exit 1 }' "$1") || return 1
  printf '%s\n' "$stripped" >"$1"
}

# suite_only_marks FILE: the comment that makes a suite-only mark in FILE's
# language, as "OPEN CLOSE" (CLOSE may be empty): "<!-- -->" in Markdown,
# "//" in C, C++ and CUDA, "#" in shell, CMake and gnuplot. Status 1 for a
# file of another kind.
suite_only_marks() {
  case "$1" in
    *.md) echo '<!-- -->' ;;
    *.c | *.cc | *.cpp | *.h | *.hpp | *.cu | *.cuh) echo '//' ;;
    *.sh | *.cmake | */CMakeLists.txt | *.gp) echo '#' ;;
    *) [[ $(head -c 2 -- "$1") == '#!' ]] && echo '#' ;;
  esac
}

# A line that is, or ends in, a suite-only mark of any language.
SUITE_ONLY_MARK='(^[[:space:]]*|[[:space:]])(<!--|//|#) /?suite-only( -->)?$'

# strip_handout: strip_suite_only on every file of the handout with a line
# that is, or ends in, a suite-only mark.
strip_handout() {
  local file marks open close
  while IFS= read -r -d '' file; do
    marks=$(suite_only_marks "$file") ||
      fail "${file#"$dir"/}: suite-only marks in a file whose comments make_handout.sh does not know"
    read -r open close <<<"$marks"
    strip_suite_only "$file" "$open" "${close:+ $close}" || fail "${file#"$dir"/}: unbalanced suite-only marks"
  done < <(grep -rlZIE -- "$SUITE_ONLY_MARK" "$dir")
}

# check_names: fails, naming the first hits (FILE:LINE:TEXT, or a path),
# when a text file or a path of the handout names a design of the suite's
# (SUITE_DESIGN_NAMES).
check_names() {
  local patterns hits
  patterns=$(grep -v -e '^#' -e '^$' "$SUITE_DESIGN_NAMES") || fail "no names in $SUITE_DESIGN_NAMES"
  hits=$(cd "$dir" && { grep -rnIiE -e "$patterns" .; find . | grep -iE -e "$patterns"; } | sed 's|^\./||')
  [ -z "$hits" ] || fail "the handout names designs of the suite's that it does not hold (${SUITE_DESIGN_NAMES#"$repo"/}): mark those lines suite-only
$(head -n 20 <<<"$hits")"
}

# strip_suite_options SCRIPT OPTION...: drops, in place, each OPTION's entry
# (its "#   --OPTION" line and the deeper-indented lines under it) from the
# SCRIPT's opening comment, its --help.
strip_suite_options() {
  local file=$1 stripped
  shift
  stripped=$(awk -v options=" $* " '
    NR > 1 && !/^#/ { body = 1 }
    !body && /^#   --[a-z-]+/ { name = $2; sub(/=.*/, "", name); skip = index(options, " " name " ") > 0 }
    !body && /^#   [^ ]/ && !/^#   --/ { skip = 0 }
    !body && /^# [^ ]/ { skip = 0 }
    !(skip) { print }' "$file") || return 1
  printf '%s\n' "$stripped" >"$file"
}

[ ! -d "$dir" ] || dir_existed=1
mkdir -p -- "$dir" || fail "cannot create '$dir'"
dir=$(cd "$dir" && pwd)
written=1
(cd "$repo" && cp -R --parents -- "${HANDOUT_PATHS[@]}" "$dir/") || fail "copying into '$dir' failed"
# The student docs are the handout's README; .handout selects the handout
# build (cmake/Handout.cmake).
cp "$repo/docs/students.md" "$dir/README.md"
# Its files lose their parts about the suite (strip_suite_only).
strip_handout
# grade.sh's help names only what a handout grades: not the options that
# pick the suite's own renderers, algorithms and rungs (a handout refuses them).
strip_suite_options "$dir/scripts/grade.sh" --renderer --cuda-mode --algorithm --ladder --ref-mode --ref-algorithm ||
  fail "scripts/grade.sh: its help could not be cut to the handout's"
# What is left names none of the suite's designs.
check_names
echo "This tree is a student handout: cmake builds it with SUITE_HANDOUT=ON." >"$dir/.handout"
printf '/build*/\n/grade-results/\noutput_*\n/submission.zip\n' >"$dir/.gitignore"

# write_wrapper FILE PROGRAM OPTIONS VALUED: a script that runs the
# reference PROGRAM. It takes the course's reference program's options only
# (OPTIONS; VALUED: those that take a value) and refuses any other with one
# line and status 2.
write_wrapper() {
  cat >"$1" <<WRAPPER
#!/usr/bin/env bash
# The course-level reference $2: this handout's $2 with the course's design
# in its slot, built by make_handout.sh. Time your code against it. It takes
# the options of the course's reference program only.
here=\$(cd "\$(dirname "\${BASH_SOURCE[0]}")" && pwd)
# The CUDA runtime it was built with, where make_handout.sh put one beside it.
export LD_LIBRARY_PATH="\$here/.bin\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
options=' $3 '
valued=' $4 '
value_next=0
for arg in "\$@"; do
  if [ "\$value_next" = 1 ]; then value_next=0; continue; fi
  case "\$arg" in
    --*=*) name=\${arg%%=*} ;;
    --*) name=\$arg ;;
    -?*) name=\${arg:0:2} ;;
    *) continue ;;
  esac
  if [[ \$options != *" \$name "* ]]; then
    echo "\$(basename "\$0"): \$name is not an option of the course's reference program (its options:\${options% })" >&2
    exit 2
  fi
  [[ \$valued == *" \$name "* && \$arg == "\$name" ]] && value_next=1
done
# Its help is the handout program's, whose slot holds the reference here;
# say so, and which of its options this script takes.
for arg in "\$@"; do
  case "\$arg" in
    -\? | --help)
      "\$here/.bin/$2" --help
      status=\$?
      echo
      echo "\$(basename "\$0"): this handout's $2 with the course's reference design in the student's slot (what the help above calls yours). Options taken:\${options% }"
      exit "\$status"
      ;;
  esac
done
exec "\$here/.bin/$2" "\$@"
WRAPPER
  chmod +x "$1"
}

# build_refs: the reference programs into ref/.bin (from --ref-bin, or
# built here from a copy of the handout with the reference designs in its
# slots), and their scripts.
build_refs() {
  local src cudart
  mkdir -p "$dir/ref/.bin"
  if [ -n "$ref_bin" ]; then
    cp "$ref_bin/render" "$ref_bin/cudaScan" "$ref_bin/judge_scan_reference" "$ref_bin/judge_render_reference" \
      "$dir/ref/.bin/" || fail "copying the reference programs failed"
    local lib
    for lib in "$ref_bin"/libcudart.so*; do
      [ ! -e "$lib" ] || cp -L "$lib" "$dir/ref/.bin/" || fail "copying $lib failed"
    done
    write_ref_scripts
    return
  fi
  src=$(mktemp -d) || fail "no temporary folder"
  temps+=("$src")
  echo "make_handout.sh: building the reference programs for CUDA architectures $archs" >&2
  cp -R "$dir/." "$src/" || fail "copying the handout to build its references failed"
  # Where the suite finds stb by its own folder, the copy does too.
  [ ! -d "$repo/.deps" ] || ln -s "$repo/.deps" "$src/.deps"
  cp "$repo/$REF_SCAN_SLOT" "$src/scan/student/student_scan.cu" || fail "copying $REF_SCAN_SLOT failed"
  cp "$repo/$REF_RENDER_SLOT" "$src/render/student/student_renderer.cu" || fail "copying $REF_RENDER_SLOT failed"
  if ! cmake -S "$src" -B "$src/build" -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CUDA_ARCHITECTURES=$archs" \
    -DBUILD_TESTING=OFF >"$src/build.log" 2>&1 ||
    ! cmake --build "$src/build" --target render cudaScan scan_worker render_worker \
      -j "$(nproc)" >>"$src/build.log" 2>&1; then
    tail -n 20 "$src/build.log" >&2
    fail "building the reference programs failed (log above)"
  fi
  if ! cp "$src/build/bin/render" "$src/build/bin/cudaScan" "$dir/ref/.bin/" ||
    ! cp "$src/build/bin/scan_worker" "$dir/ref/.bin/judge_scan_reference" ||
    ! cp "$src/build/bin/render_worker" "$dir/ref/.bin/judge_render_reference"; then
    fail "copying the reference programs failed"
  fi
  # The CUDA runtime library they link (NVIDIA lets it be redistributed), so
  # they run beside another toolkit version; the driver must still support it.
  cudart=$(ldd "$dir/ref/.bin/render" 2>/dev/null | awk '/libcudart/ { print $3 }')
  [ -z "$cudart" ] || cp -L "$cudart" "$dir/ref/.bin/" || fail "copying $cudart failed"
  write_ref_scripts
}

write_ref_scripts() {
  # The options of the course's render_ref and cudaScan_ref (their --help).
  write_wrapper "$dir/ref/render_ref" render \
    '-r --renderer -s --size -b --bench -c --check -i --interactive -f --file -S --Seed --seed -? --help' \
    '-r --renderer -s --size -b --bench -f --file -S --Seed --seed'
  write_wrapper "$dir/ref/cudaScan_ref" cudaScan \
    '-m --test -i --input -n --arraysize -t --thrust -? --help' '-m --test -i --input -n --arraysize'
}
[ "$refs" = 0 ] || build_refs

if [ -n "$zip_out" ]; then
  stage=$(mktemp -d) || fail "no temporary folder"
  temps+=("$stage")
  bundle=$zip_dir/$(basename -- "$zip_out")
  cp "$script_dir/autograder/setup.sh" "$script_dir/autograder/run_autograder" "$stage/"
  cp -R "$dir" "$stage/handout"
  if ! (cd "$stage" && zip -qr "$bundle" setup.sh run_autograder handout); then
    fail "writing '$zip_out' failed"
  fi
  echo "Autograder bundle: $bundle"
fi
finished=1
echo "Handout: $dir$([ "$refs" = 1 ] && echo " (reference programs in ref/)")"
