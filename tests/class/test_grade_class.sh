#!/usr/bin/env bash
# scripts/class/grade_class.sh on stand-ins: a handout whose scripts/grade.sh and
# cmake are stand-ins (the grade reads the submitted slot files to decide
# its rows), and a class of submissions: honest folders and zips, one that
# does not build, one that hangs, refused ones (a file twice, a symbolic
# link), an empty one and a name that is no student id. Checks the
# gradebook, the students' folders, the summary, that a re-run grades only
# what changed, and the GPU each submission saw. Needs unzip and zip;
# skips (77) without.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=tests/grade/testing.sh
source "$repo/tests/grade/testing.sh"

# shellcheck source=tests/class/class_standins.sh
source "$here/class_standins.sh"
class_test_start

# run_class NAME [OPTIONS]: grade_class.sh on the class; OUT, ERR, STATUS.
run_class() {
  local name=$1
  shift
  OUT=$("$repo/scripts/class/grade_class.sh" --handout "$handout" --out "$tmp/out" --gpus 0,1 --timeout 30 --grade-timeout 3 "$@" "$subs" 2>"$tmp/$name.err")
  STATUS=$?
  ERR=$(cat "$tmp/$name.err")
}

# book ID: the student's gradebook row.
book() { grep "^$1," "$tmp/out/gradebook.csv"; }

: >"$GRADE_CALLS"
run_class first
expect_eq "first: exit status (some not graded)" 1 "$STATUS"
expect_eq "gradebook: header" "student_id,scan,find_repeats,render,total,max_total,status,gpu" "$(head -n 1 "$tmp/out/gradebook.csv")"
expect_eq "alice: scores from a nested folder" "alice,5,2.5,60,67.5,82,graded,\"none\"" "$(book alice)"
expect_eq "bob: from a zip" "bob,0,0,72,72,82,graded,\"none\"" "$(book bob)"
expect_match "carol: does not build" '^carol,0,0,0,0,82,build failed,' "$(book carol)"
expect_match "carol: the compiler's line" "error: expected a ';'" "$(cat "$tmp/out/students/carol/status.tsv")"
expect_match "dave: two files of one name, refused" '^dave,0,0,0,0,82,refused,' "$(book dave)"
expect_match "dave: said why" '2 files named student_scan.cu' "$(cat "$tmp/out/students/dave/status.tsv")"
expect_match "eve: a symbolic link, refused" '^eve,0,0,0,0,82,refused,' "$(book eve)"
expect_eq "frank: nothing handed in, graded as handed out" "frank,0,0,0,0,82,graded,\"none\"" "$(book frank)"
expect_match "gina: hangs, stopped at the limit" '^gina,0,0,0,0,82,not graded,' "$(book gina)"
expect_match "gina: said why" 'ran past 3 s' "$(cat "$tmp/out/students/gina/status.tsv")"
expect_eq "hugo: slow, graded on what it finished" "hugo,4,0,0,4,82,graded,\"none\"" "$(book hugo)"
expect_match "hugo: the rest rejected, time limit" $'^find_repeats\tall\t.*\trejected\t0\t5\t.*\ttime limit' \
  "$(cat "$tmp/out/students/hugo/scores.tsv")"
expect_eq "nina: a part nobody could grade is no zero: not graded" "nina,5,0,0,5,82,not graded,\"none\"" "$(book nina)"
expect_match "nina: said why" 'render: the judge needs a GPU' "$(cat "$tmp/out/students/nina/status.tsv")"
expect_eq "mallory: nothing of the references or of alice reaches her build" "mallory,0,0,0,0,82,graded,\"none\"" "$(book mallory)"
expect_eq "mallory: her build could read none of them" 6 "$(grep -c '^cannot read ' "$tmp/out/students/mallory/logs/build.log")"
expect_match "mallory: the staff's build log names the work folder" "written to: $tmp/out/\\.work-mallory\\.[^/]*/handout/build\$" \
  "$(cat "$tmp/out/students/mallory/logs/build.log")"
expect_eq "mallory: the student's names it as the handout's" "-- Build files have been written to: build" \
  "$(grep 'written to' "$tmp/out/students/mallory/build.log")"
expect_eq "a name that is no student id: left out" "" "$(grep '^bad' "$tmp/out/gradebook.csv")"
expect_match "a name that is no student id: said" "'bad name' is not a student id" "$ERR"
expect_eq "alice's grade.out: names her folder as it is" "Results: $tmp/out/students/alice/logs/grade/results.md" "$(cat "$tmp/out/students/alice/grade.out")"
expect_eq "feedback: alice's bundle, her folder without its hash" \
  "alice/build.log alice/grade.out alice/results.json alice/results.md" \
  "$(unzip -Z1 "$tmp/out/feedback/alice.zip" | grep -E '^alice/(grade.out|build.log|logs/build.log|results.json|results.md|hash)$' | sort | paste -sd ' ')"
expect_eq "feedback: a refused submission's too, with why" yes \
  "$(unzip -p "$tmp/out/feedback/eve.zip" eve/status.tsv | grep -q 'not a regular file' && echo yes || echo no)"
expect_eq "feedback: nothing half written" "" "$(find "$tmp/out/feedback" -name '.*.new')"
expect_eq "alice's folder: her results" yes "$([ -f "$tmp/out/students/alice/results.md" ] && [ -f "$tmp/out/students/alice/results.json" ] && [ -f "$tmp/out/students/alice/logs/build.log" ] && echo yes || echo no)"
expect_eq "every grade saw one GPU of the list" "" "$(awk '$2 != 0 && $2 != 1' "$GRADE_CALLS")"
# Graded at once, the two GPUs' submissions build and time on CPUs of
# their own: each GPU's grades one CPU set, the two apart.
if [ "$(nproc)" -ge 2 ]; then
  expect_eq "each GPU's grades on CPUs of their own" "yes" "$(awk '
    { cpus[$2] = cpus[$2] == "" || cpus[$2] == $4 ? $4 : "mixed" }
    END { print (cpus[0] != "" && cpus[1] != "" && cpus[0] != "mixed" && cpus[1] != "mixed" && cpus[0] != cpus[1]) ? "yes" : "no: " cpus[0] " / " cpus[1] }' "$GRADE_CALLS")"
else
  skip_part "CPU shares (one CPU here)"
fi
expect_match "summary: the statuses" '^\| build failed \| 1 \|$' "$(cat "$tmp/out/summary.md")"
expect_match "summary: who failed and why" "^- carol: build failed \\(.*error: expected" "$(cat "$tmp/out/summary.md")"
expect_match "summary: the totals' range" '^\| total \| [0-9.]+ \| 0 \| 72 \|$' "$(cat "$tmp/out/summary.md")"
expect_eq "no working copies left" "" "$(find "$tmp/out" -maxdepth 1 -name '.work-*')"
if command -v gnuplot >/dev/null; then
  expect_eq "summary: the chart, a PNG" $'\x89PNG' "$(head -c 4 "$tmp/out/summary.png")"
  expect_match "summary: names the chart" '^!\[each part and the totals\]\(summary.png\)$' "$(cat "$tmp/out/summary.md")"
else
  skip_part "the summary's chart (gnuplot is not installed)"
fi
calls=$(wc -l <"$GRADE_CALLS")
expect_eq "the class's secret: kept with the class, the grader's alone" "600 32" "$(stat -c '%a %s' "$tmp/out/judge-secret")"
# The gradebook's maximum is the assignment's for every row: a build
# failure, a refusal and a hang count out of the same points.
expect_eq "every row out of the assignment's maximum" "82" "$(awk -F, 'NR > 1 { print $(NF - 2) }' "$tmp/out/gradebook.csv" | sort -u)"

# The slot files for a plagiarism checker: each student's as grading takes
# them, the handout's as base code, CUDA launches made comments.
printf 'kernel<<<blocks, 256>>>(image);\n' >>"$subs/alice/student_renderer.cu"
OUT=$("$repo/scripts/class/grade_class.sh" --handout "$handout" --export-slots "$tmp/export" "$subs" 2>"$tmp/export.err")
expect_eq "export: exit status" 0 "$?"
expect_eq "export: alice's files" "student_renderer.cpp student_scan.cpp" "$(find "$tmp/export/students/alice" -type f -printf '%f\n' | sort | paste -sd ' ')"
expect_eq "export: a launch made a comment" "kernel/*<<<blocks, 256>>>*/(image);" "$(tail -n 1 "$tmp/export/students/alice/student_renderer.cpp")"
expect_eq "export: the handout's slots as base code" "student_renderer.cpp student_saxpy.cpp student_scan.cpp" "$(find "$tmp/export/base" -type f -printf '%f\n' | sort | paste -sd ' ')"
expect_match "export: a refused submission said and left out" '^grade_class.sh: eve: refused \(student_scan.cu is not a regular file\)' "$(cat "$tmp/export.err")"
expect_eq "export: eve left out" no "$([ -e "$tmp/export/students/eve" ] && echo yes || echo no)"
expect_match "export: says where" "^Slot files of [0-9]+ students in $tmp/export/students" "$OUT"
sed -i '$d' "$subs/alice/student_renderer.cu"

# A mistake in the grade's options stops the class before anyone is built.
ERR=$("$repo/scripts/class/grade_class.sh" --handout "$handout" --out "$tmp/out" --gpus 0,1 --force "$subs" -- --bogus 2>&1 >/dev/null)
STATUS=$?
expect_eq "bad grade options: exit status" 2 "$STATUS"
expect_match "bad grade options: grade.sh's line" "^grade_class.sh: the options after --: grade.sh: unknown option '--bogus'" "$ERR"
expect_eq "bad grade options: nobody graded" "$calls" "$(wc -l <"$GRADE_CALLS")"

# A re-run grades again only what the grader could not grade: nina's part
# without a GPU, and gina's hang past --grade-timeout (the grade's own
# --time-limit should have ended it: the grader's failure, not hers).
run_class second
expect_eq "re-run: only what the grader could not grade, again" "$((calls + 2))" "$(wc -l <"$GRADE_CALLS")"
expect_eq "re-run: those" "gina nina" "$(tail -n 2 "$GRADE_CALLS" | awk '{ sub(/^\.work-/, "", $3); sub(/\..*$/, "", $3); print $3 }' | sort | paste -sd ' ')"
expect_match "re-run: the hang tried again" '^gina,0,0,0,0,82,not graded,' "$(book gina)"
expect_eq "re-run: the slow one kept" "hugo,4,0,0,4,82,graded,\"none\"" "$(book hugo)"
expect_eq "re-run: the same gradebook row" "alice,5,2.5,60,67.5,82,graded,\"none\"" "$(book alice)"
printf 'POINTS render 72\n' >"$subs/alice/student_renderer.cu"
run_class third
expect_eq "a changed submission: it graded again, with the ungraded ones" "$((calls + 2 + 3))" "$(wc -l <"$GRADE_CALLS")"
expect_eq "a changed submission: its new row" "alice,5,2.5,72,79.5,82,graded,\"none\"" "$(book alice)"
# --only: those students graded again, whatever their state; the others kept.
calls=$(wc -l <"$GRADE_CALLS")
run_class only --only bob,frank
expect_eq "--only: just those two graded" "$((calls + 2))" "$(wc -l <"$GRADE_CALLS")"
expect_eq "--only: which" "bob frank" "$(tail -n 2 "$GRADE_CALLS" | awk '{ sub(/^\.work-/, "", $3); sub(/\..*$/, "", $3); print $3 }' | sort | paste -sd ' ')"
expect_eq "--only: the others kept in the gradebook" "alice,5,2.5,72,79.5,82,graded,\"none\"" "$(book alice)"
run_class only_unknown --only nobody
expect_eq "--only an unknown id: usage error" 2 "$STATUS"
expect_match "--only an unknown id: says so" "^grade_class.sh: --only: .* holds no submission of 'nobody'" "$ERR"
expect_eq "--only an unknown id: nobody graded" "$((calls + 2))" "$(wc -l <"$GRADE_CALLS")"
run_class only_empty --only bob,,frank
expect_eq "--only an empty id: usage error" 2 "$STATUS"
expect_match "--only an empty id: says so" "^grade_class.sh: --only: an empty id in 'bob,,frank'" "$ERR"
run_class only_space --only 'bob, frank'
expect_eq "--only an id with a space: usage error, not bob alone" 2 "$STATUS"
calls=$(wc -l <"$GRADE_CALLS")
run_class forced --force
expect_eq "--force: every submission that builds graded again" "$((calls + 7))" "$(wc -l <"$GRADE_CALLS")"

# Stopped while grading: at once, nothing of the grade in progress left.
need_proc
mkdir -p "$tmp/paused-class/hal"
echo "HANG $pause" >"$tmp/paused-class/hal/student_scan.cu"
for signal in INT:130 TERM:143; do
  stop_while_paused "class stopped by SIG${signal%:*}" "${signal%:*}" "${signal#*:}" \
    "$repo/scripts/class/grade_class.sh" --handout "$handout" --out "$tmp/paused-out" --gpus 0 "$tmp/paused-class"
  expect_match "SIG${signal%:*}: said" "^grade_class.sh: stopped by SIG${signal%:*}: the submissions graded so far are in $tmp/paused-out\$" "$STOP_ERR"
  expect_eq "SIG${signal%:*}: nothing half made" "" "$(find "$tmp/paused-out" -maxdepth 2 \( -name '.work-*' -o -name '*.new' \))"
done

# No GPU here: the class is refused before anyone is built, unless --gpus
# none says to grade anyway; a GPU's name is never nvidia-smi's complaint.
mkdir -p "$tmp/nogpu-bin" "$tmp/one/zed"
printf '#!/bin/sh\necho "No devices were found"\nexit 6\n' >"$tmp/nogpu-bin/nvidia-smi"
chmod +x "$tmp/nogpu-bin/nvidia-smi"
printf 'POINTS scan 5\n' >"$tmp/one/zed/student_scan.cu"
calls=$(wc -l <"$GRADE_CALLS")
OUT=$(PATH=$tmp/nogpu-bin:$PATH "$repo/scripts/class/grade_class.sh" --handout "$handout" --out "$tmp/out-nogpu" "$tmp/one" 2>&1)
expect_eq "no GPU: refused" 1 "$?"
expect_match "no GPU: says so and what to do" '^grade_class.sh: no GPU here \(nvidia-smi lists none\): .*--gpus none' "$OUT"
expect_eq "no GPU: nobody graded" "$calls" "$(wc -l <"$GRADE_CALLS")"
OUT=$(PATH=$tmp/nogpu-bin:$PATH "$repo/scripts/class/grade_class.sh" --handout "$handout" --out "$tmp/out-nogpu" --gpus none "$tmp/one" 2>&1)
expect_eq "--gpus none: graded" 0 "$?"
expect_eq "--gpus none: the row, GPU none" "zed,5,0,0,5,82,graded,\"none\"" "$(grep '^zed,' "$tmp/out-nogpu/gradebook.csv")"
PATH=$tmp/nogpu-bin:$PATH
# shellcheck source=scripts/class/class_lib.sh
expect_eq "a GPU nvidia-smi cannot find is named none" none "$(source "$repo/scripts/class/class_lib.sh" && gpu_name 0)"
PATH=${PATH#"$tmp/nogpu-bin:"}

# A machine (a Slurm node) whose sandbox fails after the class started: its
# submissions are not graded, with the machine and the reason, and tried
# again on the next run. The stand-in bwrap works once (the check at the
# start), then fails as where user namespaces are off. (Where the test
# runs as root, the box's bwrap runs as nobody: its mark lies where nobody
# may write.)
mkdir -p "$tmp/bwrap-bin"
chmod o+x "$tmp"
mkdir -m 1777 "$tmp/bwrap-state"
# shellcheck disable=SC2016  # the stand-in's own $1 and $@
printf '#!/bin/sh
[ "$1" = --help ] && exec %s --help
[ -e "%s" ] && { echo "bwrap: No permissions to create new namespace" >&2; exit 1; }
: >"%s"
exec %s "$@"
' \
  "$(command -v bwrap)" "$tmp/bwrap-state/used" "$tmp/bwrap-state/used" "$(command -v bwrap)" >"$tmp/bwrap-bin/bwrap"
chmod +x "$tmp/bwrap-bin/bwrap"
calls=$(wc -l <"$GRADE_CALLS")
OUT=$(PATH=$tmp/bwrap-bin:$PATH "$repo/scripts/class/grade_class.sh" --handout "$handout" --out "$tmp/out-nons" --gpus none "$tmp/one" 2>&1)
expect_eq "no sandbox on the machine: nobody graded" "$calls" "$(wc -l <"$GRADE_CALLS")"
expect_match "no sandbox on the machine: not graded, with the machine and why" \
  "^zed,0,0,0,0,82,not graded,\"none\"" "$(grep '^zed,' "$tmp/out-nons/gradebook.csv")"
expect_match "no sandbox on the machine: the reason names it" "^not graded	$(uname -n): cannot make the build.s sandbox with bwrap: bwrap: No permissions" \
  "$(sed -n 2p "$tmp/out-nons/students/zed/status.tsv")"
OUT=$("$repo/scripts/class/grade_class.sh" --handout "$handout" --out "$tmp/out-nons" --gpus none "$tmp/one" 2>&1)
expect_eq "no sandbox on the machine: graded on the next run" "zed,5,0,0,5,82,graded,\"none\"" "$(grep '^zed,' "$tmp/out-nons/gradebook.csv")"

# A handout whose references cannot be timed on these GPUs is refused
# before anyone is built: one missing (--no-refs), or built for another GPU.
calls=$(wc -l <"$GRADE_CALLS")
mv "$handout/ref/.bin/judge_render_reference" "$tmp/kept_reference"
OUT=$("$repo/scripts/class/grade_class.sh" --handout "$handout" --out "$tmp/out-refs" --gpus 0 "$tmp/one" 2>&1)
expect_eq "no reference worker: refused" 1 "$?"
expect_match "no reference worker: says which and what to do" \
  '^grade_class.sh: the handout has no reference worker ref/.bin/judge_render_reference: make it again without --no-refs' "$OUT"
OUT=$("$repo/scripts/class/grade_class.sh" --handout "$handout" --out "$tmp/out-refs" --gpus 0 "$tmp/one" \
  -- --ref-render-worker /bin/true 2>&1)
expect_eq "no reference worker, but the options name one: graded" 0 "$?"
OUT=$("$repo/scripts/class/grade_class.sh" --handout "$handout" --out "$tmp/out-refs" --gpus 0 "$tmp/one" \
  -- --ref-scan /bin/true --ref-renderer cuda 2>&1)
expect_eq "no render reference worker, the options name other parts': refused" 1 "$?"
mv "$tmp/kept_reference" "$handout/ref/.bin/judge_render_reference"
mkdir -p "$tmp/arch-bin"
printf '#!/bin/sh\necho 9.0\n' >"$tmp/arch-bin/nvidia-smi"
# shellcheck disable=SC2016  # expanded by the stand-in
printf '#!/bin/sh\n[ -z "$FAKE_NONE" ] || exit 0\ncase $1 in --list-elf) echo "ELF file 1: x.1.sm_${FAKE_ELF:-80}.cubin" ;; --list-ptx) [ -z "$FAKE_PTX" ] || echo "PTX file 1: x.1.sm_$FAKE_PTX.ptx" ;; esac\n' \
  >"$tmp/arch-bin/cuobjdump"
chmod +x "$tmp/arch-bin/"*
# The stand-in handout's workers are scripts, which cuobjdump cannot read:
# ELF programs in their place, whose device code the stand-in names.
for worker in judge_scan_reference judge_render_reference; do
  mv "$handout/ref/.bin/$worker" "$tmp/kept_$worker" && cp /bin/true "$handout/ref/.bin/$worker"
done
OUT=$(PATH=$tmp/arch-bin:$PATH "$repo/scripts/class/grade_class.sh" --handout "$handout" --out "$tmp/out-refs" --gpus 0 "$tmp/one" 2>&1)
expect_eq "references built for another GPU: refused" 1 "$?"
expect_match "references built for another GPU: says so" \
  '^grade_class.sh: the handout.s ref/.bin/judge_scan_reference has no code for GPU 0 \(sm_90\): .*--cuda-archs' "$OUT"
OUT=$(PATH=$tmp/arch-bin:$PATH FAKE_NONE=1 "$repo/scripts/class/grade_class.sh" --handout "$handout" --out "$tmp/out-refs" --gpus 0 --force "$tmp/one" 2>&1)
expect_eq "references without device code: refused" 1 "$?"
OUT=$(PATH=$tmp/arch-bin:$PATH FAKE_PTX=75 "$repo/scripts/class/grade_class.sh" --handout "$handout" --out "$tmp/out-refs" --gpus 0 --force "$tmp/one" 2>&1)
expect_eq "references with PTX the driver compiles: graded" 0 "$?"
OUT=$(PATH=$tmp/arch-bin:$PATH FAKE_ELF=90 "$repo/scripts/class/grade_class.sh" --handout "$handout" --out "$tmp/out-refs" --gpus 0 --force "$tmp/one" 2>&1)
expect_eq "references built for the GPU: graded" 0 "$?"
for worker in judge_scan_reference judge_render_reference; do
  mv "$tmp/kept_$worker" "$handout/ref/.bin/$worker"
done
OUT=$(PATH=$tmp/arch-bin:$PATH "$repo/scripts/class/grade_class.sh" --handout "$handout" --out "$tmp/out-refs" --gpus 0 --force "$tmp/one" 2>&1)
expect_eq "references that are no ELF programs (the stand-ins' scripts): cannot be told, graded" 0 "$?"
expect_eq "refused classes graded nobody" "$((calls + 4))" "$(wc -l <"$GRADE_CALLS")"

OUT=$("$repo/scripts/class/grade_class.sh" --handout "$tmp" "$subs" 2>&1)
expect_eq "not a handout: usage error" 2 "$?"
expect_match "not a handout: says so" "is not a handout" "$OUT"
OUT=$("$repo/scripts/class/grade_class.sh" --handout "$handout" 2>&1)
expect_eq "no submissions: usage error" 2 "$?"
OUT=$("$repo/scripts/class/grade_class.sh" --handout "$handout" --gpus a,b "$subs" 2>&1)
expect_eq "bad --gpus: usage error" 2 "$?"

# ---------------------------------------------------------------------------
# Hostile submissions (attack2). Checks named "HOLE" fail today.
hostile=$tmp/hostile
mkdir -p "$hostile/honest" "$tmp/zed/src"
printf 'POINTS render 60\n' >"$hostile/honest/student_renderer.cu"

# HOLE: a zip whose slot file is encrypted. unzip -p asks for its password
# on the terminal (/dev/tty) and waits, outside any timeout: a class run
# from a terminal hangs there and grades nobody after. Without a terminal
# the slot is read as empty and the submission "graded", not refused.
printf 'POINTS render 72\n' >"$tmp/zed/src/student_renderer.cu"
(cd "$tmp/zed" && zip -qr -P secret "$hostile/zed.zip" src)
run_hostile() { # NAME: grade_class.sh on $hostile, with no terminal
  "$repo/scripts/class/grade_class.sh" --handout "$handout" --out "$tmp/$1" --gpus 0 --timeout 30 --grade-timeout 10 --quiet \
    "$hostile" >/dev/null 2>"$tmp/$1.err" </dev/null
}
run_hostile hostile_notty
expect_eq "honest beside an encrypted zip: graded" "honest,0,0,60,60,82,graded,\"none\"" "$(grep '^honest,' "$tmp/hostile_notty/gradebook.csv")"
expect_match "HOLE encrypted zip: refused, not graded as an empty slot" '^zed,0,0,0,0,82,refused,' "$(grep '^zed,' "$tmp/hostile_notty/gradebook.csv")"
if command -v script >/dev/null && command -v timeout >/dev/null; then
  # The same run on a terminal (script's pseudo-terminal), as staff run it.
  export repo handout tmp hostile
  # shellcheck disable=SC2016  # expanded by script's shell
  timeout 40 script -qec '"$repo/scripts/class/grade_class.sh" --handout "$handout" --out "$tmp/hostile_tty" --gpus 0 --timeout 30 --grade-timeout 10 --quiet "$hostile"' \
    /dev/null </dev/null >"$tmp/hostile_tty.log" 2>&1
  expect_eq "HOLE encrypted zip on a terminal: the class run ends (no password prompt)" no "$([ "$?" -eq 124 ] && echo hung || echo no)"
  expect_eq "HOLE encrypted zip on a terminal: the gradebook is written" yes "$([ -f "$tmp/hostile_tty/gradebook.csv" ] && echo yes || echo no)"
else
  skip_part "script (util-linux) is not installed: the terminal run of an encrypted zip"
fi
rm -f "$hostile/zed.zip"

# HOLE: a reason the student's run controls (grade.sh's not-graded reason
# or the compiler's error line: their program's or #error's text) goes into
# summary.md as Markdown, raw: HTML, links and emphasis the staff's viewer
# renders (a fake heading or "full marks" line, a tracking image).
mkdir -p "$hostile/mark"
printf 'POINTS render 10\nNOT_GRADED scan <img src=http://evil.example/t.png> [regrade approved: full marks](http://evil.example/) </li></ul><h2>All graded, 82/82</h2>\n' \
  >"$hostile/mark/student_scan.cu"
run_hostile hostile_md
line=$(grep -- '- mark:' "$tmp/hostile_md/summary.md")
expect_match "summary: the student's reason is said" '^- mark: not graded' "$line"
expect_no_match "HOLE summary: no HTML tag from the student" '<[A-Za-z/!]' "$line"
expect_no_match "HOLE summary: no Markdown link from the student" '\]\(' "$line"

# HOLE: a huge file beside the slots (here a sparse 1 TiB one; from an
# export, a zip of zeros) is read whole by submission_hash, before any
# size check and outside every timeout, on every run: the class stops
# there for hours.
mkdir -p "$hostile/huge"
printf 'POINTS render 5\n' >"$hostile/huge/student_renderer.cu"
if truncate -s 1T "$hostile/huge/notes.bin" 2>/dev/null; then
  SECONDS=0
  timeout 60 "$repo/scripts/class/grade_class.sh" --handout "$handout" --out "$tmp/hostile_huge" --gpus 0 --timeout 30 --grade-timeout 10 --quiet \
    "$hostile" >/dev/null 2>"$tmp/hostile_huge.err" </dev/null
  expect_eq "HOLE huge file: the class run ends within a minute" no "$([ "$?" -eq 124 ] && echo hung || echo no)"
  expect_eq "HOLE huge file: the honest student graded" "honest,0,0,60,60,82,graded,\"none\"" "$(grep '^honest,' "$tmp/hostile_huge/gradebook.csv" 2>/dev/null)"
  rm -f "$hostile/huge/notes.bin"
else
  skip_part "this file system has no sparse 1 TiB file"
fi
finish
