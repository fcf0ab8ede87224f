#!/usr/bin/env bash
# Turns a course platform's export of submissions into grade_class.sh's
# SUBMISSIONS folder: a folder per student, named by the student's id,
# with the files they handed in, and a roster (roster.tsv) that the
# class's gradebook joins: names, emails, submission times, lateness.
#
# Usage: scripts/class/import_submissions.sh --from gradescope|canvas [--due TIME] EXPORT OUT
#   EXPORT        the export as downloaded: a .zip, or the folder it unpacks to
#     gradescope  "Export Submissions": submission_metadata.yml and a folder
#                 per submission (submission_NNN/), at the export's top or
#                 in its one folder (one in both is refused; one deeper,
#                 inside a submission, is the student's file). The id is
#                 the first submitter's SID, else the submission folder's
#                 name; a group's submission is graded once, and the roster
#                 lists every member with it (a later member without a SID
#                 of their own gets FOLDER-N, N their place in the group,
#                 said). Two submissions claiming one id (alike but for
#                 letter case is one id) are both left out, said: their
#                 roster rows have no submission.
#     canvas      "Download Submissions": a file per file handed in, named
#                 LOGIN_[LATE_]USERID_SUBMISSIONID_NAME (Canvas numbers a
#                 resubmitted NAME as NAME-1, NAME-2 before its extension:
#                 the number is taken off, unless two of a student's names
#                 would then meet: both keep Canvas's). The id is the
#                 Canvas user id;
#                 lateness is Canvas's LATE mark. A student whose one file is
#                 a .zip is imported as that zip. A NAME of "." or ".." is
#                 left out, said.
#   OUT           the SUBMISSIONS folder to make (it must not exist)
#   --due TIME    the due time, in any form `date -d` reads ("2026-12-01
#                 23:59 -0800"): a Gradescope submission's lateness is its
#                 time past it
#   -h, --help    this text
# Writes OUT/ID/ per student (regular files only; anything else is left out
# and said on stderr, the names from the export printed without their
# control characters) and OUT/roster.tsv: id, submission (the id it is
# graded under), name, email, submitted_at, late (yes, no or unknown),
# late_by_s, platform (gradescope or canvas). Nothing is left behind when
# the import fails. The forms are those the platforms document;
# docs/instructors.md says what was checked.
# Exit status: 0 imported, 1 the export is not of that form, 2 usage.
set -uo pipefail
script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/options_lib.sh
source "$script_dir/../options_lib.sh"
# shellcheck source=scripts/class/class_lib.sh
source "$script_dir/class_lib.sh" # one_line: what a student named, fit for a terminal

from="" due="" args=()
while [ $# -gt 0 ]; do
  if [[ $1 == --*=* ]]; then set -- "${1%%=*}" "${1#*=}" "${@:2}"; fi
  case "$1" in
    --from) need_value "$@"; from=$2; shift ;;
    --due) need_value "$@"; due=$2; shift ;;
    -h | --help) show_help; exit 0 ;;
    -*) usage_error "unknown option '$1'" ;;
    *) args+=("$1") ;;
  esac
  shift
done
case "$from" in
  gradescope | canvas) ;;
  "") usage_error "needs --from gradescope or --from canvas" ;;
  *) usage_error "--from: '$from' is not gradescope or canvas" ;;
esac
[ ${#args[@]} -eq 2 ] || usage_error "needs EXPORT and OUT"
export_path=${args[0]} out=${args[1]}
[ -e "$export_path" ] || usage_error "EXPORT: '$export_path' does not exist"
if [ -e "$out" ] || [ -L "$out" ]; then usage_error "OUT: '$out' exists (the import makes it)"; fi
due_s=""
if [ -n "$due" ]; then
  [ "$from" = gradescope ] || usage_error "--due goes with --from gradescope (Canvas marks lateness itself)"
  due_s=$(date -d "$due" +%s 2>/dev/null) || usage_error "--due: '$due' is not a time date reads"
fi

# fail MESSAGE: one line on stderr (a file or folder name in it may be a
# student's, so control characters go), exit 1.
fail() {
  echo "import_submissions.sh: $(one_line "$1")" >&2
  exit 1
}

# say MESSAGE: the same, and the import goes on.
say() { echo "import_submissions.sh: $(one_line "$1")" >&2; }

# Everything is made in a folder beside OUT and renamed at the end: a
# failed import leaves nothing.
work=$(mktemp -d "$(dirname -- "$out")/.import.XXXXXX" 2>/dev/null) ||
  fail "cannot write beside '$out'"
trap 'rm -rf -- "$work"' EXIT
mkdir "$work/out"

source_dir=$export_path
if [ -f "$export_path" ]; then
  command -v unzip >/dev/null || fail "unzip is not installed: unzip the export yourself, or install unzip"
  unzip -q "$export_path" -d "$work/export" 2>"$work/unzip.err" ||
    fail "'$export_path' is not a zip that unzip can read: $(head -n 1 "$work/unzip.err")"
  source_dir=$work/export
fi

# copy_files FROM TO: FROM's regular files into TO, their folders kept;
# links and other special files are said and left out.
copy_files() {
  local from=$1 to=$2 file
  mkdir -p "$to"
  while IFS= read -r -d '' file; do
    if [ -f "$from/$file" ] && [ ! -L "$from/$file" ]; then
      mkdir -p "$to/$(dirname -- "$file")"
      cp -- "$from/$file" "$to/$file"
    else
      say "${from##*/}/${file#./} is not a regular file: left out"
    fi
  done < <(cd "$from" && find . -mindepth 1 ! -type d -print0)
}

# valid_id TEXT: whether grade_class.sh takes TEXT as a student id, and
# it is not the roster's own name in OUT.
valid_id() { [[ $1 =~ ^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$ && ${1,,} != roster.tsv ]]; }

roster=$work/out/roster.tsv
printf 'id\tsubmission\tname\temail\tsubmitted_at\tlate\tlate_by_s\tplatform\n' >"$roster"

# gradescope_metadata: the export's submission_metadata.yml, at its top
# or inside its one folder (the zip unpacks to assignment_NNN_export/), and
# nowhere deeper: a submission's files are the student's, and one may be a
# submission_metadata.yml of their own. Two there is a refusal.
gradescope_metadata() {
  local candidates=() folders=() folder
  if [ -e "$source_dir/submission_metadata.yml" ] || [ -L "$source_dir/submission_metadata.yml" ]; then
    candidates+=("$source_dir/submission_metadata.yml")
  fi
  while IFS= read -r -d '' folder; do
    folders+=("$folder")
  done < <(find "$source_dir" -mindepth 1 -maxdepth 1 -type d ! -name __MACOSX -print0)
  if [ ${#folders[@]} -eq 1 ] &&
    { [ -e "${folders[0]}/submission_metadata.yml" ] || [ -L "${folders[0]}/submission_metadata.yml" ]; }; then
    candidates+=("${folders[0]}/submission_metadata.yml")
  fi
  [ ${#candidates[@]} -gt 0 ] || fail "no submission_metadata.yml in '$export_path' (is it Gradescope's Export Submissions?)"
  [ ${#candidates[@]} -eq 1 ] ||
    fail "two submission_metadata.yml in '$export_path', at its top and in ${folders[0]##*/}/: which is Gradescope's? (a submission may hold one of its own)"
  if [ -L "${candidates[0]}" ] || [ ! -f "${candidates[0]}" ]; then
    fail "${candidates[0]} is not a regular file"
  fi
  printf '%s\n' "${candidates[0]}"
}

import_gradescope() {
  local metadata root
  metadata=$(gradescope_metadata) || exit 1
  root=$(dirname -- "$metadata")
  # The metadata, one line per submitter: folder, name, sid, email, and
  # the submission's time, split by \037 (a tab would let read merge empty
  # fields). Keys are Ruby symbols (":name:"); values may be quoted.
  awk '
    function value(line) {
      sub(/^[^:]*:[a-z_]+:[ \t]*/, "", line)
      if (line ~ /^'\''.*'\''$/) { line = substr(line, 2, length(line) - 2); gsub(/'\'''\''/, "'\''", line) }
      else if (line ~ /^".*"$/) { line = substr(line, 2, length(line) - 2); gsub(/\\"/, "\"", line) }
      gsub(/[\t\r\037]/, " ", line)
      return line
    }
    /^[^ \t#-][^:]*:[ \t]*$/ { folder = $0; sub(/:[ \t]*$/, "", folder); order[++folders] = folder; next }
    folder == "" { next }
    /^[ \t]*(- )?[ \t]*:name:/ { n = ++count[folder]; name[folder, n] = value($0); next }
    /^[ \t]*(- )?[ \t]*:sid:/ { if (!count[folder]) count[folder] = 1; sid[folder, count[folder]] = value($0); next }
    /^[ \t]*(- )?[ \t]*:email:/ { if (!count[folder]) count[folder] = 1; email[folder, count[folder]] = value($0); next }
    /^[ \t]*:created_at:/ { created[folder] = value($0); next }
    END {
      for (f = 1; f <= folders; f++)
        for (i = 1; i <= count[order[f]]; i++)
          printf "%s\037%s\037%s\037%s\037%s\n", order[f], name[order[f], i], sid[order[f], i], email[order[f], i], created[order[f]]
    }' "$metadata" >"$work/submitters.tsv"
  [ -s "$work/submitters.tsv" ] || fail "$metadata lists no submitter"

  # Two passes: the first gives each submitter an id, the second imports.
  # One id claimed by two submissions (a student typing another's SID)
  # leaves out those submissions alone, said, rather than the class. Ids
  # are one id whatever their letters' case (seen, claimed: by the id in
  # lower case), as a gradebook's upload and some file systems take them.
  local folder name sid email created id key why submission="" last="" member=0 late late_by when i n=0
  local -a f_of=() id_of=() name_of=() email_of=() created_of=() member_of=()
  declare -A seen=() listed=() claimed=() clash=() spelled=()
  while IFS=$'\037' read -r folder name sid email created; do
    valid_id "$folder" || fail "$metadata names '$folder', not a submission folder"
    if [ ! -d "$root/$folder" ] || [ -L "$root/$folder" ]; then
      fail "$metadata names $folder, which the export does not hold"
    fi
    if [ "$folder" != "$last" ]; then
      [ -z "${listed[$folder]:-}" ] || fail "$metadata lists $folder twice"
      listed[$folder]=1 last=$folder member=0
    fi
    member=$((member + 1))
    # A submitter without a SID that is an id (the student types their
    # own) is the folder's name if first (the submission's id), else the
    # folder's name and their place in the group: a group's members are
    # one submission, never "two submissions" of one id.
    id=$sid why=""
    if [ -z "$sid" ]; then
      why="has no SID"
    elif ! valid_id "$sid"; then
      why="has SID '$sid', not an id"
    elif [ "${seen[${sid,,}]:-}" = "$folder" ]; then
      why="has SID '$sid', another member's"
    fi
    if [ -n "$why" ]; then
      id=$folder
      [ "$member" -eq 1 ] || id=$folder-$member
      say "$folder's submitter $member $why: imported as $id"
    fi
    key=${id,,}
    if [ -n "${seen[$key]:-}" ]; then
      clash[$folder]=1 clash[${seen[$key]}]=1
      [[ " ${claimed[$key]} " == *" $folder "* ]] || claimed[$key]+=" $folder"
      [[ " ${spelled[$key]} " == *" '$id' "* ]] || spelled[$key]+=" '$id'"
    else
      seen[$key]=$folder claimed[$key]=$folder spelled[$key]="'$id'"
    fi
    f_of[n]=$folder id_of[n]=$id name_of[n]=$name email_of[n]=$email created_of[n]=$created member_of[n]=$member
    n=$((n + 1))
  done <"$work/submitters.tsv"
  while IFS= read -r key; do
    [[ ${claimed[$key]} == *" "* ]] || continue
    say "submissions ${claimed[$key]// / and } all claim the id ${spelled[$key]// / or }: left out, for the staff to sort out; their submitters' roster rows have no submission"
  done < <(printf '%s\n' "${!claimed[@]}" | LC_ALL=C sort)
  for ((i = 0; i < n; i++)); do
    folder=${f_of[i]} id=${id_of[i]}
    if [ "${member_of[i]}" -eq 1 ]; then
      submission=""
      if [ -z "${clash[$folder]:-}" ]; then
        submission=$id
        copy_files "$root/$folder" "$work/out/$id"
      fi
    fi
    created=${created_of[i]} late=unknown late_by=""
    if [ -n "$due_s" ] && [ -n "$created" ] && when=$(date -d "$created" +%s 2>/dev/null); then
      late_by=$((when > due_s ? when - due_s : 0))
      late=$([ "$late_by" -gt 0 ] && echo yes || echo no)
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\tgradescope\n' "$id" "$submission" "${name_of[i]}" "${email_of[i]}" "$created" "$late" "$late_by" >>"$roster"
  done
}

import_canvas() {
  local file name login late user id base given stem ext count=0
  declare -A files=() origin=() listed=()
  while IFS= read -r -d '' file; do
    name=${file##*/}
    # LOGIN_[LATE_]USERID_SUBMISSIONID_NAME: the first two numeric fields
    # in a row after the login.
    if [[ ! $name =~ ^([^_]+)_(LATE_)?([0-9]+)_([0-9]+)_(.+)$ ]]; then
      say "$name is not named as Canvas names a submission's file: left out"
      continue
    fi
    login=${BASH_REMATCH[1]} late=${BASH_REMATCH[2]} user=${BASH_REMATCH[3]} base=${BASH_REMATCH[5]}
    given=$base
    id=$user
    if [[ $base =~ ^(.+)-[0-9]+(\.[^.]+)$ ]]; then base=${BASH_REMATCH[1]}${BASH_REMATCH[2]}; fi
    if [ -L "$file" ] || [ ! -f "$file" ]; then
      say "$name is not a regular file: left out"
      continue
    fi
    if [ -z "${listed[$id]:-}" ]; then
      printf '%s\t%s\t%s\t\t\t%s\t\tcanvas\n' "$id" "$id" "$login" "$([ -n "$late" ] && echo yes || echo no)" >>"$roster"
      listed[$id]=1
      mkdir -p "$work/out/$id"
    fi
    # NAME is the student's: "." or ".." is no file's name in their folder
    # (".." would land beside it).
    if [[ -z $given || $given == . || $given == .. || -z $base || $base == . || $base == .. ]]; then
      say "$name: '$given' is no file's name: left out"
      continue
    fi
    # A student's file names are theirs: one that meets another once its
    # number is off keeps Canvas's name, so grade_class.sh judges that
    # student alone (two slot files of one name refuse the submission).
    if [ -e "$work/out/$id/$base" ]; then
      say "student $id has $base twice once numbers are off: both kept as Canvas named them"
      if [ "$given" != "$base" ]; then
        base=$given
      elif [ -n "${origin[$id/$base]:-}" ] && [ ! -e "$work/out/$id/${origin[$id/$base]}" ]; then
        # the numbered one came first: it takes its own name back
        mv -- "$work/out/$id/$base" "$work/out/$id/${origin[$id/$base]}"
        files[$id]+="${origin[$id/$base]}"$'\n'
      fi
      if [ -e "$work/out/$id/$base" ]; then
        say "$name meets another of student $id's files: left out"
        continue
      fi
    fi
    origin[$id/$base]=$given
    files[$id]+="$base"$'\n'
    cp -- "$file" "$work/out/$id/$base"
    count=$((count + 1))
  done < <(find "$source_dir" -type f -print0 -o -type l -print0 | LC_ALL=C sort -z)
  [ "$count" -gt 0 ] || fail "no file in '$export_path' is named as Canvas names a submission's file"
  # A student who handed in one zip is that zip.
  for id in "${!files[@]}"; do
    stem=$(printf '%s' "${files[$id]}")
    ext=${stem##*.}
    if [ "$(printf '%s' "${files[$id]}" | grep -c .)" -eq 1 ] && [ "$ext" = zip ]; then
      mv -- "$work/out/$id/$stem" "$work/out/$id.zip" && rmdir -- "$work/out/$id"
    fi
  done
}

"import_$from"
n=$(($(wc -l <"$roster") - 1))
mv -- "$work/out" "$out" || fail "cannot make '$out'"
left=$(awk -F '\t' 'NR > 1 && $2 == ""' "$out/roster.tsv" | wc -l)
echo "Imported $n student$([ "$n" -eq 1 ] || echo s) from the $from export into $out (roster: $out/roster.tsv)$(
  [ "$left" -eq 0 ] || echo "; $left of them left out, with no submission (said above)")"
