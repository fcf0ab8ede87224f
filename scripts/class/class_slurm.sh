# shellcheck shell=bash
# shellcheck disable=SC2154  # grade_class.sh's settings
# grade_class.sh's Slurm engine: one array job with a task per submission
# (each task grades one submission with the GPU Slurm gave it), and a job
# that writes the gradebook once the array has ended. Sourced by
# scripts/class/grade_class.sh.

# slurm_command OUT_FILE MODE_ARGS...: a script that runs grade_class.sh
# with this run's settings and MODE_ARGS (--task-list FILE or --collect).
slurm_command() {
  local file=$1
  shift
  local -a cmd=("$script_dir/grade_class.sh" --handout "$handout" --out "$out" --timeout "$timeout_s"
    --grade-timeout "$grade_timeout_s" --slurm-gres "$slurm_gres" --lms-column "$lms_column" --quiet "$@")
  [ -z "$slurm_partition" ] || cmd+=(--partition "$slurm_partition")
  [ -z "$slurm_account" ] || cmd+=(--account "$slurm_account")
  [ -z "$slurm_time" ] || cmd+=(--time-limit "$slurm_time")
  [ -z "$gpu_type" ] || cmd+=(--gpu-type "$gpu_type")
  [ -z "$array_limit" ] || cmd+=(--array-limit "$array_limit")
  local option
  for option in "${sbatch_extra[@]}"; do cmd+=(--sbatch-option "$option"); done
  cmd+=("$submissions" -- "${grade_args[@]}")
  printf '#!/usr/bin/env bash\nexec %s\n' "$(printf '%q ' "${cmd[@]}")" >"$file"
  chmod +x "$file"
}

# slurm_options: sbatch's options for the account and partition, and the
# --sbatch-option ones, for both jobs.
slurm_options() {
  [ -z "$slurm_partition" ] || printf '%s\n' "--partition=$slurm_partition"
  [ -z "$slurm_account" ] || printf '%s\n' "--account=$slurm_account"
  [ ${#sbatch_extra[@]} -eq 0 ] || printf '%s\n' "${sbatch_extra[@]}"
}

# slurm_submit ID...: submits the array for these submissions and the
# collecting job; with --wait, follows them to the end.
slurm_submit() {
  local dir=$out/.slurm array_id collect_id
  local -a common gpu=()
  mkdir -p "$dir" || { echo "grade_class.sh: cannot create $dir" >&2; exit 1; }
  printf '%s\n' "$@" >"$dir/tasks"
  slurm_command "$dir/task.sh" --task-list "$dir/tasks"
  slurm_command "$dir/collect.sh" --collect
  mapfile -t common < <(slurm_options)
  if [ "$slurm_gres" != none ]; then gpu=(--gres="gpu:${gpu_type:+$gpu_type:}1"); fi
  [ -z "$slurm_time" ] || gpu+=(--time="$slurm_time")
  if ! array_id=$(sbatch --parsable --array="0-$(($# - 1))${array_limit:+%$array_limit}" --job-name=grade-class \
    --output="$dir/task-%A_%a.out" "${common[@]}" "${gpu[@]}" "$dir/task.sh" 2>"$dir/sbatch.err"); then
    echo "grade_class.sh: sbatch refused the array: $(head -n 1 "$dir/sbatch.err")" >&2
    exit 1
  fi
  array_id=${array_id%%;*}
  if ! collect_id=$(sbatch --parsable --dependency="afterany:$array_id" --job-name=grade-class-gradebook \
    --output="$dir/collect-%j.out" "${common[@]}" "$dir/collect.sh" 2>"$dir/sbatch.err"); then
    scancel "$array_id" 2>/dev/null
    echo "grade_class.sh: sbatch refused the gradebook job: $(head -n 1 "$dir/sbatch.err") (array $array_id cancelled)" >&2
    exit 1
  fi
  collect_id=${collect_id%%;*}
  slurm_jobs="$array_id,$collect_id"
  echo "$slurm_jobs" >"$dir/jobs"
  echo "Submitted to Slurm: array $array_id ($# submission$([ $# -eq 1 ] || echo s)), gradebook job $collect_id; results in $out"
  [ "$slurm_wait" = 1 ] || exit 0
  slurm_follow "$@"
}

# slurm_follow ID...: progress until the jobs in OUT/.slurm/jobs have left
# the queue (graded, running, queued), again for the jobs of a retry the
# gradebook job submitted, then the gradebook's verdict. The loop runs no
# command substitution: bash 5.2 loses a SIGINT trap that fires while one
# with a redirection runs ("interrupt trap: unexpected EOF while looking
# for matching `)'"), and Ctrl-C would not cancel the jobs. Files and read
# instead.
slurm_follow() {
  local dir=$out/.slurm jobs now graded running queued id job state last="" line failures=0
  while :; do
    read -r jobs <"$dir/jobs"
    # A busy controller may not answer at once: asked again, for a while.
    # Jobs it has forgotten (long finished) are not in the queue.
    if ! squeue -h -j "$jobs" -o '%i %T' >"$dir/squeue.out" 2>"$dir/squeue.err"; then
      if ! grep -q 'Invalid job id' "$dir/squeue.err"; then
        failures=$((failures + 1))
        if [ "$failures" -ge 60 ]; then
          read -r line <"$dir/squeue.err"
          echo "grade_class.sh: squeue keeps failing: $line (jobs $jobs left running)" >&2
          exit 1
        fi
        sleep 2 &
        wait $!
        continue
      fi
      : >"$dir/squeue.out"
    fi
    failures=0
    running=0 queued=0
    while read -r job state; do
      # Array tasks only (ID_TASK): the gradebook job is not a submission.
      [[ $job == *_* ]] || continue
      case "$state" in RUNNING) running=$((running + 1)) ;; PENDING) queued=$((queued + 1)) ;; esac
    done <"$dir/squeue.out"
    # Empty: done, unless the gradebook job submitted a retry meanwhile
    # (it writes the new jobs' ids before it ends).
    if [ ! -s "$dir/squeue.out" ]; then
      read -r now <"$dir/jobs"
      [ "$now" != "$jobs" ] || break
      continue
    fi
    slurm_jobs=$jobs
    graded=0
    for id in "$@"; do [ ! -f "$out/students/$id/status.tsv" ] || graded=$((graded + 1)); done
    line="graded $graded of $#, running $running, queued $queued"
    [ "$line" = "$last" ] || progress "$line"
    last=$line
    sleep 2 &
    wait $!
  done
  slurm_jobs=""
  [ -f "$out/gradebook.csv" ] || { echo "grade_class.sh: the gradebook job wrote no gradebook (see $out/.slurm)" >&2; exit 1; }
  report_gradebook "$out"
  exit
}

# slurm_task LIST: the array task's part: the submission on line
# SLURM_ARRAY_TASK_ID + 1 of LIST, on the GPU Slurm gave the task. Its
# output (the task's log) names the submission, the GPU and the status.
slurm_task() {
  local id
  [[ ${SLURM_ARRAY_TASK_ID:-} =~ ^[0-9]+$ ]] || { echo "grade_class.sh: --task-list runs inside a Slurm array task" >&2; exit 2; }
  id=$(sed -n "$((SLURM_ARRAY_TASK_ID + 1))p" "$1")
  [ -n "$id" ] || { echo "grade_class.sh: no submission for task $SLURM_ARRAY_TASK_ID in $1" >&2; exit 1; }
  echo "Task $SLURM_ARRAY_TASK_ID of array ${SLURM_ARRAY_JOB_ID:-?} on ${SLURMD_NODENAME:-?}: grading $id," \
    "CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES-unset}"
  grade_one "$id" "${CUDA_VISIBLE_DEVICES:-none}"
  echo "$id: $(awk -F '\t' 'NR == 2 { print $1 " (GPU: " $3 ")" }' "$out/students/$id/status.tsv" 2>/dev/null)"
}

# slurm_collect: the gradebook job's part. A submission of the task list
# whose task ended without a grade (killed by its node or its time limit)
# is submitted once more, in a new array with a new gradebook job; after
# that second chance its row says why it has no grade, and a later run
# tries it again.
slurm_collect() {
  local dir=$out/.slurm id
  local -a missing=()
  while read -r id; do
    [ -z "$id" ] || finished "$out/students/$id" "$(submission_hash "$submissions" "$id")" || missing+=("$id")
  done <"$dir/tasks"
  if [ ${#missing[@]} -gt 0 ] && [ ! -f "$dir/retried" ]; then
    : >"$dir/retried"
    echo "retrying the submissions whose task ended without a grade: ${missing[*]}"
    slurm_submit "${missing[@]}"
  fi
  for id in "${missing[@]}"; do
    rm -rf -- "$out/students/$id"
    mkdir -p "$out/students/$id"
    printf 'status\treason\tgpu\n%s\t%s\t%s\n' "not graded" \
      "its Slurm task ended twice without a grade (killed by its node or its time limit?): see $dir" unknown \
      >"$out/students/$id/status.tsv"
  done
}

# slurm_cancel: what a stopped --wait leaves: its jobs cancelled.
slurm_jobs=""
slurm_cancel() {
  [ -n "$slurm_jobs" ] || return 0
  local -a jobs
  IFS=, read -r -a jobs <<<"$slurm_jobs"
  scancel "${jobs[@]}" 2>/dev/null
  stop_note="$stop_note; cancelled the Slurm jobs $slurm_jobs"
}
