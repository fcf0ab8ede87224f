#!/usr/bin/env bash
# On a GPU machine: grades a class through a real Slurm cluster whose node
# has the machine's GPUs as a gres, end to end, as root. Installs Debian's
# Slurm and MUNGE from --debs when the machine lacks them
# (scripts/dev/slurm_debs.sh), starts a single-node cluster with every GPU as
# gres gpu (tests/class/slurm_cluster.sh), writes a handout with the
# reference programs built for this GPU, makes a class of seven
# submissions from the suite's fills and exploits as a Gradescope export
# and imports it (scripts/class/import_submissions.sh), grades it with
# grade_class.sh --slurm --wait (a task per submission, each asking for
# --gres=gpu:1), grades one student again (--only), and checks that every
# task ran with CUDA_VISIBLE_DEVICES set and the GPU's name in its
# gradebook row, that each submission got the status and points it must,
# every row the assignment's maximum, and the roster's gradebook its
# names and lateness. Each stage is timed; grading is stopped in time to
# report within --budget.
#
# Usage: scripts/dev/gpu_class.sh [options] [-- GRADE_OPTIONS...]
#   --debs DIR           Debian 12's .deb files of Slurm, MUNGE and their
#                        libraries, installed when munged or a Slurm
#                        program is missing (scripts/dev/slurm_debs.sh DIR)
#   --logs DIR           the results (default gpu-class-logs)
#   --budget SEC         the whole run's wall time (default 500): grading
#                        still running near its end is stopped (its jobs
#                        cancelled) and what was graded is reported
#   --grade-timeout SEC  grade_class.sh's limit for one grade (default 120):
#                        what the slow-starting submission costs
#   --no-gpu             without a GPU: a stand-in device (mknod) as the
#                        gres, and only the checks that need no GPU
#   --keep               keep the work folder (the handout, the cluster)
#   -h, --help           this text
#   GRADE_OPTIONS        grade.sh's options for each grade (default: short
#                        grades, --scenes rgb --counts 1000000 --runs 1
#                        --saxpy-n 1000000)
# The class: s1-full (saxpy, scan and renderer filled correctly),
# s2-scan-only, s3-no-build (a syntax error), s4-forged-output (prints the
# course's lines, does no work), s5-nothing (nothing handed in),
# s6-refused (a slot file twice), s7-slow-start (the scan filled, but each
# of its workers takes 50 s to start, under the judge's start timeout, so
# its grade outlasts --grade-timeout: not graded). s2 is handed in past the
# due time.
# In the logs folder: verdict.txt, stages.tsv (each stage's seconds and
# status), a log per stage, class/ (gradebook.csv, summary.md, students/,
# .slurm/, gradebook_roster.csv), tasks/ (each Slurm task's log), cluster/ (slurm.conf,
# gres.conf, the daemons' logs, scontrol show node, sinfo, the jobs),
# submissions/. Without gnuplot summary.md has no chart: draw it where
# gnuplot is, from class/ (scripts/class/class_lib.sh's write_summary).
# Exit status: 0 every stage and check passed, 1 otherwise, 2 usage, 130 or
# 143 when stopped by SIGINT or SIGTERM (the results so far are saved).
set -uo pipefail
script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$script_dir/../.." && pwd)
# shellcheck source=scripts/options_lib.sh
source "$script_dir/../options_lib.sh"
# shellcheck source=scripts/run_lib.sh
source "$script_dir/../run_lib.sh"
# shellcheck source=tests/class/slurm_cluster.sh
source "$repo/tests/class/slurm_cluster.sh"

logs=gpu-class-logs debs="" budget=500 grade_timeout=120 no_gpu=0 keep=0
grade_args=(--scenes rgb --counts 1000000 --runs 1 --saxpy-n 1000000)
# grade_class.sh's --timeout: each submission's build and each program run.
run_timeout=240
# What the stages after grading need: the re-run, the copies, the checks.
reserve_s=30
while [ $# -gt 0 ]; do
  if [[ $1 == --*=* ]]; then set -- "${1%%=*}" "${1#*=}" "${@:2}"; fi
  case "$1" in
    --debs) need_folder "$@"; debs=$2; shift ;;
    --logs) need_folder "$@"; logs=$2; shift ;;
    --budget) need_value "$@"; budget=$2; shift ;;
    --grade-timeout) need_value "$@"; grade_timeout=$2; shift ;;
    --no-gpu) no_gpu=1 ;;
    --keep) keep=1 ;;
    -h | --help) show_help; exit 0 ;;
    --) shift; [ $# -eq 0 ] || grade_args=("$@"); break ;;
    *) usage_error "unknown argument '$1'" ;;
  esac
  shift
done
# seconds OPTION VALUE LEAST: a usage error unless VALUE is a whole number of seconds from LEAST.
seconds() { if [[ ! $2 =~ ^[0-9]{1,6}$ ]] || [ "$2" -lt "$3" ]; then usage_error "$1: '$2' is not a number of seconds from $3"; fi; }
seconds --budget "$budget" 120
seconds --grade-timeout "$grade_timeout" 1
[ -z "$debs" ] || [ -d "$debs" ] || usage_error "--debs: '$debs' is not a folder"
[ -z "$debs" ] || debs=$(cd "$debs" && pwd)
[ "$(id -u)" = 0 ] || { echo "gpu_class.sh: needs root (slurmd runs the jobs as their users)" >&2; exit 1; }
use_log_folder cluster tasks
work=$(mktemp -d /tmp/gpu-class.XXXXXX) || { echo "gpu_class.sh: no temporary folder" >&2; exit 1; }
cd "$repo" || exit 1
# nvcc where the CUDA Toolkit puts it, for the builds that use no preset.
command -v nvcc >/dev/null || [ ! -x /usr/local/cuda/bin/nvcc ] || PATH=$PATH:/usr/local/cuda/bin

# ---------------------------------------------------------------- stages

failures=0
stage_rows=()
# stage NAME LOG FUNCTION: runs FUNCTION with its output in LOG (in the
# logs folder), prints and records its time and status; its status.
stage() {
  local name=$1 log=$2 start=$SECONDS status
  echo "== [${SECONDS}s] $name" >&2
  "$3" >"$logs/$log" 2>&1 </dev/null
  status=$?
  stage_rows+=("$(printf '%s\t%s\t%s\t%s' "$name" "$((SECONDS - start))" "$([ "$status" = 0 ] && echo ok || echo FAILED)" "$log")")
  if [ "$status" != 0 ]; then
    failures=$((failures + 1))
    echo "FAILED: $name (last lines of $log):" >&2
    tail -n 15 "$logs/$log" >&2
  fi
  return "$status"
}

# check DESCRIPTION COMMAND...: "ok: ..." or "FAILED: ..." in verdict.txt
# and on stdout, by the command's status.
check() {
  local description=$1 line
  shift
  if "$@"; then line="ok: $description"; else line="FAILED: $description"; failures=$((failures + 1)); fi
  echo "$line" | tee -a "$logs/verdict.txt"
}

# left SEC: the seconds of the budget left once SEC more are kept back.
left() { echo $((budget - SECONDS - $1)); }

install_slurm() {
  local missing
  missing=$(slurm_missing)
  if [ -z "$missing" ]; then
    echo "Slurm and MUNGE are installed: $(slurmctld -V 2>&1), $(munged -V 2>&1 | head -n 1)"
    return 0
  fi
  [ -n "$debs" ] || { echo "this machine lacks $missing: give --debs DIR, Debian 12's packages"; return 1; }
  echo "this machine lacks $missing: installing from $debs"
  ls -l "$debs"
  "$script_dir/slurm_debs.sh" "$debs"
}

gpu_files="" gpu_model=none
start_gpu_cluster() {
  local count i
  if [ "$no_gpu" = 1 ]; then
    mkdir -p "$work/dev"
    mknod "$work/dev/nvidia0" c 195 0 || { echo "mknod is not permitted here: no stand-in GPU"; return 1; }
    gpu_files=$work/dev/nvidia0
  else
    nvidia-smi -L || { echo "nvidia-smi lists no GPU (--no-gpu runs without one)"; return 1; }
    gpu_model=$(nvidia-smi -i 0 --query-gpu=name --format=csv,noheader | head -n 1 | tr ',' ' ')
    gpu_files=$(gpu_devices)
    if [ -z "$gpu_files" ]; then
      # Slurm only looks at the files (task/none: no device cgroup), so
      # stand-ins with the driver's numbers do where the container has none.
      count=$(nvidia-smi -L | grep -c '^GPU ')
      echo "no /dev/nvidiaN device files: $count stand-ins (major 195) in $work/dev"
      mkdir -p "$work/dev"
      for ((i = 0; i < count; i++)); do
        mknod "$work/dev/nvidia$i" c 195 "$i" || return 1
        gpu_files+=${gpu_files:+,}$work/dev/nvidia$i
      done
    fi
  fi
  echo "the node's GPUs: $gpu_files"
  start_cluster "$work/cluster" --gpus "$gpu_files" || return 1
  scontrol show node | tee "$logs/cluster/node.txt"
  sinfo | tee "$logs/cluster/sinfo.txt"
  grep -E '^(GresTypes|NodeName)' "$SLURM_CONF"
  cat "$work/cluster/gres.conf"
}

# stb_image_write.h: the system's, else the suite's .deps copy, which the
# handout then holds too (its CMake looks in .deps/stb first).
have_stb() {
  local dir
  for dir in /usr/include /usr/local/include; do
    [ ! -f "$dir/stb_image_write.h" ] && [ ! -f "$dir/stb/stb_image_write.h" ] || return 0
  done
  return 1
}

make_gpu_handout() {
  local archs=90-real cap limit
  if [ "$no_gpu" = 0 ]; then
    cap=$(nvidia-smi -i 0 --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d ' .')
    if [[ $cap =~ ^[0-9]+$ ]]; then archs=$cap-real; else archs=native; fi
  fi
  if ! have_stb && [ ! -f "$repo/.deps/stb/stb_image_write.h" ]; then
    echo "no stb_image_write.h: install libstb-dev, or bring the suite's .deps/stb"
    return 1
  fi
  echo "reference programs for CUDA architectures $archs"
  limit=$(left "$reserve_s")
  [ "$limit" -le 300 ] || limit=300
  run_program_in . "$limit" "$script_dir/../make_handout.sh" --cuda-archs "$archs" "$work/handout" || return 1
  if ! have_stb; then
    mkdir -p "$work/handout/.deps" && cp -R "$repo/.deps/stb" "$work/handout/.deps/" || return 1
    echo "stb_image_write.h from the suite's .deps, in the handout's .deps"
  fi
  du -sh "$work/handout"
}

# The class, from the suite's course-style fills and exploits, handed in
# as Gradescope's "Export Submissions" (a folder per submission and
# submission_metadata.yml, s2 past the due time) and imported with
# scripts/class/import_submissions.sh; the ids sort in the order they are graded
# (the costly slow start last).
subs=$work/submissions gs_export=$work/export
due="2026-12-01 23:59:00 -0800"
class_ids=(s1-full s2-scan-only s3-no-build s4-forged-output s5-nothing s6-refused s7-slow-start)
make_class() {
  local fills=$repo/tests/student/fills scan=$repo/judge/reference/course_scan.cu i=0 id at
  local -a d
  for id in "${class_ids[@]}"; do d+=("$gs_export/submission_$((101 + i))"); i=$((i + 1)); done
  mkdir -p "${d[@]}" "${d[2]}/src" "${d[5]}/a" "${d[5]}/b" &&
    cp "$fills/student_saxpy.cu" "${d[0]}/student_saxpy.cu" &&
    cp "$scan" "${d[0]}/student_scan.cu" &&
    perl "$fills/fill_renderer.pl" "$work/handout/render/student/student_renderer.cu" >"${d[0]}/student_renderer.cu" &&
    cp "$scan" "${d[1]}/student_scan.cu" &&
    { cat "$scan" && echo "static int missing_semicolon = 1"; } >"${d[2]}/src/student_scan.cu" &&
    cp "$repo/tests/judge/workers/forged_print.cpp" "${d[3]}/student_scan.cu" &&
    echo "Nothing handed in but this note." >"${d[4]}/README.txt" &&
    cp "$scan" "${d[5]}/a/student_scan.cu" &&
    cp "$scan" "${d[5]}/b/student_scan.cu" &&
    { cat "$scan" && printf '#include <unistd.h>\nstatic const int slow_start = (sleep(50), 0);\n'; } >"${d[6]}/student_scan.cu" || return 1
  {
    for i in "${!class_ids[@]}"; do
      id=${class_ids[$i]} at="2026-12-01 22:0$i:00.000000000 -08:00"
      [ "$id" != s2-scan-only ] || at="2026-12-02 01:30:00.000000000 -08:00"
      printf 'submission_%s:\n  :submitters:\n  - :name: Student %s\n    :sid: %s\n    :email: %s@example.edu\n' \
        "$((101 + i))" "$id" "$id" "$id"
      printf '  :created_at: %s\n  :score: 0.0\n' "$at"
    done
  } >"$gs_export/submission_metadata.yml" || return 1
  (cd "$gs_export" && find . -type f | LC_ALL=C sort)
  "$script_dir/../class/import_submissions.sh" --from gradescope --due "$due" "$gs_export" "$subs" || return 1
  column -t -s $'\t' "$subs/roster.tsv" 2>/dev/null || cat "$subs/roster.tsv"
}

grade_status="" regrade_status=""
# class_args: grade_class.sh's arguments, the same for both runs.
class_args() {
  printf '%s\n' --slurm --wait --handout "$work/handout" --out "$work/class" --timeout "$run_timeout" \
    --grade-timeout "$grade_timeout" "$subs" -- "${grade_args[@]}"
}
grade_class() {
  local limit
  local -a args
  mapfile -t args < <(class_args)
  limit=$(left "$reserve_s")
  [ "$limit" -ge 60 ] || { echo "only ${limit}s of the budget left for grading"; return 1; }
  echo "grade_class.sh ${args[*]} (stopped after ${limit}s)"
  run_program_in . "$limit" "$script_dir/../class/grade_class.sh" "${args[@]}" >"$logs/grade.out" 2>"$logs/grade.err"
  grade_status=$?
  cat "$logs/grade.out"
  tail -n 5 "$logs/grade.err"
  echo "grade_class.sh: exit status $grade_status"
  if [ "$grade_status" = 124 ] && [ -d "$work/class/students" ]; then
    # Stopped by the budget: the gradebook of what was graded by then.
    local -a ids
    mapfile -t ids < <(submitted)
    # shellcheck disable=SC2016  # expanded by that shell
    # (class_roster.sh: write_gradebook writes the roster's books too.)
    bash -c 'source "$1/class_lib.sh" && source "$1/class_roster.sh" && out=$2 && shift 2 &&
      write_gradebook "$out" "$@" && write_summary "$out" "$@"' \
      _ "$script_dir/../class" "$work/class" "${ids[@]}" &&
      echo "stopped by the budget: the gradebook holds what was graded by then"
  fi
  # 1: some submission was not graded, as some here must not be.
  [ "$grade_status" = 0 ] || [ "$grade_status" = 1 ]
}

# One student graded again (--only), as after a regrade request: s2's task
# alone, the others kept.
regrade_class() {
  local -a args
  mapfile -t args < <(class_args)
  run_program_in . 120 "$script_dir/../class/grade_class.sh" --only s2-scan-only "${args[@]}" >"$logs/regrade.out" 2>"$logs/regrade.err"
  regrade_status=$?
  echo "grade_class.sh --only s2-scan-only: exit status $regrade_status"
  cat "$logs/regrade.out" "$logs/regrade.err"
}

saved=0
save_results() {
  [ "$saved" = 0 ] || return 0
  saved=1
  local file
  if [ -d "$work/class" ]; then
    rm -rf -- "$logs/class"
    tar -C "$work" --exclude='.work-*' -cf - class | tar -C "$logs" -xf -
    for file in "$work"/class/.slurm/*.out; do [ ! -f "$file" ] || cp -- "$file" "$logs/tasks/"; done
    for file in gradebook.csv summary.md; do [ ! -f "$work/class/$file" ] || cp -- "$work/class/$file" "$logs/"; done
  fi
  [ ! -d "$subs" ] || { rm -rf -- "$logs/submissions"; cp -R "$subs" "$logs/submissions"; }
  if [ -d "$work/cluster" ]; then
    for file in slurm.conf gres.conf log/slurmctld.log log/slurmd.log munge/log; do
      [ ! -f "$work/cluster/$file" ] || cp -- "$work/cluster/$file" "$logs/cluster/${file//\//-}"
    done
    [ -z "${SLURM_CONF:-}" ] || scontrol -d show job >"$logs/cluster/jobs.txt" 2>&1
  fi
  {
    printf 'stage\tseconds\tstatus\tlog\n'
    printf '%s\n' "${stage_rows[@]}"
  } >"$logs/stages.tsv"
}

# shellcheck disable=SC2317  # run at exit
finish_up() {
  save_results
  stop_cluster
  if [ "$keep" = 1 ]; then echo "gpu_class.sh: the work folder is kept: $work" >&2; else rm -rf -- "$work"; fi
}
trap finish_up EXIT
stop_on_signals

# ---------------------------------------------------------------- checks

# submitted: the imported students' ids, one a line.
submitted() { find "$subs" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' 2>/dev/null | LC_ALL=C sort; }
# row ID: the student's gradebook row, "" without one.
row() { grep "^$1," "$work/class/gradebook.csv" 2>/dev/null; }
# field ID NAME: one column of the student's row (student_id, scan,
# find_repeats, render, total, max_total, status, gpu).
field() {
  row "$1" | awk -F, -v name="$2" 'BEGIN { split("student_id scan find_repeats render total max_total status gpu", n, " ")
    for (i in n) col[n[i]] = i } { v = $col[name]; gsub(/"/, "", v); print v }'
}
positive() { awk -v v="$1" 'BEGIN { exit !(v + 0 > 0) }'; }
zero() { awk -v v="$1" 'BEGIN { exit !(v + 0 == 0) }'; }
reason() { awk -F '\t' 'NR == 2 { print $2 }' "$work/class/students/$1/status.tsv" 2>/dev/null; }
rows_ok() { [ -f "$work/class/students/$1/scores.tsv" ] && awk -F '\t' 'NR > 1 && $8 != "ok" { bad = 1 } END { exit bad }' "$work/class/students/$1/scores.tsv"; }
is() { [ "$(field "$1" status)" = "$2" ]; }

# expected ID: whether the submission got what it must (GPU runs only,
# for every one; without a GPU only the statuses that need none).
expected() {
  local id=$1 scan find render
  scan=$(field "$id" scan) find=$(field "$id" find_repeats) render=$(field "$id" render)
  case "$id" in
    s1-full) is "$id" graded && positive "$scan" && positive "$find" && positive "$render" && rows_ok "$id" ;;
    s2-scan-only) is "$id" graded && positive "$scan" && positive "$find" && zero "$render" ;;
    s3-no-build) is "$id" "build failed" ;;
    s4-forged-output) is "$id" graded && zero "$scan" && zero "$find" ;;
    s5-nothing) is "$id" graded && zero "$(field "$id" total)" && positive "$(field "$id" max_total)" ;;
    s6-refused) is "$id" refused ;;
    s7-slow-start) is "$id" "not graded" && [[ $(reason "$id") == *--grade-timeout* ]] ;;
  esac
}
declare -A must=([s1-full]="graded, every part scored, every row correct" [s2-scan-only]="graded, scan and find_repeats scored, render 0"
  [s3-no-build]="build failed" [s4-forged-output]="graded, scan and find_repeats 0 (the judge checks, not the output)"
  [s5-nothing]="graded, 0 points of the maximum" [s6-refused]="refused (student_scan.cu twice)"
  [s7-slow-start]="not graded, stopped by --grade-timeout")

# graded_or_some_not STATUS: grade_class.sh's 0 or 1.
graded_or_some_not() { [ "$1" = 0 ] || [ "$1" = 1 ]; }
# roster_checks COUNT: the roster's gradebook (gradebook_roster.csv, for the
# course platform): a row per imported student, with name, email and the
# lateness the import found (s2 alone past the due time).
roster_checks() {
  local book=$work/class/gradebook_roster.csv late
  check "gradebook_roster.csv: the roster's columns" \
    grep -q '^student_id,name,email,graded_as,submitted_at,late,late_by_s,.*,total,max_total,saxpy_writeup,writeup,status$' "$book"
  check "gradebook_roster.csv: a row per imported student ($1)" [ "$(tail -n +2 "$book" 2>/dev/null | grep -c .)" = "$1" ]
  late=$(awk -F, 'NR > 1 && $6 == "yes" { gsub(/"/, "", $1); print $1 }' "$book" 2>/dev/null | paste -sd ' ')
  check "gradebook_roster.csv: late only s2-scan-only (${late:-none})" [ "$late" = s2-scan-only ]
  check "gradebook_roster.csv: each student's name from the export" \
    [ "$(grep -c '^"s[1-7]-[a-z-]*","Student s[1-7]-[a-z-]*","s[1-7]-[a-z-]*@example.edu"' "$book" 2>/dev/null)" = "$1" ]
}

report() {
  local ids id tasks lines cvd gpu why
  echo
  echo "== [${SECONDS}s] verdict"
  : >"$logs/verdict.txt"
  mapfile -t ids < <(submitted)
  check "the node registered its GPUs as gres gpu:$(tr ',' '\n' <<<"$gpu_files" | grep -c .)" \
    grep -qE "Gres=gpu:$(tr ',' '\n' <<<"$gpu_files" | grep -c .)([ (]|$)" "$logs/cluster/node.txt"
  if [ -f "$work/class/gradebook.csv" ]; then
    echo
    column -s, -t <"$work/class/gradebook.csv" 2>/dev/null || cat "$work/class/gradebook.csv"
    echo
  fi
  check "a class of at least six submissions (${#ids[@]})" [ ${#ids[@]} -ge 6 ]
  if [ ${#ids[@]} -gt 0 ]; then
    check "the gradebook has a row per submission" [ "$(tail -n +2 "$work/class/gradebook.csv" 2>/dev/null | grep -c .)" = ${#ids[@]} ]
    tasks=$(cat "$work"/first-tasks/task-*.out 2>/dev/null)
    lines=$(grep -cE '^Task [0-9]+ of array [0-9]+ on .*: grading .*, CUDA_VISIBLE_DEVICES=[0-9]+(,[0-9]+)*$' <<<"$tasks")
    check "every Slurm task ran with CUDA_VISIBLE_DEVICES set ($lines tasks of ${#ids[@]})" [ "$lines" = ${#ids[@]} ]
    cvd=$(grep -oE 'CUDA_VISIBLE_DEVICES=.*' <<<"$tasks" | sort | uniq -c | awk '{ printf "%s%s x%s", sep, $2, $1; sep = ", " }')
    echo "   (${cvd:-none})"
    check "no task was retried (one task log per submission)" [ "$(find "$work/first-tasks" -name 'task-*.out' 2>/dev/null | wc -l)" = ${#ids[@]} ]
    max=$(field s1-full max_total)
    check "every row's maximum is the assignment's ($max)" [ "$(tail -n +2 "$work/class/gradebook.csv" | cut -d, -f1 | while read -r id; do field "$id" max_total; done | sort -u)" = "$max" ]
    roster_checks "${#ids[@]}"
    for id in "${ids[@]}"; do
      gpu=$(field "$id" gpu)
      check "$id: its gradebook row names the GPU ('$gpu_model'): '$gpu'" [ "$gpu" = "$gpu_model" ]
      if [ "$no_gpu" = 1 ] && [ "$id" != s3-no-build ] && [ "$id" != s6-refused ]; then
        check "$id: $(field "$id" status) (without a GPU, any status)" [ -n "$(row "$id")" ]
      else
        why=$(reason "$id" | cut -c1-160)
        check "$id: ${must[$id]:-?}: $(field "$id" status), $(row "$id" | cut -d, -f2-6)${why:+ ($why)}" expected "$id"
      fi
    done
  fi
  case "$grade_status" in
    0 | 1)
      check "the regrade graded one submission" grep -q '(1 submission)' "$logs/regrade.out" "$logs/regrade.err"
      check "the regrade ended with status 0 or 1 ($regrade_status)" graded_or_some_not "$regrade_status"
      check "the regrade ran one more task ($(find "$work/class/.slurm" -name 'task-*.out' 2>/dev/null | wc -l) logs)" \
        [ "$(find "$work/class/.slurm" -name 'task-*.out' 2>/dev/null | wc -l)" = $((${#ids[@]} + 1)) ]
      check "the regrade kept every other row as it was" \
        [ "$(grep -v '^s2-scan-only,' "$work/gradebook.first.csv")" = "$(grep -v '^s2-scan-only,' "$work/class/gradebook.csv")" ]
      if [ "$no_gpu" = 1 ]; then
        check "s2-scan-only, graded again: $(field s2-scan-only status) (without a GPU, any status)" [ -n "$(row s2-scan-only)" ]
      else
        check "s2-scan-only, graded again: ${must[s2-scan-only]}" expected s2-scan-only
      fi
      ;;
    124) check "grading ended within the budget (${budget}s; its jobs were cancelled)" false ;;
    "") check "grading ran (a stage before it failed)" false ;;
    *) check "grade_class.sh ended with status 0 or 1, not $grade_status (grade.err)" false ;;
  esac
  echo
  printf '%-12s %8s  %s\n' stage seconds status
  printf '%s\n' "${stage_rows[@]}" | awk -F '\t' '{ printf "%-12s %8s  %s\n", $1, $2, $3 }'
  echo "total: ${SECONDS}s of the ${budget}s budget"
}

# ---------------------------------------------------------------- main

{
  echo "gpu_class.sh on $(hostname -s): $(nproc) cores, $(uname -r), budget ${budget}s"
  if command -v nvidia-smi >/dev/null; then nvidia-smi -L 2>&1; else echo "no nvidia-smi"; fi
} | tee "$logs/machine.txt"
! command -v nvidia-smi >/dev/null || nvidia-smi >>"$logs/machine.txt" 2>&1
if stage install install.log install_slurm && stage cluster cluster.log start_gpu_cluster &&
  stage handout handout.log make_gpu_handout && stage class class.log make_class; then
  stage grade grade.log grade_class
  if [ "$grade_status" = 0 ] || [ "$grade_status" = 1 ]; then
    # The first run's task logs and gradebook, for the checks after the regrade.
    mkdir -p "$work/first-tasks" && cp "$work"/class/.slurm/task-*.out "$work/first-tasks/" 2>/dev/null
    cp "$work/class/gradebook.csv" "$work/gradebook.first.csv" 2>/dev/null
    stage regrade regrade.log regrade_class
  fi
fi
save_results
saved=0
report
save_results
echo "logs: $logs"
if [ "$failures" = 0 ]; then echo "gpu_class.sh: every stage and check passed"; else echo "gpu_class.sh: $failures stages or checks failed"; fi
[ "$failures" = 0 ]
