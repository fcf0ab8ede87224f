# shellcheck shell=bash
# The command-line helpers of grade.sh, profile.sh and the GPU scripts:
# --help from the script's opening comment, and usage errors (one line on
# stderr, exit 2).

# show_help: the script's opening comment block, without its "#" marks and
# without the suite-only marks make_handout.sh cuts by (a line that is one
# goes, a line that ends in one keeps its text).
show_help() {
  awk 'NR > 1 && /^#/ { if (/^# \/?suite-only$/) next; sub(/ # suite-only$/, ""); sub(/^# ?/, ""); print; next }
    NR > 1 { exit }' "$0"
}

# usage_error MESSAGE: "SCRIPT: MESSAGE (try --help)", exit 2. A script that
# must first take away what it has made names its function in usage_tidy.
usage_tidy=""
usage_error() {
  echo "${0##*/}: $1 (try --help)" >&2
  [ -z "$usage_tidy" ] || "$usage_tidy"
  exit 2
}

# need_value OPTION ARGS...: a usage error when OPTION has no value after it
# (another option is not a value, nor is an empty one: --out= must not fall
# back to the default).
need_value() { if [ $# -lt 2 ] || [ -z "$2" ] || [[ $2 == --* ]]; then usage_error "$1 needs a value"; fi; }

# need_folder OPTION ARGS...: need_value, and a usage error too when the
# value starts with "-": a folder named "-h" is far likelier a slip than meant.
need_folder() {
  need_value "$@"
  if [[ $2 == -* ]]; then usage_error "$1 needs a folder, not '$2'"; fi
}
