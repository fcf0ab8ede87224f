#!/usr/bin/env bash
# Writes Gradescope's autograder results.json from a grade.sh log folder:
# one test per row of scores.tsv (name, score, max_score, status, output),
# and one test scoring 0 per row of not_graded.tsv (a part that could not be
# graded, out of the points it could still have scored, its reason as the
# output), so the student sees why and the total's maximum is the
# assignment's.
# Format: Gradescope's "Autograder Specifications", section "Output format".
#
# Usage: scripts/gradescope.sh [--execution-time SECONDS] [--bin-dir DIR] LOG_DIR FILE
# The judge writes it (judge results; DIR/judge, default build/bin, as
# grade.sh's --bin-dir); grade.sh runs the judge itself for LOG_DIR/
# results.json and --gradescope FILE. Any bytes a log holds come out as
# valid JSON. Exit status: 0 written, 1 the log folder holds no scores.tsv,
# FILE cannot be written or the judge is not built, 2 usage.
set -uo pipefail

usage_error() {
  echo "gradescope.sh: $1 (try --help)" >&2
  exit 2
}

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin_dir=$repo/build/bin
execution_time=()
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --execution-time)
      [ $# -ge 2 ] || usage_error "--execution-time needs a value"
      [[ $2 =~ ^[0-9]{1,9}$ ]] || usage_error "--execution-time: '$2' is not a whole number of seconds"
      execution_time=(--execution-time "$2")
      shift
      ;;
    --bin-dir)
      [ $# -ge 2 ] || usage_error "--bin-dir needs a value"
      bin_dir=$2
      shift
      ;;
    -h | --help)
      awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
      exit 0
      ;;
    -*) usage_error "unknown option '$1'" ;;
    *) args+=("$1") ;;
  esac
  shift
done
[ ${#args[@]} -eq 2 ] || usage_error "needs LOG_DIR and FILE"
log_dir=${args[0]} out=${args[1]}
# The judge says the same, as "judge: error: ..."; said here as before.
if [ ! -f "$log_dir/scores.tsv" ]; then
  echo "gradescope.sh: $log_dir holds no scores.tsv (is it a grade.sh log folder?)" >&2
  exit 1
fi
if [ -d "$out" ]; then
  echo "gradescope.sh: '$out' is a folder, not a file" >&2
  exit 1
fi
[ -x "$bin_dir/judge" ] || {
  echo "gradescope.sh: needs the judge, which is not built: no $bin_dir/judge (cmake --build build --target judge, or give --bin-dir)" >&2
  exit 1
}
exec "$bin_dir/judge" results "${execution_time[@]}" -- "$log_dir" "$out"
