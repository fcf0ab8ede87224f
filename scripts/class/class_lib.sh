# shellcheck shell=bash
# shellcheck disable=SC2154  # grade_class.sh's settings: handout, submissions, out, timeouts, grade_args
# grade_class.sh's jobs: finding the submissions, grading one in its own
# copy of the handout, and the gradebook and summary made from the
# students' folders. Sourced by scripts/class/grade_class.sh.

# grade_lib.sh's rules for text (one_line, markdown_text) and CSV cells
# (GRADE_CSV_AWK), shared with grade.sh's writers.
# shellcheck source=scripts/grade_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../grade_lib.sh" || return 1

# The slot files a submission hands in, by name.
CLASS_SLOT_FILES=(saxpy/student/student_saxpy.cu scan/student/student_scan.cu render/student/student_renderer.cu)
# The handout's targets grade.sh runs with --no-build.
CLASS_TARGETS=(judge judge_calibration_worker scan_worker render_worker saxpy_worker)
# The parts that score (the gradebook takes each one's maximum from its rows).
CLASS_PARTS=(scan find_repeats render)
# A submitted file larger than this is refused (bytes).
CLASS_MAX_FILE_BYTES=4194304
# The most seconds one read of a submission may take (a listing, a file
# hashed or taken out of a zip): a slow or hostile one stalls no class.
CLASS_READ_TIMEOUT_S=60

# list_gpus: the indices nvidia-smi lists, comma-separated; nothing
# without GPUs.
list_gpus() {
  command -v nvidia-smi >/dev/null || return 0
  nvidia-smi --query-gpu=index --format=csv,noheader 2>/dev/null | tr -d ' ' | grep -E '^[0-9]+$' | paste -sd, -
}

# gpu_name SLOT: the GPU's name ("none" without one).
gpu_name() {
  if [ "$1" = none ] || ! command -v nvidia-smi >/dev/null; then
    echo none
    return
  fi
  local name
  # Without a device nvidia-smi prints "No devices were found" (status 6).
  if name=$(nvidia-smi -i "$1" --query-gpu=name --format=csv,noheader 2>/dev/null) && [ -n "$name" ]; then
    head -n 1 <<<"$name" | tr ',' ' '
  else
    echo none
  fi
}

# submission_ids DIR: the student ids of DIR's submissions, sorted: each
# folder, and each .zip without its extension. Other names are said and
# left out.
submission_ids() {
  local entry name
  for entry in "$1"/*; do
    [ -e "$entry" ] || continue
    name=$(basename "$entry")
    [ "$name" != roster.tsv ] || continue # import_submissions.sh's (class_roster.sh)
    if [ -d "$entry" ] && [ ! -L "$entry" ]; then :
    elif [ -f "$entry" ] && [[ $name == *.zip ]]; then name=${name%.zip}
    else echo "grade_class.sh: $entry is not a folder or a .zip: left out" >&2; continue; fi
    if [[ ! $name =~ ^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$ ]]; then
      echo "grade_class.sh: '$name' is not a student id (letters, digits, . _ -): left out" >&2
      continue
    fi
    echo "$name"
  done | LC_ALL=C sort -u
}

# submission_path DIR ID: the folder or zip of that student.
submission_path() { if [ -d "$1/$2" ]; then echo "$1/$2"; else echo "$1/$2.zip"; fi; }

# bounded COMMAND...: COMMAND reading a submission, with no terminal (a
# session of its own, stdin /dev/null: unzip's password prompt fails at
# once instead of waiting on /dev/tty) and at most CLASS_READ_TIMEOUT_S
# seconds (124 past it).
bounded() { timeout -k 5 "$CLASS_READ_TIMEOUT_S" setsid -w "$@" </dev/null; }

# submission_hash DIR ID: a hash of what take_files would take of the
# submission, so a re-run sees when the graded files change: each slot file
# found by name, its path and its first CLASS_MAX_FILE_BYTES + 1 bytes (a
# symbolic link: where it points; in a zip, also the entry's listing, which
# says whether it is encrypted). Nothing else of the submission is read: a
# huge file beside the slots costs nothing, and every read is bounded.
submission_hash() {
  local path name entry
  path=$(submission_path "$1" "$2")
  for name in "${CLASS_SLOT_FILES[@]##*/}"; do
    if [ -d "$path" ]; then
      while IFS= read -r -d '' entry; do
        printf '%s\0' "$entry"
        if [ -L "$path/$entry" ]; then
          printf 'link to %s\0' "$(readlink -- "$path/$entry")"
        else
          bounded head -c "$((CLASS_MAX_FILE_BYTES + 1))" -- "$path/$entry" | sha256sum
        fi
      done < <(cd "$path" && bounded find . -name "$name" \( -type f -o -type l \) -print0 | LC_ALL=C sort -z)
    else
      while IFS= read -r entry; do
        printf '%s\0' "$entry"
        # A name with a wildcard (take_files refuses it) would match others.
        [[ $entry != *[\[\]\*\?]* ]] || continue
        bounded unzip -Z -v "$path" "$entry" 2>/dev/null | grep -E '^ *(file security status|32-bit CRC value|uncompressed size):'
        bounded unzip -p "$path" "$entry" 2>/dev/null | head -c "$((CLASS_MAX_FILE_BYTES + 1))" | sha256sum
      done < <(zip_entries "$path" "$name")
    fi
  done | sha256sum | cut -c1-32
}

# zip_entries ZIP NAME: the entries of ZIP whose file name is NAME, one a
# line, as unzip lists them.
zip_entries() {
  bounded unzip -Z1 "$1" 2>/dev/null | awk -v n="$2" '{ m = $0; sub(/.*\//, "", m) } m == n'
}

# finished DIR HASH: whether the student's folder holds the outcome of
# exactly that submission (whatever it was).
finished() { [ -f "$1/status.tsv" ] && [ -f "$1/hash" ] && [ "$(cat "$1/hash")" = "$2" ]; }

# up_to_date DIR HASH: finished, and nothing left to grade: a submission
# the grader could not grade (no GPU, no reference, a task killed, a grade
# past --grade-timeout, which the grade's own --time-limit should have
# ended) is tried again. A slow submission is no such case: its rows past
# the time limit are graded "time limit" (class_time_limit).
up_to_date() {
  finished "$1" "$2" && awk -F '\t' 'NR == 2 { exit !($1 != "not graded") }' "$1/status.tsv"
}

# class_time_limit: grade.sh's --time-limit in a class: nine tenths of
# --grade-timeout (at least 1 s), so that a slow submission's grade ends
# its rows as "time limit" and is graded, before the class's limit stops
# it as the grader's failure.
class_time_limit() {
  local limit=$((grade_timeout_s * 9 / 10))
  echo $((limit < 1 ? 1 : limit))
}

# take_files DIR ID DEST: copies the slot files the submission holds into
# DEST (flat, by name). Prints one problem line and fails when a file is
# there twice, is not a regular file, is too large, or in a zip is
# encrypted or cannot be read; a missing one is left out (the handout's
# own stays, and fails its checks). Every read is bounded: no prompt, no
# wait past CLASS_READ_TIMEOUT_S.
take_files() {
  local path name matches count entry status
  path=$(submission_path "$1" "$2")
  mkdir -p "$3"
  for name in "${CLASS_SLOT_FILES[@]##*/}"; do
    if [ -d "$path" ]; then
      matches=$(bounded find "$path" -name "$name" \( -type f -o -type l \))
      count=$(grep -c . <<<"$matches")
      [ "$count" -gt 0 ] || continue
      [ "$count" -eq 1 ] || { echo "$count files named $name"; return 1; }
      if [ ! -f "$matches" ] || [ -L "$matches" ]; then
        echo "$name is not a regular file"
        return 1
      fi
      # Too large is refused before the copy fills a disk, and the copy is
      # checked again: the file may change after find saw it.
      [ "$(stat -c %s -- "$matches")" -le "$CLASS_MAX_FILE_BYTES" ] || { echo "$name is larger than $CLASS_MAX_FILE_BYTES bytes"; return 1; }
      cp -P -- "$matches" "$3/$name" || { echo "$name could not be copied"; return 1; }
      if [ ! -f "$3/$name" ] || [ -L "$3/$name" ]; then
        echo "$name is not a regular file"
        return 1
      fi
      [ "$(stat -c %s "$3/$name")" -le "$CLASS_MAX_FILE_BYTES" ] || { echo "$name is larger than $CLASS_MAX_FILE_BYTES bytes"; return 1; }
    else
      matches=$(zip_entries "$path" "$name")
      count=$(grep -c . <<<"$matches")
      [ "$count" -gt 0 ] || continue
      [ "$count" -eq 1 ] || { echo "$count files named $name"; return 1; }
      entry=$matches
      # unzip -p treats names as patterns: brackets would match others.
      [[ $entry != *[\[\]\*\?]* ]] || { echo "$name: its path in the zip holds a wildcard character"; return 1; }
      # An encrypted entry is refused: unzip would ask for its password
      # (bounded gives it no terminal, so it would read as empty).
      if bounded unzip -Z -v "$path" "$entry" 2>/dev/null | grep -q '^ *file security status: *encrypted'; then
        echo "$name is encrypted in the zip: hand it in without a password"
        return 1
      fi
      bounded unzip -p "$path" "$entry" 2>/dev/null | head -c "$((CLASS_MAX_FILE_BYTES + 1))" >"$3/$name"
      status=${PIPESTATUS[0]}
      [ "$(stat -c %s "$3/$name")" -le "$CLASS_MAX_FILE_BYTES" ] || { echo "$name is larger than $CLASS_MAX_FILE_BYTES bytes"; return 1; }
      # (1: unzip's warning, the file read whole all the same.)
      [ "$status" -le 1 ] || { echo "$name could not be read from the zip (unzip: status $status)"; return 1; }
    fi
  done
}

# launch_as_comment: stdin to stdout with each kernel launch's <<<...>>>
# made a comment, so C++ parsers take CUDA code.
launch_as_comment() { perl -0pe 's{<<<(.*?)>>>}{/*<<<$1>>>*/}gs'; }

# export_slots DIR: the slot files of every submission, as grading takes
# them, in DIR/students/ID/, and the handout's in DIR/base/ (a checker's
# base code), as C++ a plagiarism checker parses (MOSS, JPlag, Dolos):
# NAME.cpp, each <<<...>>> a comment. A refused submission is said on
# stderr and left out.
export_slots() {
  local dir=$1 id name file problem count=0
  mkdir -p "$dir/base" "$dir/students" || { echo "grade_class.sh: cannot create $dir" >&2; return 1; }
  for name in "${CLASS_SLOT_FILES[@]}"; do
    file=${name##*/}
    launch_as_comment <"$handout/$name" >"$dir/base/${file%.cu}.cpp"
  done
  while read -r id; do
    rm -rf -- "$dir/students/$id" "$dir/students/.$id.new"
    if ! problem=$(take_files "$submissions" "$id" "$dir/students/.$id.new"); then
      echo "grade_class.sh: $id: refused ($problem): left out of the export" >&2
      rm -rf -- "$dir/students/.$id.new"
      continue
    fi
    mkdir -p "$dir/students/$id"
    for file in "$dir/students/.$id.new"/*.cu; do
      [ -f "$file" ] || continue
      name=${file##*/}
      launch_as_comment <"$file" >"$dir/students/$id/${name%.cu}.cpp"
    done
    rm -rf -- "$dir/students/.$id.new"
    count=$((count + 1))
  done < <(submission_ids "$submissions")
  echo "Slot files of $count students in $dir/students, the handout's in $dir/base (base code)"
}

# finish_student DIR STATUS REASON HASH GPU: writes the student's status
# and moves the new folder into place (a reader never sees half a grade).
finish_student() {
  local dir=$1
  printf 'status\treason\tgpu\n%s\t%s\t%s\n' "$2" "$(one_line "$3")" "$5" >"$dir.new/status.tsv"
  echo "$4" >"$dir.new/hash"
  rm -rf -- "$dir"
  mv -- "$dir.new" "$dir"
}

# The box every submission is built in (scripts/build_box.sh: an allowlist
# view, limits on memory, files, /tmp, time and output), the grader's own
# copy, not the handout's.
CLASS_BUILD_BOX=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/build_box.sh
# What of a build's output a student gets back (bytes, its end).
CLASS_FEEDBACK_BUILD_BYTES=65536

# check_build_sandbox: the class is refused (one line, exit 1) where the
# build's sandbox cannot be made, before anyone is built.
check_build_sandbox() {
  local problem
  problem=$(build_sandbox_problem)
  [ -z "$problem" ] || { echo "grade_class.sh: $problem" >&2; exit 1; }
}

# build_sandbox_problem: why this machine cannot make the builds' sandbox,
# in one line, or nothing.
build_sandbox_problem() {
  "$CLASS_BUILD_BOX" --check 2>&1 >/dev/null | sed 's/^build_box.sh: //' | head -n 1
}

# student_build_log LOG WORK: the end of the build's output LOG as the
# student gets it back: the grading machine's folders (the work copy, the
# class's) named as the handout's own paths or not at all.
student_build_log() {
  tail -c "$CLASS_FEEDBACK_BUILD_BYTES" -- "$1" |
    WORK="$2/handout" OUT="$out" perl -pe 's/\Q$ENV{WORK}\E\/?//g; s/\Q$ENV{OUT}\E\/?/<class>\//g'
}

# cpu_list: the CPUs this process may run on, one a line (from
# /proc/self/status; nothing where that is unknown).
cpu_list() {
  local list part
  list=$(awk '/^Cpus_allowed_list:/ { print $2 }' /proc/self/status 2>/dev/null)
  for part in ${list//,/ }; do
    if [[ $part =~ ^([0-9]+)-([0-9]+)$ ]]; then seq "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}"
    elif [[ $part =~ ^[0-9]+$ ]]; then echo "$part"; fi
  done
}

declare -A slot_cpus=()  # slot -> its CPUs, where grade_class.sh shares them

# share_cpus SLOT...: "SLOT CPUS" a line, CPUS (comma-separated) the slot's
# own share of cpu_list, so that submissions graded at once build and time
# on cores of their own; nothing for one slot, or fewer CPUs than slots.
share_cpus() {
  local -a cpus slots=("$@")
  local n=$# c i from to
  mapfile -t cpus < <(cpu_list)
  c=${#cpus[@]}
  [ "$n" -gt 1 ] && [ "$c" -ge "$n" ] && command -v taskset >/dev/null || return 0
  for ((i = 0; i < n; i++)); do
    from=$((i * c / n)) to=$(((i + 1) * c / n))
    printf '%s %s\n' "${slots[$i]}" "$(IFS=,; echo "${cpus[*]:from:to-from}")"
  done
}

# grade_one ID SLOT: grades one submission in a copy of the handout, with
# only GPU SLOT visible ("none": no GPU); its folder in OUT/students/ID.
# Run in the background: a signal to it stops its build or grade at once
# (run_lib.sh's programs lead process groups of their own) and leaves no
# half-made folder.
grade_one() {
  local id=$1 slot=$2 dir=$out/students/$1 work hash problem file status reason gpu
  # shellcheck disable=SC2317  # run by the trap
  stop_grade() {
    local pid
    for pid in $(jobs -p); do kill -TERM "$pid" 2>/dev/null; done
    wait 2>/dev/null
    rm -rf -- "$dir.new" "$work"
    exit 143
  }
  trap stop_grade TERM INT HUP
  hash=$(submission_hash "$submissions" "$id")
  gpu=$(gpu_name "$slot")
  work=$(mktemp -d "$out/.work-$id.XXXXXX") || return 1
  rm -rf -- "$dir.new"
  mkdir -p "$dir.new/logs"
  # A machine (a Slurm node) that cannot make the sandbox grades nobody: the
  # submission is not graded, and tried again on the next run.
  problem=$(build_sandbox_problem)
  if [ -n "$problem" ]; then
    finish_student "$dir" "not graded" "${SLURMD_NODENAME:-$(uname -n)}: $problem" "$hash" "$gpu"
    rm -rf -- "$work"
    return
  fi
  # The handout as handed out: no build, no earlier results.
  cp -a -- "$handout/." "$work/handout" &&
    rm -rf -- "$work"/handout/build* "$work/handout/grade-results"
  if ! problem=$(take_files "$submissions" "$id" "$work/submitted"); then
    finish_student "$dir" "refused" "$problem" "$hash" "$gpu"
    rm -rf -- "$work"
    return
  fi
  for file in "${CLASS_SLOT_FILES[@]}"; do
    [ ! -f "$work/submitted/${file##*/}" ] || cp -- "$work/submitted/${file##*/}" "$work/handout/$file"
  done
  # The slot's own CPUs (share_cpus), for the build and the grade alike.
  local -a pin=()
  [ -z "$slot" ] || [ -z "${slot_cpus[$slot]:-}" ] || pin=(taskset -c "${slot_cpus[$slot]}")
  # Built in the box: it sees its copy of the handout (without ref/) read
  # only, writes build/, and sees the compilers and the system's libraries,
  # nothing else of this machine.
  mkdir -p -- "$work/handout/build"
  # shellcheck disable=SC2016  # expanded by that shell
  run_program_in "$work/handout" "$timeout_s" "${pin[@]}" "$CLASS_BUILD_BOX" --read "$work/handout" \
    --work "$work/handout/build" --chdir "$work/handout" --hide "$work/handout/ref" --time-limit "$timeout_s" --log "$dir.new/logs/build.log" -- \
    bash -c 'cmake --preset default && cmake --build --preset default --target "$@"' \
    build "${CLASS_TARGETS[@]}" </dev/null
  status=$?
  student_build_log "$dir.new/logs/build.log" "$work" >"$dir.new/build.log"
  if [ "$status" -ne 0 ]; then
    reason=$(grep -m 1 -E 'error|build_box.sh:' "$dir.new/build.log" || tail -n 1 "$dir.new/build.log")
    finish_student "$dir" "build failed" "$reason" "$hash" "$gpu"
    rm -rf -- "$work"
    return
  fi
  local -a env=()
  [ "$slot" = none ] || env=(CUDA_VISIBLE_DEVICES="$slot")
  run_program_in "$work/handout" "$grade_timeout_s" "${pin[@]}" env "${env[@]}" scripts/grade.sh all --no-build --bin-dir build/bin \
    --logs "$dir.new/logs/grade" --timeout "$timeout_s" --time-limit "$(class_time_limit)" --quiet \
    --secret-file "$out/judge-secret" "${grade_args[@]}" \
    >"$dir.new/grade.out" 2>"$dir.new/logs/grade.err" </dev/null
  status=$?
  # What grade.sh said names its logs where they were made; they end up in
  # the student's folder.
  # (perl: the logs as bytes, whatever they hold; the path taken literally.)
  FROM="$dir.new/" TO="$dir/" perl -pi -e 's/\Q$ENV{FROM}\E/$ENV{TO}/g' -- \
    "$dir.new/grade.out" "$dir.new/logs/grade.err"
  for file in results.md results.json scores.csv scores.tsv not_graded.tsv; do
    [ ! -f "$dir.new/logs/grade/$file" ] || cp -- "$dir.new/logs/grade/$file" "$dir.new/$file"
  done
  if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    finish_student "$dir" "not graded" "the grade ran past $grade_timeout_s s (--grade-timeout)" "$hash" "$gpu"
  elif [ ! -f "$dir.new/scores.tsv" ]; then
    finish_student "$dir" "not graded" "$(tail -n 1 "$dir.new/logs/grade.err")" "$hash" "$gpu"
  elif [ "$status" -eq 0 ] || [ "$status" -eq 1 ]; then
    reason=$(awk -F '\t' 'NR > 1 { printf "%s%s: %s", sep, $1, $2; sep = "; " }' "$dir.new/not_graded.tsv" 2>/dev/null)
    # A scoring part the grader could not grade (no GPU, no reference) is
    # no zero of the student's: the submission is not graded, and retried.
    if awk -F '\t' -v parts=" ${CLASS_PARTS[*]} " 'NR > 1 && index(parts, " " $1 " ") { found = 1 } END { exit !found }' \
      "$dir.new/not_graded.tsv" 2>/dev/null; then
      finish_student "$dir" "not graded" "$reason" "$hash" "$gpu"
    else
      finish_student "$dir" graded "$reason" "$hash" "$gpu"
    fi
  else
    finish_student "$dir" "not graded" "grade.sh exited with status $status" "$hash" "$gpu"
  fi
  rm -rf -- "$work"
}

# part_scores DIR MAXIMUM: "part score max" for each scoring part of the
# student's scores.tsv; max is the part's in MAXIMUM (grade.sh --maximum's
# lines), the same for every student whatever happened to this one (the
# rows' own where MAXIMUM is missing, as in a class graded before it).
part_scores() {
  local part max
  for part in "${CLASS_PARTS[@]}"; do
    max=$(awk -F '\t' -v part="$part" '$1 == part { print $2 }' "$2" 2>/dev/null)
    awk -F '\t' -v part="$part" -v max="$max" 'NR > 1 && $1 == part { s += $9; m += $10 }
      END { printf "%s %.3f %.3f\n", part, s, (max != "" ? max : m) }' "$1/scores.tsv" 2>/dev/null ||
      echo "$part 0 ${max:-0}"
  done
}

# class_maximum OUT: OUT/maximum.tsv, each scoring part's most points for
# the grade's options (grade.sh --maximum in the handout), found before any
# student is built, so a mistake in those options stops the class at once
# (exit 2, with grade.sh's line).
class_maximum() {
  if ! "$handout/scripts/grade.sh" all --maximum "${grade_args[@]}" >"$1/maximum.tsv.new" 2>"$1/.maximum.err"; then
    echo "grade_class.sh: the options after --: $(tail -n 1 "$1/.maximum.err")" >&2
    rm -f -- "$1/maximum.tsv.new" "$1/.maximum.err"
    exit 2
  fi
  rm -f -- "$1/.maximum.err"
  mv -f -- "$1/maximum.tsv.new" "$1/maximum.tsv"
  # The class's secret, which the judge mixes with the seed: kept with the
  # class, so a regrade with the same seed gives the same inputs.
  [ -s "$1/judge-secret" ] || (umask 077 && head -c 32 /dev/urandom >"$1/judge-secret")
}

# check_handout_refs GPUS: the class is refused (one line, exit 1) where
# the handout cannot time the references it grades against: a reference
# worker missing from ref/.bin (a handout made with --no-refs), unless the
# grade's options name a reference of their own for that part; or, where
# cuobjdump and nvidia-smi can tell, one built for none of GPUS
# (comma-separated indices) and without PTX the driver could compile for it
# (a worker that is no ELF program, such as a script standing in for one,
# cannot be told).
check_handout_refs() {
  local worker path gpu cap
  for worker in judge_scan_reference judge_render_reference; do
    # A reference the options name instead (a program or a worker).
    case "$worker: ${grade_args[*]} " in
      judge_scan_*" --ref-scan"[=\ ]* | judge_scan_*" --ref-worker"[=\ ]*) continue ;;
      judge_render_*" --ref-render"[=\ ]* | judge_render_*" --ref-render-worker"[=\ ]*) continue ;;
    esac
    path=$handout/ref/.bin/$worker
    if [ ! -x "$path" ]; then
      echo "grade_class.sh: the handout has no reference worker ref/.bin/$worker: make it again without --no-refs (make_handout.sh builds them)" >&2
      exit 1
    fi
    if ! command -v cuobjdump >/dev/null || ! command -v nvidia-smi >/dev/null; then continue; fi
    [ -n "$(elf_machine "$path")" ] || continue # grade_lib.sh's
    for gpu in ${1//,/ }; do
      cap=$(nvidia-smi -i "$gpu" --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | tr -d ' .')
      [[ $cap =~ ^[0-9]+$ ]] || continue
      runs_on "$path" "$cap" && continue
      echo "grade_class.sh: the handout's ref/.bin/$worker has no code for GPU $gpu (sm_$cap): make the handout again for it (make_handout.sh --cuda-archs)" >&2
      exit 1
    done
  done
}

# runs_on PROGRAM SM: whether PROGRAM's device code runs on compute
# capability SM (e.g. 90): a cubin of the same major version no newer than
# it, or PTX no newer than it.
runs_on() {
  # Either listing may be empty or fail (no PTX): only awk's verdict counts.
  { cuobjdump --list-elf "$1" || true; cuobjdump --list-ptx "$1" || true; } 2>/dev/null |
    awk -v sm="$2" 'match($0, /sm_[0-9]+/) {
        a = substr($0, RSTART + 3, RLENGTH - 3) + 0
        if (/ELF file/ && int(a / 10) == int(sm / 10) && a <= sm) ok = 1
        if (/PTX file/ && a <= sm) ok = 1
      }
      END { exit !ok }'
}

# write_gradebook OUT ID...: OUT/gradebook.csv, one row per student: the
# id, each scoring part's points, the total and its maximum, the status and
# the GPU that graded it; and the roster's gradebooks (class_roster.sh).
write_gradebook() {
  local out=$1 id dir
  shift
  {
    printf 'student_id'
    printf ',%s' "${CLASS_PARTS[@]}"
    printf ',total,max_total,status,gpu\n'
    for id in "$@"; do
      dir=$out/students/$id
      part_scores "$dir" "$out/maximum.tsv" | awk -v id="$id" -v status="$(awk -F '\t' 'NR == 2 { print $1 }' "$dir/status.tsv" 2>/dev/null)" \
        -v gpu="$(awk -F '\t' 'NR == 2 { print $3 }' "$dir/status.tsv" 2>/dev/null)" '
        { line = line "," ($2 + 0); total += $2; max += $3 }
        END {
          if (status == "") status = "not graded"
          printf "%s%s,%g,%g,%s,\"%s\"\n", id, line, total, max, status, gpu
        }'
    done
  } >"$out/gradebook.csv.tmp" && mv -f -- "$out/gradebook.csv.tmp" "$out/gradebook.csv" &&
    write_roster_books "$out" "$lms_column"
}

# write_feedback OUT ID...: OUT/feedback/ID.zip for each student graded
# or refused: their folder (results, status, the logs with the judge's
# pictures of a wrong frame) to hand back as it is. Without zip, one line
# on stderr and none.
write_feedback() {
  local out=$1 id
  shift
  command -v zip >/dev/null || { echo "grade_class.sh: zip is not installed: no feedback bundles" >&2; return 0; }
  mkdir -p "$out/feedback" || return 0
  for id in "$@"; do
    [ -f "$out/students/$id/status.tsv" ] || continue
    rm -f -- "$out/feedback/.$id.zip.new"
    # The build's output as the staff's log holds it (logs/build.log) stays
    # with the staff; the student's (build.log) is its end, paths removed.
    if (cd "$out/students" && zip -qr "$out/feedback/.$id.zip.new" "$id" -x "$id/hash" "$id/logs/build.log"); then
      mv -f -- "$out/feedback/.$id.zip.new" "$out/feedback/$id.zip"
    else
      rm -f -- "$out/feedback/.$id.zip.new"
      echo "grade_class.sh: $id: the feedback bundle could not be written" >&2
    fi
  done
}

# write_summary OUT ID...: OUT/summary.md: the statuses, each part's score
# distribution, who was not graded and why, which GPU graded whom; and a
# chart of each part's and the totals' distribution (summary.png) where
# gnuplot is installed.
write_summary() {
  local out=$1 book=$1/gradebook.csv
  shift
  {
    echo "# Class summary"
    echo
    echo "$# submissions, from the gradebook ($book)."
    echo
    echo "| status | students |"
    echo "|---|---|"
    awk -F, 'NR > 1 { n[$(NF - 1)]++ } END { for (s in n) print "| " s " | " n[s] " |" }' "$book" | sort
    echo
    echo "| part | mean | lowest | highest |"
    echo "|---|---|---|---|"
    awk -F, 'NR == 1 { for (i = 2; i < NF - 3; i++) name[i] = $i; last = NF - 4; next }
      $(NF - 1) == "graded" { rows++; for (i = 2; i <= last + 1; i++) { s[i] += $i; if (rows == 1 || $i < lo[i]) lo[i] = $i; if (rows == 1 || $i > hi[i]) hi[i] = $i } }
      END { for (i = 2; i <= last + 1; i++) { n = (i == last + 1) ? "total" : name[i]; if (rows) printf "| %s | %.2f | %g | %g |\n", n, s[i] / rows, lo[i], hi[i] } }' "$book"
    echo
    echo "Not graded, refused or failing to build:"
    echo
    # The reason may carry the student's words (grade.sh's not-graded
    # reason, the compiler's line): Markdown text (markdown_text).
    local id row reason
    for id in "$@"; do
      row=$(awk -F '\t' 'NR == 2 && $1 != "graded" { print $1 "\t" $2 }' "$out/students/$id/status.tsv" 2>/dev/null)
      [ -n "$row" ] || continue
      reason=${row#*$'\t'}
      printf -- '- %s: %s%s\n' "$id" "${row%%$'\t'*}" "${reason:+ ($(markdown_text "$reason"))}"
    done
    echo
    echo "GPU per student:"
    echo
    awk -F, 'NR > 1 { gsub(/"/, "", $NF); print "- " $1 ": " $NF }' "$book"
  } >"$out/summary.md"
  command -v gnuplot >/dev/null || return 0
  # One histogram per scoring part and one of the totals, graded rows only,
  # each bar a tenth of the highest points in that column.
  local i plots="" n=${#CLASS_PARTS[@]} title col width
  # Whole students on the axis where a class is small enough to count them.
  local ytics=""
  [ "$#" -gt 10 ] || ytics="set ytics 1;"
  for ((i = 0; i <= n; i++)); do
    title=total col=$((n + 2))
    [ "$i" -eq "$n" ] || { title=${CLASS_PARTS[$i]}; col=$((i + 2)); }
    width=$(awk -F, -v c="$col" 'NR > 1 && $c > m { m = $c } END { print (m > 0 ? m / 10 : 1) }' "$book")
    plots+="set title '$title'; set boxwidth $width * 0.9;
      plot '$book' every ::1 using (strcol($((n + 4))) eq 'graded' ? $width * floor(column($col) / $width) + $width / 2.0 : NaN):(1.0) smooth freq with boxes notitle;
"
  done
  gnuplot -e "set terminal png size $((320 * (n + 1))),320 noenhanced; set output '$out/summary.png';
    set datafile separator ','; set style fill solid 0.5; set ylabel 'students'; set xrange [0:*]; set yrange [0:*]; $ytics
    set multiplot layout 1,$((n + 1)); $plots unset multiplot" >"$out/.gnuplot.log" 2>&1 &&
    printf '\n![each part and the totals](summary.png)\n' >>"$out/summary.md"
  rm -f -- "$out/.gnuplot.log"
}

# report_gradebook OUT: where the results are; fails when some student was
# not graded (the gradebook's status column says who).
report_gradebook() {
  echo "Gradebook: $1/gradebook.csv; summary: $1/summary.md; a folder per student in $1/students"
  awk -F, 'NR > 1 && $(NF - 1) != "graded" { bad = 1 } END { exit bad }' "$1/gradebook.csv"
}
