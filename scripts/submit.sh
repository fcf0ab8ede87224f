#!/usr/bin/env bash
# Packs what you hand in into one zip: the three files you write
# (saxpy/student/student_saxpy.cu, scan/student/student_scan.cu,
# render/student/student_renderer.cu) and, when it is at the top of the
# handout, your write-up, writeup.pdf. Nothing else goes in. It first builds
# the targets that hold those files and writes no zip when they do not build.
#
# Usage: scripts/submit.sh [options]
#   -o, --output FILE     the zip to write (default: submission.zip at the
#                         top of the handout); a file there is replaced
#   --build-dir DIR       build in DIR (configured with the default preset
#                         first when it is not configured); default: build/
#                         when it is configured, else a temporary folder,
#                         removed afterwards
#   -h, --help            this text
# Exit status: 0 written, 1 not written (a file missing, the build failing,
# no zip or cmake), 2 usage, 130 or 143 when stopped by SIGINT or SIGTERM.
# A run that does not finish leaves no zip and no temporary folder.
set -uo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$script_dir/.." && pwd)

# The files a student writes, and the targets that compile them (the saxpy
# slot is part of the saxpy library).
SLOT_FILES=(saxpy/student/student_saxpy.cu scan/student/student_scan.cu render/student/student_renderer.cu)
SLOT_TARGETS=(saxpy scan_student render_student)
WRITEUP=writeup.pdf

usage_error() {
  echo "submit.sh: $1 (try --help)" >&2
  exit 2
}
fail() {
  echo "submit.sh: $1" >&2
  exit 1
}

temps=() # this run's temporary folders, removed however it ends
# shellcheck disable=SC2317  # run by the traps below
remove_temps() {
  [ ${#temps[@]} -eq 0 ] || rm -rf -- "${temps[@]}"
}
# shellcheck disable=SC2317  # run by the traps below
on_signal() {
  trap '' INT TERM
  echo "submit.sh: stopped by SIG$1: no zip written" >&2
  exit "$2"
}
trap remove_temps EXIT
trap 'on_signal INT 130' INT
trap 'on_signal TERM 143' TERM

output=$root/submission.zip
build_dir=""
while [ $# -gt 0 ]; do
  if [[ $1 == --*=* ]]; then set -- "${1%%=*}" "${1#*=}" "${@:2}"; fi
  case "$1" in
    -o | --output)
      if [ $# -lt 2 ] || [ -z "$2" ]; then usage_error "$1 needs a file name"; fi
      output=$2
      shift
      ;;
    --build-dir)
      if [ $# -lt 2 ] || [ -z "$2" ]; then usage_error "--build-dir needs a folder"; fi
      build_dir=$2
      shift
      ;;
    -h | --help)
      awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
      exit 0
      ;;
    *) usage_error "unknown argument '$1'" ;;
  esac
  shift
done

[[ $output == *.zip ]] || usage_error "-o: '$output' does not end in .zip"
[ ! -d "$output" ] || usage_error "-o: '$output' is a folder"
output_dir=$(cd "$(dirname -- "$output")" 2>/dev/null && pwd) ||
  usage_error "-o: no folder '$(dirname -- "$output")'"
output=$output_dir/$(basename -- "$output")
if [ -n "$build_dir" ] && [ -e "$build_dir" ] && [ ! -d "$build_dir" ]; then
  usage_error "--build-dir: '$build_dir' is not a folder"
fi

command -v zip >/dev/null || fail "needs zip to write the submission (scripts/setup.sh --tests installs it)"
command -v cmake >/dev/null || fail "needs cmake to check that your files build"
for file in "${SLOT_FILES[@]}"; do
  [ -f "$root/$file" ] || fail "$file is missing: it is one of the files you hand in"
done

# A temporary folder beside the zip, so that the zip is moved into place
# whole (never half written), and its build log.
stage=$(mktemp -d "$output_dir/.submit.XXXXXX") || fail "cannot write in '$output_dir'"
temps+=("$stage")
log=$stage/build.log

# The build: the given folder, build/ when configured, else a temporary one.
if [ -n "$build_dir" ]; then
  { mkdir -p -- "$build_dir" && build_dir=$(cd -- "$build_dir" && pwd); } || fail "cannot use '$build_dir' to build in"
elif [ -f "$root/build/CMakeCache.txt" ]; then
  build_dir=$root/build
else
  build_dir=$(mktemp -d) || fail "no temporary folder to build in"
  temps+=("$build_dir")
fi
echo "submit.sh: building your files (${SLOT_TARGETS[*]}) in $build_dir" >&2
if [ ! -f "$build_dir/CMakeCache.txt" ]; then
  if ! (cd "$root" && cmake --preset default -B "$build_dir" -DBUILD_TESTING=OFF) >"$log" 2>&1; then
    tail -n 30 "$log" >&2
    fail "configuring the build failed (the lines above): no zip written"
  fi
fi
if ! cmake --build "$build_dir" --target "${SLOT_TARGETS[@]}" >>"$log" 2>&1; then
  # The compiler's lines, without the build tool's progress lines.
  grep -v '^\[[0-9]*/[0-9]*\] ' "$log" | tail -n 30 >&2
  fail "your files do not build (the compiler's lines above): no zip written"
fi

files=("${SLOT_FILES[@]}")
if [ -f "$root/$WRITEUP" ]; then
  files+=("$WRITEUP")
else
  echo "submit.sh: note: no $WRITEUP at the top of the handout ($root), so the zip holds" \
    "your code only; put your write-up there as $WRITEUP and run submit.sh again" >&2
fi
# -D: no folder entries, -X: no extra file attributes: the zip lists the files alone.
if ! (cd "$root" && zip -q -D -X "$stage/submission.zip" "${files[@]}") >>"$log" 2>&1; then
  tail -n 5 "$log" >&2
  fail "writing the zip failed"
fi
mv -f -- "$stage/submission.zip" "$output" || fail "cannot write '$output'"
echo "Submission: $output"
printf '  %s\n' "${files[@]}"
