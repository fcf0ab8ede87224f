#!/usr/bin/env bash
# Grades a class: every submission in its own copy of a handout, built and
# graded by the handout's scripts/grade.sh (the trusted judge: nothing a
# submission prints counts), one submission per GPU at a time, on this
# machine or as a Slurm array. Writes a gradebook, a folder per student and
# a class summary.
#
# Usage: scripts/class/grade_class.sh [options] --handout DIR SUBMISSIONS [-- GRADE_OPTIONS...]
#   SUBMISSIONS           a folder holding one folder or .zip per student,
#                         named by the student's id (letters, digits, . _ -)
#   --handout DIR         the handout (scripts/make_handout.sh) to grade in
#   --out DIR             results (default class-results); a re-run grades
#                         only submissions that are new or changed
#   --gpus LIST           GPU indices to use, comma-separated (default: every
#                         GPU nvidia-smi lists; without one the class is
#                         refused); none: no GPU, one submission at a time
#                         (the parts that need one are not graded)
#   --timeout SEC         limit for a submission's build and for each graded
#                         run (default 1800)
#   --grade-timeout SEC   limit for the whole grade of one submission
#                         (default 7200); past it the submission is not graded
#   --force               grade every submission again
#   --only IDS            grade again these students alone (comma-separated
#                         ids), whatever their state; the others are kept
#   --slurm               one sbatch array task per submission, each with a
#                         GPU of its own (--gres=gpu:1), and a job that writes
#                         the gradebook when the array ends (afterany)
#   --wait                with --slurm: follow the jobs to the end, showing
#                         progress (Ctrl-C cancels them)
#   --partition NAME, --account NAME, --time-limit TIME  sbatch's, with --slurm
#   --array-limit N       with --slurm: at most N tasks at once (--array=...%N)
#   --sbatch-option OPT   with --slurm: OPT for both sbatch calls, as given
#                         (e.g. --qos=class, --constraint=h100,
#                         --cpus-per-task=8, --mem=32G); repeatable
#   --gpu-type TYPE       --gres=gpu:TYPE:1, for one kind of GPU
#   --slurm-gres gpu|none none: ask Slurm for no GPU gres (a cluster without
#                         one, as the tests' is)
#   --lms-column NAME     the assignment's column in canvas.csv (default
#                         "CUDA assignment (autograded)"; an existing one's
#                         name as Canvas exports it, "Name (12345)", fills it)
#   --export-slots DIR    grade nothing: write every submission's slot files
#                         to DIR/students/ID/ and the handout's to DIR/base/,
#                         as C++ for a plagiarism checker (MOSS, JPlag,
#                         Dolos), each <<<...>>> a comment
#   --quiet               no progress lines on stderr
#   -h, --help            this text
#   GRADE_OPTIONS         passed to grade.sh (e.g. --scenes rgb,rand10k)
# A submission hands in the slot files it changed, found by name anywhere in
# its folder or zip: student_saxpy.cu, student_scan.cu, student_renderer.cu;
# nothing else of it is used. Results in OUT: gradebook.csv (one row per
# student), students/ID/ (results.md, results.json, scores.csv, the logs),
# summary.md. Where SUBMISSIONS came from scripts/class/import_submissions.sh (a
# Gradescope or Canvas export), its roster.tsv is joined too:
# gradebook_roster.csv (a row per student, each member of a group, with
# name, email, submission time, lateness and empty columns for the staff's
# write-up grades) and, for Canvas, canvas.csv for its gradebook import.
# Exit status: 0 every submission graded, 1 some could not be
# (see the gradebook's status), 2 usage; 130 or 143 when stopped.
set -uo pipefail
script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/options_lib.sh
source "$script_dir/../options_lib.sh"
# shellcheck source=scripts/run_lib.sh
source "$script_dir/../run_lib.sh"
# shellcheck source=scripts/class/class_lib.sh
source "$script_dir/class_lib.sh"
# shellcheck source=scripts/class/class_slurm.sh
source "$script_dir/class_slurm.sh"
# shellcheck source=scripts/class/class_roster.sh
source "$script_dir/class_roster.sh"

handout="" submissions="" out=class-results gpus="" timeout_s=1800 grade_timeout_s=7200 force=0 quiet=0 only=""
engine=local slurm_wait=0 slurm_partition="" slurm_account="" slurm_time="" gpu_type="" slurm_gres=gpu
task_list="" array_limit="" export_dir="" lms_column="CUDA assignment (autograded)"
sbatch_extra=()
grade_args=()
while [ $# -gt 0 ]; do
  if [[ $1 == --*=* ]]; then set -- "${1%%=*}" "${1#*=}" "${@:2}"; fi
  case "$1" in
    --handout) need_folder "$@"; handout=$2; shift ;;
    --out) need_folder "$@"; out=$2; shift ;;
    --gpus) need_value "$@"; gpus=$2; shift ;;
    --timeout) need_value "$@"; timeout_s=$2; shift ;;
    --grade-timeout) need_value "$@"; grade_timeout_s=$2; shift ;;
    --force) force=1 ;;
    --only) need_value "$@"; only=$2; shift ;;
    --slurm) engine=slurm ;;
    --wait) slurm_wait=1 ;;
    --partition) need_value "$@"; slurm_partition=$2; shift ;;
    --account) need_value "$@"; slurm_account=$2; shift ;;
    --time-limit) need_value "$@"; slurm_time=$2; shift ;;
    --gpu-type) need_value "$@"; gpu_type=$2; shift ;;
    --array-limit) need_value "$@"; array_limit=$2; shift ;;
    --sbatch-option) # its value is itself an option: --sbatch-option --qos=class
      { [ $# -ge 2 ] && [ -n "$2" ]; } || usage_error "--sbatch-option needs a value"
      sbatch_extra+=("$2"); shift ;;
    --slurm-gres) need_value "$@"; slurm_gres=$2; shift ;;
    --task-list) need_value "$@"; engine=task task_list=$2; shift ;;
    --collect) engine=collect ;;
    --export-slots) need_value "$@"; export_dir=$2; shift ;;
    --lms-column) need_value "$@"; lms_column=$2; shift ;;
    --quiet) quiet=1 ;;
    -h | --help) show_help; exit 0 ;;
    --) shift; grade_args=("$@"); break ;;
    -*) usage_error "unknown option '$1'" ;;
    *) [ -z "$submissions" ] || usage_error "one SUBMISSIONS folder only ('$submissions', then '$1')"; submissions=$1 ;;
  esac
  shift
done
[ -n "$handout" ] || usage_error "needs --handout DIR"
[ -n "$submissions" ] || usage_error "needs SUBMISSIONS, the folder of submissions"
[ -f "$handout/.handout" ] || usage_error "--handout: '$handout' is not a handout (no .handout file; scripts/make_handout.sh writes one)"
[ -d "$submissions" ] || usage_error "SUBMISSIONS: '$submissions' is not a folder"
# positive OPTION VALUE: a usage error unless VALUE is a whole number of seconds above 0.
positive() { if [[ ! $2 =~ ^[0-9]{1,7}$ ]] || [ "$2" -eq 0 ]; then usage_error "$1: '$2' is not a positive number of seconds"; fi; }
positive --timeout "$timeout_s"
positive --grade-timeout "$grade_timeout_s"
[ -z "$gpus" ] || [ "$gpus" = none ] || [[ $gpus =~ ^[0-9]+(,[0-9]+)*$ ]] ||
  usage_error "--gpus: '$gpus' is not a comma-separated list of GPU indices, nor none"
case "$slurm_gres" in gpu | none) ;; *) usage_error "--slurm-gres: '$slurm_gres' is not gpu or none" ;; esac
if [ -n "$array_limit" ] && { [[ ! $array_limit =~ ^[0-9]{1,6}$ ]] || [ "$array_limit" -eq 0 ]; }; then
  usage_error "--array-limit: '$array_limit' is not a positive number of tasks"
fi
for option in "${sbatch_extra[@]}"; do
  [[ $option == -?* ]] || usage_error "--sbatch-option: '$option' is not an option of sbatch's (it starts with -)"
done
if [ "$engine" != slurm ]; then
  for option in wait:"$slurm_wait" partition:"$slurm_partition" account:"$slurm_account" time-limit:"$slurm_time" \
    gpu-type:"$gpu_type" array-limit:"$array_limit" sbatch-option:"${sbatch_extra[*]}"; do
    [ -z "${option#*:}" ] || [ "${option#*:}" = 0 ] || [ "$engine" != local ] || usage_error "--${option%%:*} goes with --slurm"
  done
fi
[ "$engine" != slurm ] || [ -z "$gpus" ] || usage_error "--gpus is for this machine's GPUs; with --slurm, Slurm gives each task one"
[ "$engine" != slurm ] || command -v sbatch >/dev/null || { echo "grade_class.sh: --slurm needs sbatch (Slurm's client)" >&2; exit 1; }
handout=$(cd "$handout" && pwd)
submissions=$(cd "$submissions" && pwd)
if [ -n "$export_dir" ]; then
  export_slots "$export_dir"
  exit
fi
mapfile -t ids < <(submission_ids "$submissions")
[ ${#ids[@]} -gt 0 ] || { echo "grade_class.sh: $submissions holds no submissions" >&2; exit 1; }
# --only's ids, each checked before anything is made.
declare -A only_ids=()
if [ -n "$only" ]; then
  IFS=, read -r -a only_list <<<"$only"
  for id in "${only_list[@]}"; do
    [ -n "$id" ] || usage_error "--only: an empty id in '$only'"
    printf '%s\n' "${ids[@]}" | grep -qxF -- "$id" || usage_error "--only: $submissions holds no submission of '$id'"
    only_ids[$id]=1
  done
fi
mkdir -p -- "$out/students" 2>/dev/null || { echo "grade_class.sh: cannot create $out" >&2; exit 1; }
out=$(cd "$out" && pwd)
[ "$engine" = task ] || take_roster "$submissions" "$out" || exit 1
[ "$engine" != local ] || [ -n "$gpus" ] || gpus=$(list_gpus)
if [ "$engine" = local ] && [ -z "$gpus" ]; then
  echo "grade_class.sh: no GPU here (nvidia-smi $(command -v nvidia-smi >/dev/null && echo "lists none" || echo "is not installed")):" \
    "the grade needs one; --gpus none grades anyway, and every part that needs a GPU is not graded" >&2
  exit 1
fi
[ "$gpus" != none ] || gpus=""

progress() { [ "$quiet" = 1 ] || printf '[%4ss] %s\n' "$SECONDS" "$*" >&2; }


if [ "$engine" != task ] && [ "$engine" != collect ]; then
  class_maximum "$out"
  check_build_sandbox
  check_handout_refs "$gpus"
fi

case "$engine" in
  task) slurm_task "$task_list"; exit ;;
  collect)
    slurm_collect
    write_gradebook "$out" "${ids[@]}"
    write_summary "$out" "${ids[@]}"
    write_feedback "$out" "${ids[@]}"
    exit 0
    ;;
esac

stop_tidy=class_stopped
# shellcheck disable=SC2317  # run by stop_on_signals
class_stopped() {
  stop_note=": the submissions graded so far are in $out"
  slurm_cancel
}
stop_on_signals

# The queue: each free GPU (or the one slot without GPUs) takes the next
# submission; grade_one runs in the background with that GPU alone visible.
read -r -a slots <<<"${gpus//,/ }"
[ ${#slots[@]} -gt 0 ] || slots=(none)
declare -A running=()  # pid -> slot
free=("${slots[@]}")
while read -r slot cpus; do slot_cpus[$slot]=$cpus; done < <(share_cpus "${slots[@]}")
todo=()
for id in "${ids[@]}"; do
  if [ -n "$only" ]; then
    [ -z "${only_ids[$id]:-}" ] || todo+=("$id")
  elif [ "$force" = 0 ] && up_to_date "$out/students/$id" "$(submission_hash "$submissions" "$id")"; then
    progress "$id: graded already (unchanged)"
  else
    todo+=("$id")
  fi
done
if [ "$engine" = slurm ]; then
  if [ ${#todo[@]} -eq 0 ]; then
    progress "nothing new to grade"
    write_gradebook "$out" "${ids[@]}"
    write_summary "$out" "${ids[@]}"
    write_feedback "$out" "${ids[@]}"
    report_gradebook "$out"
    exit
  fi
  rm -f -- "$out/.slurm/retried"
  slurm_submit "${todo[@]}"
fi
total=${#todo[@]} done_count=0
for id in "${todo[@]}"; do
  if [ ${#free[@]} -eq 0 ]; then
    wait_any
    free+=("${running[$ended_pid]}")
    unset "running[$ended_pid]"
    done_count=$((done_count + 1))
  fi
  slot=${free[0]}
  free=("${free[@]:1}")
  progress "$id: grading ($((done_count + ${#running[@]} + 1))/$total${slot:+, GPU $slot})"
  grade_one "$id" "$slot" &
  running[$!]=$slot
done
while [ ${#running[@]} -gt 0 ]; do
  wait_any
  unset "running[$ended_pid]"
done

write_gradebook "$out" "${ids[@]}"
write_summary "$out" "${ids[@]}"
write_feedback "$out" "${ids[@]}"
report_gradebook "$out"
