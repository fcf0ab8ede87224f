# shellcheck shell=bash
# The stand-ins of the class tests: a handout whose scripts/grade.sh and
# cmake are stand-ins, and a class of submissions. Sourced by the tests in
# tests/class after testing.sh (use_temp_folder sets $tmp).

# skip_without_slurm: a Slurm test ends here, skipped (77), where the test
# cluster (slurm_cluster.sh, sourced first) or the class's zip cannot run.
skip_without_slurm() {
  local missing
  missing=$(slurm_missing)
  [ -z "$missing" ] || { echo "SKIPPED: the Slurm test cluster needs $missing"; exit 77; }
  skip_without_zip
}

# skip_without_zip: a test ends here, skipped (77), without zip or unzip
# (a class holds zips).
skip_without_zip() {
  local tool
  for tool in zip unzip; do
    command -v "$tool" >/dev/null || { echo "SKIPPED: $tool is not installed (scripts/setup.sh --tests installs it)"; exit 77; }
  done
}

# class_test_start: a class test on this machine: skipped without zip,
# then a temporary folder and the class (make_class).
class_test_start() {
  skip_without_zip
  use_temp_folder
  make_class
}

# make_class: $handout, the stand-in cmake first on PATH, $GRADE_CALLS (a
# line per grade run) and $subs, the submissions:
#   alice  a folder, her files nested, scan 5, find_repeats 2.5, render 60
#   bob    a zip, render 72
#   carol  does not build
#   dave   two files named student_scan.cu (refused)
#   eve    a symbolic link (refused)
#   frank  nothing handed in
#   gina   hangs, past any time limit
#   hugo   slow: its scan is done by grade.sh's --time-limit, the rest not
#   mallory  a build that embeds the reference programs and alice's slot
#   nina   its render part could not be graded (no GPU), its scan could
#   "bad name"  not a student id
# (A submission saying DIE_ONCE has its Slurm task cancelled the first time.)
# shellcheck disable=SC2154  # tmp is testing.sh's
make_class() {
# The handout: the three slots and a grade.sh stand-in. Its rows come from
# the slot files: "POINTS scan 2.5" gives scan 2.5 of 5, and so on; "HANG
# SECONDS" sleeps that long; "SLOW" runs until --time-limit, and the parts
# without POINTS are then rejected, "time limit".
handout=$tmp/handout
mkdir -p "$handout/scripts" "$handout/saxpy/student" "$handout/scan/student" "$handout/render/student"
touch "$handout/.handout"
# A reference program of the handout: full marks for whoever embeds it.
mkdir -p "$handout/ref/.bin"
printf 'POINTS scan 5\nPOINTS find_repeats 5\nPOINTS render 72\n' >"$handout/ref/.bin/judge_scan_reference"
cp "$handout/ref/.bin/judge_scan_reference" "$handout/ref/.bin/judge_render_reference"
chmod +x "$handout/ref/.bin/"*
for file in saxpy/student/student_saxpy.cu scan/student/student_scan.cu render/student/student_renderer.cu; do
  echo "// as handed out" >"$handout/$file"
done
cat >"$handout/scripts/grade.sh" <<'SH'
#!/usr/bin/env bash
# --maximum: the parts' most points, as the real one prints them for its
# defaults; --bogus: a usage error.
case " $* " in
  *" --bogus "*) echo "grade.sh: unknown option '--bogus' (try --help)" >&2; exit 2 ;;
  *" --maximum "*) printf 'scan\t5\nfind_repeats\t5\nrender\t72\n'; exit 0 ;;
esac
logs="" time_limit=""
while [ $# -gt 0 ]; do
  [ "$1" != --logs ] || logs=$2
  [ "$1" != --time-limit ] || time_limit=$2
  shift
done
# The GPU, the work folder and the CPUs it may use.
echo "grade ${CUDA_VISIBLE_DEVICES:-none} $(basename "$(dirname "$PWD")") $(awk '/^Cpus_allowed_list:/ { print $2 }' /proc/self/status)" >>"$GRADE_CALLS"
# DIE_ONCE: the first time, the Slurm task running it is cancelled, as by
# its node going down.
if grep -q DIE_ONCE scan/student/student_scan.cu && [ ! -e "$GRADE_CALLS.died" ]; then
  touch "$GRADE_CALLS.died"
  scancel "${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}"
  exec sleep 60
fi
hang=$(awk '$1 == "HANG" { print $2 }' scan/student/student_scan.cu)
[ -z "$hang" ] || exec sleep "$hang"
slow=""
if grep -q '^SLOW' scan/student/student_scan.cu; then
  [ -n "$time_limit" ] || { echo "grade.sh stand-in: SLOW needs --time-limit" >&2; exit 3; }
  sleep "$time_limit"
  slow="time limit: 0 of 1 rows before the limit"
fi
mkdir -p "$logs"
# "NOT_GRADED PART REASON": the part could not be graded (as without a GPU).
printf 'part\treason\tmax_score\n' >"$logs/not_graded.tsv"
awk '$1 == "NOT_GRADED" { part = $2; $1 = $2 = ""; sub(/^ +/, ""); print part "\t" $0 "\t72" }' \
  scan/student/student_scan.cu >>"$logs/not_graded.tsv"
{
  printf 'part\titem\tseed\treference\tref_ms\tyour_ms\tspeedup\tverdict\tscore\tmax_score\tround_trip_ms\tnote\n'
  for part in scan find_repeats render; do
    ! awk -F '\t' -v p="$part" 'NR > 1 && $1 == p { found = 1 } END { exit !found }' "$logs/not_graded.tsv" || continue
    max=5; [ "$part" != render ] || max=72
    points=$(cat scan/student/student_scan.cu render/student/student_renderer.cu build/embedded.txt 2>/dev/null | awk -v p="$part" '$1 == "POINTS" && $2 == p { print $3 }')
    if [ -n "$slow" ] && [ -z "$points" ]; then
      printf '%s\tall\t-\tref\t1\t-\t-\trejected\t0\t%s\t0.0003\t%s\n' "$part" "$max" "$slow"
    else
      printf '%s\tall\t-\tref\t1\t1\t1x\tok\t%s\t%s\t0.0003\t\n' "$part" "${points:-0}" "$max"
    fi
  done
} >"$logs/scores.tsv"
echo '{"score": 0, "tests": []}' >"$logs/results.json"
echo "results" >"$logs/results.md"
echo "Results: $logs/results.md"
SH
chmod +x "$handout/scripts/grade.sh"
# cmake's stand-in: a build fails when a slot says BUILD_ERROR.
fakebin=$tmp/fakebin
mkdir -p "$fakebin"
cat >"$fakebin/cmake" <<'SH'
#!/usr/bin/env bash
if [ "$1" = --build ] && grep -l BUILD_ERROR */student/*.cu >/dev/null 2>&1; then
  echo "scan/student/student_scan.cu(3): error: expected a ';'"
  exit 1
fi
# "EMBED PATH" in the scan slot: the build takes in that file, as an
# #include or an .incbin would, into what it writes (build/embedded.txt,
# whose POINTS lines the grade then reads as the slots').
[ "$1" = --build ] || echo "-- Build files have been written to: $PWD/build"
if [ "$1" = --build ]; then
  awk '$1 == "EMBED" { print $2 }' scan/student/student_scan.cu | while read -r path; do
    if text=$(cat -- "$path" 2>/dev/null); then
      printf '%s\n' "$text" >>build/embedded.txt && echo "embedded $path"
    else
      echo "cannot read $path"
    fi
  done
fi
exit 0
SH
chmod +x "$fakebin/cmake"
# nvidia-smi's stand-in, as on a machine without a GPU: the stand-in class
# is graded the same whether or not this machine has one (a test that
# needs GPUs writes its own stand-in over it).
printf '#!/bin/sh\necho "No devices were found"\nexit 6\n' >"$fakebin/nvidia-smi"
chmod +x "$fakebin/nvidia-smi"
export PATH=$fakebin:$PATH GRADE_CALLS=$tmp/calls

subs=$tmp/submissions
mkdir -p "$subs/alice/deep/folder" "$subs/carol" "$subs/dave/a" "$subs/dave/b" "$subs/eve" "$subs/frank" "$subs/bad name"
printf 'POINTS scan 5\nPOINTS find_repeats 2.5\n' >"$subs/alice/deep/folder/student_scan.cu"
printf 'POINTS render 60\n' >"$subs/alice/student_renderer.cu"
echo "an essay" >"$subs/alice/writeup.txt"
mkdir -p "$tmp/bob/src"
printf 'POINTS render 72\n' >"$tmp/bob/src/student_renderer.cu"
(cd "$tmp/bob" && zip -qr "$subs/bob.zip" src)
echo "BUILD_ERROR" >"$subs/carol/student_scan.cu"
echo x >"$subs/dave/a/student_scan.cu"
echo y >"$subs/dave/b/student_scan.cu"
ln -s /etc/passwd "$subs/eve/student_scan.cu"
# mallory's build reads the reference programs (its copy's and the original
# handout's), another student's slot, the suite's own scan design (the
# grader's checkout), the class's secret by a path relative to the work
# folder, and a file of a TA's.
mkdir -p "$subs/mallory" "$tmp/ta"
echo "POINTS scan 5" >"$tmp/ta/notes.txt"
printf 'EMBED %s\n' ref/.bin/judge_scan_reference "$handout/ref/.bin/judge_scan_reference" \
  "$subs/alice/deep/folder/student_scan.cu" "$repo/judge/reference/course_scan.cu" ../../judge-secret \
  "$tmp/ta/notes.txt" >"$subs/mallory/student_scan.cu"
mkdir -p "$subs/nina"
printf 'POINTS scan 5\nNOT_GRADED render the judge needs a GPU: no CUDA device\n' >"$subs/nina/student_scan.cu"
echo "HANG 300" >"$tmp/hang_scan.cu"
mkdir -p "$subs/gina"
cp "$tmp/hang_scan.cu" "$subs/gina/student_scan.cu"
mkdir -p "$subs/hugo"
printf 'SLOW\nPOINTS scan 4\n' >"$subs/hugo/student_scan.cu"
}
