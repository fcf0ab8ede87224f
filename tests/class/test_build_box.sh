#!/usr/bin/env bash
# scripts/build_box.sh, as a submission's build would attack it: real
# compiles (g++, and nvcc where installed) of files that name a file of the
# grading machine by an absolute path, by a path relative to the work
# folder, as an .incbin, or /dev/zero; that fill an object file or /tmp;
# that print without end or never end. Each must fail inside its limit, the
# honest compile beside it must build, and nothing outside the work folder
# may change. Skips (77) without bubblewrap or where it cannot make a box.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=tests/grade/testing.sh
source "$repo/tests/grade/testing.sh"
box=$repo/scripts/build_box.sh

command -v bwrap >/dev/null || { echo "SKIPPED: bubblewrap is not installed"; exit 77; }
"$box" --check 2>/dev/null || { echo "SKIPPED: $("$box" --check 2>&1)"; exit 77; }
# The work folder where a class's is (not under /tmp, which the box covers
# anyway): in the folder the test runs in, beside a TA's file; the suite's
# checkout is this one.
tmp=$(mktemp -d "$PWD/build_box_test.XXXXXX") || exit 1
# shellcheck disable=SC2064  # the folder's name now, not at exit
trap "rm -rf '$tmp'" EXIT
suite_file=$repo/judge/reference/course_scan.cu
[ -f "$suite_file" ] || suite_file=$repo/scripts/build_box.sh
mkdir -p "$tmp/work" "$tmp/ta"
echo "a TA's notes" >"$tmp/ta/notes.txt"
chmod -R a+rX "$tmp"
relative=$(realpath --relative-to="$tmp/work" "$suite_file")

# compile NAME SOURCE [BOX_OPTIONS...]: SOURCE written to the work folder as
# NAME and compiled there in the box; STATUS and LOG.
compile() {
  local name=$1 source=$2
  shift 2
  printf '%s\n' "$source" >"$tmp/work/$name"
  local compiler=g++
  [[ $name != *.cu ]] || compiler=nvcc
  "$box" --work "$tmp/work" --time-limit 60 "$@" --log "$tmp/$name.log" -- "$compiler" -c "$name" -o "$name.o"
  STATUS=$?
  LOG=$(cat "$tmp/$name.log")
}

compile honest.cpp 'int honest() { return 1; }'
expect_eq "honest: builds" 0 "$STATUS"
expect_eq "honest: its object is in the work folder" yes "$([ -s "$tmp/work/honest.cpp.o" ] && echo yes || echo no)"

compile absolute.cpp "#include \"$suite_file\""
expect_eq "a suite file by its absolute path: no build" 1 "$STATUS"
expect_match "a suite file by its absolute path: not found" 'No such file or directory' "$LOG"

compile relative.cpp "#include \"$relative\""
expect_eq "a suite file by a path from the work folder: no build" 1 "$STATUS"
expect_match "a suite file by a path from the work folder: not found" 'No such file or directory' "$LOG"

compile has_include.cpp "#if __has_include(\"$suite_file\") || __has_include(\"$relative\")
#error found the suite
#endif
int f() { return 0; }"
expect_eq "__has_include finds no suite file" 0 "$STATUS"

compile incbin.cpp "asm(\".section .rodata\\n.incbin \\\"$tmp/ta/notes.txt\\\"\\n.text\");"
expect_eq "a TA's file as an .incbin: no build" 1 "$STATUS"
expect_match "a TA's file as an .incbin: not found" 'notes.txt' "$LOG"

if [ -r /etc/hostname ]; then
  compile etc.cpp 'asm(".section .rodata\n.incbin \"/etc/hostname\"\n.text");'
  expect_eq "a file of /etc outside the list: no build" 1 "$STATUS"
else
  skip_part "no /etc/hostname to try"
fi

for home in /root /home; do
  [ -d "$home" ] || continue
  "$box" --work "$tmp/work" -- ls "$home" >/dev/null 2>&1
  expect_eq "$home: not in view" 2 "$?"
done

started=$SECONDS
compile zero.cpp '#include "/dev/zero"' --memory 256
expect_eq "#include /dev/zero: no build" 1 "$(( STATUS != 0 && STATUS != 124 ))"
expect_eq "#include /dev/zero: stopped by the memory limit, not the clock" yes "$([ $((SECONDS - started)) -lt 60 ] && echo yes || echo no)"

compile fill.cpp 'asm(".section .data\n.fill 67108864, 1, 7\n.text");' --file-size 16
expect_eq "a 64 MiB .fill past a 16 MiB file limit: no build" 1 "$(( STATUS != 0 ))"
expect_eq "a 64 MiB .fill: no file over the limit left" "" "$(find "$tmp/work" -size +16M)"

"$box" --work "$tmp/work" --tmp-size 8 -- bash -c 'head -c 16777216 /dev/zero >/tmp/big' >/dev/null 2>&1
expect_eq "/tmp past its size: fails" 1 "$(( $? != 0 ))"

"$box" --work "$tmp/work" --output-limit 64 --log "$tmp/flood.log" -- yes 2>/dev/null
expect_eq "printing without end: stopped at the output limit" 125 "$?"
expect_match "printing without end: said so" 'printed more than 64 KiB' "$(tail -n 1 "$tmp/flood.log")"
expect_eq "printing without end: the log kept to its limit" yes "$([ "$(stat -c %s "$tmp/flood.log")" -lt 70000 ] && echo yes || echo no)"

"$box" --work "$tmp/work" --time-limit 1 -- sleep 30
expect_eq "never ending: stopped at the time limit" 124 "$?"

"$box" --work "$tmp/work" -- bash -c 'touch /usr/x || touch /x || touch /etc/x; echo made >made.txt' >/dev/null 2>&1
expect_eq "the work folder: writable" made "$(cat "$tmp/work/made.txt")"
expect_eq "elsewhere: nothing written" "" "$(ls /usr/x /x /etc/x 2>/dev/null)"

OUT=$("$box" --work "$tmp/work" -- cat /proc/net/dev 2>&1)
expect_eq "no network but loopback" "lo" "$(awk -F: 'NR > 2 { gsub(/ /, "", $1); print $1 }' <<<"$OUT" | paste -sd ' ')"

if command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ]; then
  compile honest.cu '__global__ void k(int* p) { *p = 1; }'
  expect_eq "nvcc: an honest kernel builds" 0 "$STATUS"
  compile absolute.cu "#include \"$suite_file\""
  expect_eq "nvcc: a suite file by its absolute path: no build" 1 "$(( STATUS != 0 ))"
else
  skip_part "nvcc is not installed"
fi

OUT=$("$box" --work "$tmp/work" --memory 0 -- true 2>&1)
expect_eq "a bad limit: usage error" 2 "$?"
expect_match "a bad limit: says which" "^build_box.sh: --memory: '0' is not a positive whole number" "$OUT"
OUT=$("$box" -- true 2>&1)
expect_eq "no work folder: usage error" 2 "$?"

# The box's PATH keeps the caller's order: a stand-in cmake first on PATH
# runs, not an install's (as a pip environment's bin folder holding cmake
# and ctest, later on PATH, bound whole).
mkdir -p "$tmp/first" "$tmp/install/bin"
printf '#!/bin/sh\necho first\n' >"$tmp/first/cmake"
printf '#!/bin/sh\necho install\n' >"$tmp/install/bin/cmake"
cp "$tmp/install/bin/cmake" "$tmp/install/bin/ctest"
chmod -R a+rx "$tmp/first" "$tmp/install"
OUT=$(PATH=$tmp/first:$tmp/install/bin:$PATH "$box" --work "$tmp/work" -- cmake 2>&1)
expect_eq "PATH: the caller's first cmake" first "$OUT"
OUT=$(PATH=$tmp/first:$tmp/install/bin:$PATH "$box" --work "$tmp/work" -- ctest 2>&1)
expect_eq "PATH: the install's ctest beside it" install "$OUT"

finish
