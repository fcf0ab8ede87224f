#!/usr/bin/env bash
# scripts/class/import_submissions.sh on exports of the forms Gradescope and
# Canvas document (made here from those forms: no platform's real export
# is recorded), then scripts/class/grade_class.sh on what it imported, with the
# class tests' stand-in handout: the folders, the roster, lateness, a
# group's members, the roster's gradebook and Canvas's import file; and the
# import's refusals, which leave nothing behind. Needs zip and unzip; skips
# (77) without.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=tests/grade/testing.sh
source "$repo/tests/grade/testing.sh"
# shellcheck source=tests/class/class_standins.sh
source "$here/class_standins.sh"
class_test_start
import=$repo/scripts/class/import_submissions.sh

# Gradescope's "Export Submissions": a folder per submission and
# submission_metadata.yml (Ruby symbols as keys; values quoted or not).
gs=$tmp/gs/assignment_7_export
mkdir -p "$gs/submission_11/src" "$gs/submission_12" "$gs/submission_13"
printf 'POINTS scan 5\n' >"$gs/submission_11/src/student_scan.cu"
printf 'POINTS render 60\n' >"$gs/submission_11/student_renderer.cu"
printf 'POINTS render 72\n' >"$gs/submission_12/student_renderer.cu"
ln -s /etc/passwd "$gs/submission_12/student_scan.cu"
echo "// nothing" >"$gs/submission_13/notes.txt"
cat >"$gs/submission_metadata.yml" <<'YML'
submission_11:
  :submitters:
  - :name: Ada O'Neil
    :sid: 's1'
    :email: ada@example.edu
  :created_at: 2026-12-01 23:00:00.000000000 -08:00
  :score: 0.0
submission_12:
  :created_at: 2026-12-02 01:29:30.250000000 -08:00
  :submitters:
  - :name: "Bo \"B\" Li, Jr"
    :sid: 's2'
    :email: bo@example.edu
  - :name: Cy Ng
    :sid: s3
    :email: cy@example.edu
submission_13:
  :submitters:
  - :name: No Sid
    :email: nosid@example.edu
  :created_at: 2026-11-30 10:00:00.000000000 -08:00
YML
(cd "$tmp/gs" && zip -qry "$tmp/gs.zip" assignment_7_export)

out=$("$import" --from gradescope --due "2026-12-01 23:59:00 -0800" "$tmp/gs.zip" "$tmp/gs_subs" 2>"$tmp/err")
expect_eq "gradescope: exit status" 0 "$?"
expect_eq "gradescope: said" "Imported 4 students from the gradescope export into $tmp/gs_subs (roster: $tmp/gs_subs/roster.tsv)" "$out"
expect_eq "gradescope: a folder per submission, by SID, else the folder's name" \
  "roster.tsv s1 s1/src s1/src/student_scan.cu s1/student_renderer.cu s2 s2/student_renderer.cu submission_13 submission_13/notes.txt" \
  "$(cd "$tmp/gs_subs" && find . -mindepth 1 | sed 's|^\./||' | LC_ALL=C sort | paste -sd ' ')"
expect_match "gradescope: a link left out, said" "submission_12/student_scan.cu is not a regular file: left out" "$(cat "$tmp/err")"
roster_row() { awk -F '\t' -v id="$2" '$1 == id' "$1/roster.tsv"; }
expect_eq "roster: the header" "$(printf 'id\tsubmission\tname\temail\tsubmitted_at\tlate\tlate_by_s\tplatform')" "$(head -n 1 "$tmp/gs_subs/roster.tsv")"
expect_eq "roster: on time" "$(printf "s1\ts1\tAda O'Neil\tada@example.edu\t2026-12-01 23:00:00.000000000 -08:00\tno\t0\tgradescope")" "$(roster_row "$tmp/gs_subs" s1)"
expect_eq "roster: late by 1h30m30s, a group's first member" "$(printf 's2\ts2\tBo "B" Li, Jr\tbo@example.edu\t2026-12-02 01:29:30.250000000 -08:00\tyes\t5430\tgradescope')" "$(roster_row "$tmp/gs_subs" s2)"
expect_eq "roster: its second member, graded as the first" "$(printf 's3\ts2\tCy Ng\tcy@example.edu\t2026-12-02 01:29:30.250000000 -08:00\tyes\t5430\tgradescope')" "$(roster_row "$tmp/gs_subs" s3)"
expect_eq "roster: no SID, its email still its own" "$(printf 'submission_13\tsubmission_13\tNo Sid\tnosid@example.edu\t2026-11-30 10:00:00.000000000 -08:00\tno\t0\tgradescope')" "$(roster_row "$tmp/gs_subs" submission_13)"
out=$("$import" --from gradescope "$tmp/gs/assignment_7_export" "$tmp/gs_nodue" 2>/dev/null)
expect_eq "gradescope: the unpacked folder too; without --due, lateness unknown" "unknown::gradescope" \
  "$(roster_row "$tmp/gs_nodue" s1 | awk -F '\t' '{ print $6 ":" $7 ":" $8 }')"

# The class graded from the import: a row per submission in the
# gradebook, a row per student in the roster's.
run_class() {
  OUT=$("$repo/scripts/class/grade_class.sh" --handout "$handout" --out "$tmp/$1" --gpus 0 --timeout 30 --grade-timeout 30 --quiet "${@:3}" "$2" 2>"$tmp/$1.err")
  STATUS=$?
}
run_class gs_out "$tmp/gs_subs"
expect_eq "class from gradescope: exit status" 0 "$STATUS"
expect_eq "class: the roster is no submission" "" "$(grep -i roster "$tmp/gs_out.err")"
expect_eq "class: the gradebook's ids" "s1 s2 submission_13" "$(awk -F, 'NR > 1 { print $1 }' "$tmp/gs_out/gradebook.csv" | paste -sd ' ')"
book=$tmp/gs_out/gradebook_roster.csv
expect_eq "roster book: the header" \
  "student_id,name,email,graded_as,submitted_at,late,late_by_s,scan,find_repeats,render,total,max_total,saxpy_writeup,writeup,status" "$(head -n 1 "$book")"
expect_eq "roster book: s1" '"s1","Ada O'\''Neil","ada@example.edu","s1","2026-12-01 23:00:00.000000000 -08:00",no,0,5,0,60,65,82,,,graded' "$(grep '^"s1"' "$book")"
expect_eq "roster book: s2, quotes and a comma in the name" '"s2","Bo ""B"" Li, Jr","bo@example.edu","s2","2026-12-02 01:29:30.250000000 -08:00",yes,5430,0,0,72,72,82,,,graded' "$(grep '^"s2"' "$book")"
expect_eq "roster book: s3 has s2's grades" '"s3","Cy Ng","cy@example.edu","s2","2026-12-02 01:29:30.250000000 -08:00",yes,5430,0,0,72,72,82,,,graded' "$(grep '^"s3"' "$book")"
expect_eq "roster book: a row per student" 4 "$(($(wc -l <"$book") - 1))"
expect_eq "gradescope: no canvas.csv" no "$([ -e "$tmp/gs_out/canvas.csv" ] && echo yes || echo no)"
# A student whose folder is gone from SUBMISSIONS: no submission.
rm -r "$tmp/gs_subs/submission_13"
run_class gs_out "$tmp/gs_subs"
expect_match "roster book: a student with no folder: no submission, the maximum kept" '^"submission_13",.*,0,0,0,0,82,,,no submission$' "$(grep '^"submission_13"' "$book")"

# Canvas's "Download Submissions": LOGIN_[LATE_]USERID_SUBMISSIONID_NAME,
# a resubmitted NAME numbered, a zip handed in whole.
cv=$tmp/cv/submissions
mkdir -p "$cv" "$tmp/kay/src"
printf 'POINTS scan 5\n' >"$cv/doejane_1001_5001_student_scan.cu"
printf 'POINTS render 72\n' >"$cv/roesmith_LATE_1002_5002_student_renderer-2.cu"
printf 'POINTS render 10\n' >"$tmp/kay/src/student_renderer.cu"
(cd "$tmp/kay" && zip -qr "$cv/kaykim_1003_5003_handin.zip" src)
echo "a stray file" >"$cv/README"
# A student's own names that meet once Canvas's numbers are off.
printf 'POINTS scan 1\n' >"$cv/lopezana_1004_5004_student_scan.cu"
printf 'POINTS scan 2\n' >"$cv/lopezana_1004_5004_student_scan-1.cu"
(cd "$tmp/cv" && zip -qr "$tmp/cv.zip" submissions)
out=$("$import" --from canvas "$tmp/cv.zip" "$tmp/cv_subs" 2>"$tmp/err")
expect_eq "canvas: exit status" 0 "$?"
expect_eq "canvas: a folder per user id, the number taken off, a lone zip as the student's zip" \
  "1001 1001/student_scan.cu 1002 1002/student_renderer.cu 1003.zip 1004 1004/student_scan-1.cu 1004/student_scan.cu roster.tsv" \
  "$(cd "$tmp/cv_subs" && find . -mindepth 1 | sed 's|^\./||' | LC_ALL=C sort | paste -sd ' ')"
expect_match "canvas: a stray file left out, said" "README is not named as Canvas names a submission's file: left out" "$(cat "$tmp/err")"
expect_match "canvas: two names that meet: Canvas's kept, said" "student 1004 has student_scan.cu twice once numbers are off: both kept as Canvas named them" "$(cat "$tmp/err")"
expect_eq "canvas: Canvas's LATE mark" "$(printf '1002\t1002\troesmith\t\t\tyes\t\tcanvas')" "$(roster_row "$tmp/cv_subs" 1002)"
expect_eq "canvas: on time" "$(printf '1001\t1001\tdoejane\t\t\tno\t\tcanvas')" "$(roster_row "$tmp/cv_subs" 1001)"
run_class cv_out "$tmp/cv_subs" --lms-column "Assignment 3 (4242)"
expect_eq "class from canvas: exit status" 0 "$STATUS"
expect_eq "canvas.csv: Canvas's columns and the assignment's, the total in it" \
  'Student,ID,SIS User ID,SIS Login ID,Section,"Assignment 3 (4242)"|"doejane",1001,,,,5|"kaykim",1003,,,,10|"lopezana",1004,,,,1|"roesmith",1002,,,,72' \
  "$({ head -n 1 "$tmp/cv_out/canvas.csv"; tail -n +2 "$tmp/cv_out/canvas.csv" | sort; } | paste -sd '|')"

# Refusals: a usage error (2) or an export not of the form (1), and
# nothing left behind either way.
refused() {
  local what=$1 want=$2
  shift 2
  OUT=$("$import" "$@" "$tmp/refused" 2>&1)
  expect_eq "$what: exit status" "$want" "$?"
  expect_eq "$what: nothing left" "" "$(find "$tmp" -maxdepth 1 \( -name refused -o -name '.import*' \))"
}
refused "no --from" 2 "$tmp/gs.zip"
refused "--from another platform" 2 --from moodle "$tmp/gs.zip"
refused "--due with canvas" 2 --from canvas --due "2026-12-01" "$tmp/cv.zip"
refused "a --due date cannot read" 2 --from gradescope --due "the day after" "$tmp/gs.zip"
refused "no such export" 2 --from gradescope "$tmp/missing.zip"
refused "a canvas export as gradescope's" 1 --from gradescope "$tmp/cv.zip"
expect_match "a canvas export as gradescope's: said" "no submission_metadata.yml" "$OUT"
refused "a gradescope export as canvas's" 1 --from canvas "$tmp/gs/assignment_7_export"
echo "not a zip" >"$tmp/bad.zip"
refused "a file that is no zip" 1 --from canvas "$tmp/bad.zip"
cp -r "$tmp/gs/assignment_7_export" "$tmp/gs_twice"
sed -i 's/:sid: s3/:sid: s1/' "$tmp/gs_twice/submission_metadata.yml"
# One SID in two submissions (submission_12's second member typed s1,
# submission_11's): those two are left out, said, the rest imported.
OUT=$("$import" --from gradescope "$tmp/gs_twice" "$tmp/twice_subs" 2>&1)
expect_eq "one SID in two submissions: imported (exit 0)" 0 "$?"
expect_match "one SID in two submissions: said" "submissions submission_11 and submission_12 all claim the id 's1': left out" "$OUT"
expect_match "one SID in two submissions: the summary counts them" "Imported 4 students .*; 3 of them left out, with no submission" "$OUT"
expect_eq "one SID in two submissions: only the other submission's folder" "roster.tsv submission_13" \
  "$(find "$tmp/twice_subs" -mindepth 1 -maxdepth 1 -printf '%f\n' | LC_ALL=C sort | paste -sd ' ')"
expect_eq "one SID in two submissions: every submitter in the roster, the two without a submission" "s1: s2: s1: submission_13:submission_13" \
  "$(awk -F '\t' 'NR > 1 { print $1 ":" $2 }' "$tmp/twice_subs/roster.tsv" | paste -sd ' ')"
run_class twice_out "$tmp/twice_subs"
expect_eq "one SID in two submissions: the class graded" 0 "$STATUS"
expect_eq "one SID in two submissions: the roster book says so, no total, the maximum kept" \
  "s1::82:left out at import: its id claimed by two submissions s2::82:left out at import: its id claimed by two submissions s1::82:left out at import: its id claimed by two submissions submission_13:0:82:graded" \
  "$(awk -F, 'NR > 1 { gsub(/"/, ""); print $1 ":" $(NF - 4) ":" $(NF - 3) ":" $NF }' "$tmp/twice_out/gradebook_roster.csv" | paste -sd ' ')"
# (The header's parts, counted from the end: a name may hold a comma.)
expect_eq "one SID in two submissions: the left out's parts empty too" "0 full of 4" \
  "$(awk -F, 'NR == 1 { parts = NF - 12 } NR == 2 { full = 0; for (i = NF - 4 - parts; i <= NF - 4; i++) full += ($i != "")
    print full " full of " parts + 1 }' "$tmp/twice_out/gradebook_roster.csv")"
# Alike but for letter case is one id (an upload takes it so).
cp -r "$tmp/gs/assignment_7_export" "$tmp/gs_case"
sed -i 's/:sid: s3/:sid: S1/' "$tmp/gs_case/submission_metadata.yml"
OUT=$("$import" --from gradescope "$tmp/gs_case" "$tmp/case_subs" 2>&1)
expect_eq "one SID in two cases: imported (exit 0)" 0 "$?"
expect_match "one SID in two cases: said, each spelling" \
  "submissions submission_11 and submission_12 all claim the id 's1' or 'S1': left out" "$OUT"
expect_eq "one SID in two cases: only the other submission's folder" "roster.tsv submission_13" \
  "$(find "$tmp/case_subs" -mindepth 1 -maxdepth 1 -printf '%f\n' | LC_ALL=C sort | paste -sd ' ')"
# A SID that is the roster's own name is no id: the folder's name instead.
cp -r "$tmp/gs/assignment_7_export" "$tmp/gs_roster"
sed -i "s/:sid: 's2'/:sid: 'Roster.tsv'/" "$tmp/gs_roster/submission_metadata.yml"
OUT=$("$import" --from gradescope "$tmp/gs_roster" "$tmp/roster_subs" 2>&1)
expect_eq "SID roster.tsv: imported (exit 0)" 0 "$?"
expect_match "SID roster.tsv: said" "submission_12's submitter 1 has SID 'Roster.tsv', not an id: imported as submission_12" "$OUT"
expect_eq "SID roster.tsv: the roster kept, the submission under its folder's name" \
  "roster.tsv s1 submission_12 submission_13" \
  "$(find "$tmp/roster_subs" -mindepth 1 -maxdepth 1 -printf '%f\n' | LC_ALL=C sort | paste -sd ' ')"
expect_eq "SID roster.tsv: the roster is the import's" "id" "$(head -c 2 "$tmp/roster_subs/roster.tsv")"
cp -r "$tmp/gs/assignment_7_export" "$tmp/gs_missing"
rm -r "$tmp/gs_missing/submission_13"
refused "a submission the export lacks" 1 --from gradescope "$tmp/gs_missing"
mkdir "$tmp/refused"
OUT=$("$import" --from canvas "$tmp/cv.zip" "$tmp/refused" 2>&1)
expect_eq "OUT exists: usage error" 2 "$?"
rmdir "$tmp/refused"
expect_match "--help: the usage" "Usage: scripts/class/import_submissions.sh --from gradescope\|canvas" "$("$import" --help)"

# grade_class.sh refuses a roster of another form before grading anyone.
printf 'name\tscore\n' >"$tmp/cv_subs/roster.tsv"
: >"$GRADE_CALLS"
run_class cv_bad "$tmp/cv_subs"
expect_eq "a roster of another form: refused" 1 "$STATUS"
expect_match "a roster of another form: said" "roster.tsv is not a roster of import_submissions.sh" "$(cat "$tmp/cv_bad.err")"
expect_eq "a roster of another form: nobody graded" 0 "$(wc -l <"$GRADE_CALLS")"

# ---------------------------------------------------------------------------
# Hostile submissions (attack2): what a student controls in an export (the
# files they hand in, their names, the name on their account) must not
# reach other students' rows, the staff's spreadsheet or terminal, or
# outside their own folder. Checks named "HOLE" fail today.

# HOLE: a submission_metadata.yml a student hands in, at depth 2 of the
# unpacked export, is taken for the export's own when find meets it first
# (readdir order): the class becomes what that student wrote. The fixture
# picks a folder name that find visits before the real metadata.
hs=$tmp/hostile_gs
mkdir -p "$hs"
printf 'POINTS render 10\n' >"$tmp/honest.cu"
planted=""
for n in $(seq 20 60); do
  mkdir -p "$hs/submission_$n"
  cp "$tmp/honest.cu" "$hs/submission_$n/student_renderer.cu"
done
for n in $(seq 20 60); do
  printf 'submission_%s:\n  :submitters:\n  - :name: Student %s\n    :sid: s%s\n    :email: s%s@example.edu\n  :created_at: 2026-12-01 23:00:00.000000000 -08:00\n' "$n" "$n" "$n" "$n"
done >"$hs/submission_metadata.yml"
for n in $(seq 20 60); do
  printf 'submission_%s:\n  :submitters:\n  - :name: Mal\n    :sid: s20\n    :email: mal@example.edu\n  :created_at: 2026-11-01 00:00:00.000000000 -08:00\n' "$n" \
    >"$hs/submission_$n/submission_metadata.yml"
  # and the folder it names, inside its own: full marks
  mkdir -p "$hs/submission_$n/submission_$n"
  printf 'POINTS render 72\nPOINTS scan 5\n' >"$hs/submission_$n/submission_$n/student_renderer.cu"
  if [ "$(find "$hs" -maxdepth 2 -name submission_metadata.yml -print -quit)" = "$hs/submission_$n/submission_metadata.yml" ]; then
    planted=$n
    break
  fi
  rm -r "$hs/submission_$n/submission_metadata.yml" "$hs/submission_$n/submission_$n"
done
if [ -z "$planted" ]; then
  skip_part "no folder name that find visits before the export's metadata on this file system"
else
  OUT=$("$import" --from gradescope --due "2026-12-01 23:59:00 -0800" "$hs" "$tmp/hostile_gs_subs" 2>&1)
  expect_eq "HOLE planted metadata: the export's own is read (41 students)" \
    "Imported 41 students from the gradescope export into $tmp/hostile_gs_subs (roster: $tmp/hostile_gs_subs/roster.tsv)" "$OUT"
  expect_eq "HOLE planted metadata: s20 is Student 20, not the planter" "Student 20" \
    "$(awk -F '\t' '$1 == "s20" { print $3 }' "$tmp/hostile_gs_subs/roster.tsv" 2>/dev/null)"
fi

# HOLE: the name on a Gradescope account is the student's to choose; one
# that starts with = + - @ is a formula when the staff open
# gradebook_roster.csv in a spreadsheet (quoting does not stop it).
fx=$tmp/formula_export
mkdir -p "$fx/submission_31" "$fx/submission_32"
printf 'POINTS render 10\n' >"$fx/submission_31/student_renderer.cu"
printf 'POINTS render 20\n' >"$fx/submission_32/student_renderer.cu"
cat >"$fx/submission_metadata.yml" <<'YML'
submission_31:
  :submitters:
  - :name: "=HYPERLINK(\"http://evil.example/\",\"Ada\")"
    :sid: f1
    :email: "+1+cmd|' /C calc'!A0@example.edu"
  :created_at: 2026-12-01 23:00:00.000000000 -08:00
submission_32:
  :submitters:
  - :name: "@SUM(1+1)"
    :sid: f2
    :email: f2@example.edu
  :created_at: 2026-12-01 23:00:00.000000000 -08:00
YML
"$import" --from gradescope "$fx" "$tmp/formula_subs" >/dev/null 2>&1
run_class formula_out "$tmp/formula_subs"
expect_eq "formula names: graded" 0 "$STATUS"
expect_no_match "HOLE formula: no cell of gradebook_roster.csv starts with = + - @" '(^|,)"?[=+@-]' \
  "$(tail -n +2 "$tmp/formula_out/gradebook_roster.csv" 2>/dev/null)"

# HOLE: a file name's escape sequences reach the staff's terminal raw, in
# the import's "left out" lines (a FIFO, or a stray Canvas file).
ex=$tmp/escape_export
mkdir -p "$ex/submission_41"
printf 'POINTS render 10\n' >"$ex/submission_41/student_renderer.cu"
mkfifo "$ex/submission_41/$(printf 'x\033]0;owned\007\033[2J\033[1;1Hgrades ok')"
printf 'submission_41:\n  :submitters:\n  - :name: Esc\n    :sid: e1\n    :email: e1@example.edu\n' >"$ex/submission_metadata.yml"
ERR=$("$import" --from gradescope "$ex" "$tmp/escape_subs" 2>&1 >/dev/null)
expect_match "escape name: left out, said" "is not a regular file: left out" "$ERR"
expect_eq "HOLE escape name: no control byte reaches the terminal" 0 "$(printf '%s' "$ERR" | LC_ALL=C tr -dc '\000-\010\013-\037\177' | wc -c)"
ecv=$tmp/escape_cv
mkdir -p "$ecv"
printf 'POINTS scan 1\n' >"$ecv/doejane_1001_5001_student_scan.cu"
echo x >"$ecv/$(printf 'stray\033[2J\033]0;owned\007')"
ERR=$("$import" --from canvas "$ecv" "$tmp/escape_cv_subs" 2>&1 >/dev/null)
expect_eq "HOLE canvas stray name: no control byte reaches the terminal" 0 "$(printf '%s' "$ERR" | LC_ALL=C tr -dc '\000-\010\013-\037\177' | wc -c)"

# HOLE: a Canvas file whose NAME part is ".." is copied to OUT/ itself (out
# of the student's folder); "." after another of the student's files stops
# the whole import (an unset variable), so nobody is imported.
dd=$tmp/dots_cv
mkdir -p "$dd"
printf 'POINTS scan 5\n' >"$dd/doejane_1001_5001_student_scan.cu"
printf 'POINTS render 72\n' >"$dd/roesmith_1002_5002_.."
"$import" --from canvas "$dd" "$tmp/dots_subs" >/dev/null 2>&1
expect_eq "canvas '..': imported" yes "$([ -f "$tmp/dots_subs/roster.tsv" ] && echo yes || echo no)"
expect_eq "HOLE canvas '..': nothing lands in OUT beside the students' folders" "1001 1002 roster.tsv" \
  "$(cd "$tmp/dots_subs" && find . -mindepth 1 -maxdepth 1 -printf '%f\n' | LC_ALL=C sort | paste -sd ' ')"
dt=$tmp/dot_cv
mkdir -p "$dt"
printf 'POINTS scan 5\n' >"$dt/doejane_1001_5001_student_scan.cu"
printf 'POINTS render 72\n' >"$dt/roesmith_1002_5002_student_renderer.cu"
printf 'x\n' >"$dt/roesmith_1002_5002_+notes.txt"
printf 'x\n' >"$dt/roesmith_1002_5002_."
OUT=$("$import" --from canvas "$dt" "$tmp/dot_subs" 2>&1)
expect_eq "HOLE canvas '.': the others are still imported (exit 0)" 0 "$?"
expect_no_match "HOLE canvas '.': no shell error" "unbound variable" "$OUT"

# CAUGHT: a zip export whose entries climb out (../) or link out: unzip
# drops the climb (the file stays in the submission), the link is left out;
# an absolute path makes unzip warn, and the import is refused whole.
python3 - "$tmp/slip.zip" "$tmp/abs.zip" <<'PY'
import sys, zipfile, stat
for name, extra in ((sys.argv[1], "export/submission_51/../../../../slipped.txt"), (sys.argv[2], "/tmp/absolute_slip_attack2.txt")):
    z = zipfile.ZipFile(name, "w")
    z.writestr("export/submission_metadata.yml", "submission_51:\n  :submitters:\n  - :name: Zed\n    :sid: z1\n")
    z.writestr("export/submission_51/student_renderer.cu", "POINTS render 1\n")
    z.writestr(extra, "out\n")
    link = zipfile.ZipInfo("export/submission_51/student_scan.cu")
    link.external_attr = (stat.S_IFLNK | 0o777) << 16
    z.writestr(link, "/etc/passwd")
    z.close()
PY
mkdir -p "$tmp/slip_dir/in"
"$import" --from gradescope "$tmp/slip.zip" "$tmp/slip_dir/in/subs" >/dev/null 2>&1
expect_eq "zip slip: nothing beside the import" "subs" "$(find "$tmp/slip_dir/in" -mindepth 1 -maxdepth 1 -printf '%f\n' | LC_ALL=C sort | paste -sd ' ')"
expect_eq "zip slip: nothing above it" "in" "$(find "$tmp/slip_dir" -mindepth 1 -maxdepth 1 -printf '%f\n' | LC_ALL=C sort | paste -sd ' ')"
expect_eq "zip slip: the climb kept inside, the link left out" "slipped.txt student_renderer.cu" \
  "$(find "$tmp/slip_dir/in/subs/z1" -mindepth 1 -maxdepth 1 -printf '%f\n' 2>/dev/null | LC_ALL=C sort | paste -sd ' ')"
OUT=$("$import" --from gradescope "$tmp/abs.zip" "$tmp/slip_dir/in/abs" 2>&1)
expect_eq "zip with an absolute path: refused" 1 "$?"
expect_eq "zip with an absolute path: nothing written there" no "$([ -e /tmp/absolute_slip_attack2.txt ] && echo yes || echo no)"

# HOLE: a group whose members have no SID that is an id (none, or one with
# a space: the student types their own) are both "submission_61": the
# import refuses the whole class ("two submissions for 'submission_61'
# (submission_61 and submission_61)"), so one member's SID stops everyone.
gx=$tmp/group_nosid
mkdir -p "$gx/submission_61" "$gx/submission_62"
printf 'POINTS render 3\n' >"$gx/submission_61/student_renderer.cu"
printf 'POINTS render 4\n' >"$gx/submission_62/student_renderer.cu"
cat >"$gx/submission_metadata.yml" <<'YML'
submission_61:
  :submitters:
  - :name: First
    :sid: 'has space'
    :email: a@example.edu
  - :name: Second
    :email: b@example.edu
submission_62:
  :submitters:
  - :name: Other
    :sid: o1
    :email: o@example.edu
YML
OUT=$("$import" --from gradescope "$gx" "$tmp/group_nosid_subs" 2>&1)
expect_eq "HOLE group without SIDs: imported (exit 0)" 0 "$?"
expect_eq "HOLE group without SIDs: both members graded as the submission, the other student too" "submission_61 submission_61 o1" \
  "$(awk -F '\t' 'NR > 1 { print $2 }' "$tmp/group_nosid_subs/roster.tsv" 2>/dev/null | paste -sd ' ')"
finish
