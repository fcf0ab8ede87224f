#!/usr/bin/env bash
# scripts/submit.sh inside a handout (scripts/make_handout.sh --no-refs):
# the zip holds exactly the slot files, and writeup.pdf when it is at the
# top; a slot that does not compile, a slot missing or no zip program
# writes no zip and leaves nothing behind; --help and usage errors. The
# build checks build the slot targets for real (they skip without nvcc);
# without zip and unzip the whole test skips.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=tests/grade/testing.sh
source "$repo/tests/grade/testing.sh"

if ! command -v zip >/dev/null || ! command -v unzip >/dev/null; then
  echo "SKIPPED: zip or unzip is not installed (scripts/setup.sh --tests installs them)"
  exit 77
fi
use_temp_folder
handout=$tmp/handout
out=$("$repo/scripts/make_handout.sh" --no-refs "$handout" 2>&1)
expect_eq "make_handout: exit status" 0 "$?"
submit=$handout/scripts/submit.sh
expect_eq "the handout holds scripts/submit.sh" yes "$([ -x "$submit" ] && echo yes || echo no)"
[ -x "$submit" ] || {
  finish
  exit
}
slots=$'render/student/student_renderer.cu\nsaxpy/student/student_saxpy.cu\nscan/student/student_scan.cu'
mkdir -p "$tmp/out" "$tmp/tmpdir"

# exists PATH: yes or no.
exists() { if [ -e "$1" ]; then echo yes; else echo no; fi; }
# listing ZIP: its entries, sorted.
listing() { unzip -Z1 "$1" | sort; }

out=$("$submit" --help 2>&1)
expect_eq "--help: exit status" 0 "$?"
expect_match "--help: the usage line" '^Usage: scripts/submit.sh \[options\]$' "$out"
expect_match "--help: names -o" '^  -o, --output FILE' "$out"

# Usage errors: status 2, one line, no zip.
for args in "--bogus" "-o" "-o $tmp/out/sub.txt" "-o /nonexistent/sub.zip" "--build-dir" "extra"; do
  # shellcheck disable=SC2086  # the words of each case
  out=$("$submit" $args 2>&1)
  expect_eq "'$args': exit status 2" 2 "$?"
  expect_match "'$args': says how to get help" '^submit\.sh: .*\(try --help\)$' "$out"
  expect_eq "'$args': one line" 1 "$(wc -l <<<"$out")"
done
expect_eq "usage errors: no zip" "" "$(ls -A "$tmp/out")"

# No zip program: one line, status 1, nothing built or written.
no_zip=$tmp/no-zip-bin
mkdir -p "$no_zip"
for tool in dirname basename; do ln -s "$(command -v "$tool")" "$no_zip/$tool"; done
out=$(PATH=$no_zip "$BASH" "$submit" -o "$tmp/out/sub.zip" 2>&1)
expect_eq "no zip: exit status" 1 "$?"
expect_match "no zip: says so" '^submit\.sh: needs zip' "$out"
expect_eq "no zip: nothing written" "" "$(ls -A "$tmp/out")"

have_nvcc() { command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ]; }
if ! command -v cmake >/dev/null || ! have_nvcc; then
  skip_part "the builds (cmake or nvcc is not installed)"
  finish
  exit
fi

# Without writeup.pdf: the three slots, and a note saying the write-up is missing.
build=$tmp/build
out=$("$submit" --build-dir "$build" -o "$tmp/out/code.zip" 2>&1)
expect_eq "code only: exit status" 0 "$?"
expect_match "code only: names the zip" "^Submission: $tmp/out/code.zip\$" "$out"
expect_match "code only: the note on the write-up" "^submit\.sh: note: no writeup\.pdf" "$out"
expect_eq "code only: the zip holds exactly the slots" "$slots" "$(listing "$tmp/out/code.zip")"
for slot in $slots; do
  expect_eq "code only: $slot as it is" "$(cat "$handout/$slot")" "$(unzip -p "$tmp/out/code.zip" "$slot")"
done
expect_eq "code only: no temporary folder beside the zip" "code.zip" "$(ls -A "$tmp/out")"

# With writeup.pdf at the top; the default name, at the top of the handout.
printf '%%PDF-1.4 the write-up\n' >"$handout/writeup.pdf"
out=$("$submit" --build-dir "$build" 2>&1)
expect_eq "with the write-up: exit status" 0 "$?"
expect_match "with the write-up: the default zip" "^Submission: $handout/submission.zip\$" "$out"
expect_no_match "with the write-up: no note" "note:" "$out"
expect_eq "with the write-up: the slots and writeup.pdf" "$slots"$'\nwriteup.pdf' \
  "$(listing "$handout/submission.zip")"
expect_eq "with the write-up: writeup.pdf as it is" "$(cat "$handout/writeup.pdf")" \
  "$(unzip -p "$handout/submission.zip" writeup.pdf)"

# A slot that does not compile, in a temporary build (the handout has no
# build/): status 1, the compiler's lines, no zip, no temporary folder.
cp "$handout/render/student/student_renderer.cu" "$tmp/renderer.cu"
echo 'this line is not C++;' >>"$handout/render/student/student_renderer.cu"
out=$(TMPDIR=$tmp/tmpdir "$submit" -o "$tmp/out/broken.zip" 2>&1)
expect_eq "a slot that does not compile: exit status" 1 "$?"
expect_match "a slot that does not compile: says so" "^submit\.sh: your files do not build" "$out"
expect_match "a slot that does not compile: the compiler's line" "student_renderer\.cu.*error" "$out"
expect_eq "a slot that does not compile: no zip" no "$(exists "$tmp/out/broken.zip")"
expect_eq "a slot that does not compile: nothing beside it" "code.zip" "$(ls -A "$tmp/out")"
expect_eq "a slot that does not compile: no temporary build left" "" "$(ls -A "$tmp/tmpdir")"
# Over an existing zip: the old one stays as it was.
cp "$tmp/out/code.zip" "$tmp/code-before.zip"
"$submit" --build-dir "$build" -o "$tmp/out/code.zip" >/dev/null 2>&1
expect_eq "a slot that does not compile: exit status in the existing build" 1 "$?"
expect_eq "a slot that does not compile: the old zip is untouched" yes \
  "$(cmp -s "$tmp/out/code.zip" "$tmp/code-before.zip" && echo yes || echo no)"
cp "$tmp/renderer.cu" "$handout/render/student/student_renderer.cu"

# A slot missing: status 1, names it, no zip.
mv "$handout/scan/student/student_scan.cu" "$tmp/scan.cu"
out=$("$submit" --build-dir "$build" -o "$tmp/out/missing.zip" 2>&1)
expect_eq "a slot missing: exit status" 1 "$?"
expect_match "a slot missing: names it" "^submit\.sh: scan/student/student_scan\.cu is missing" "$out"
expect_eq "a slot missing: no zip" no "$(exists "$tmp/out/missing.zip")"
mv "$tmp/scan.cu" "$handout/scan/student/student_scan.cu"

finish
