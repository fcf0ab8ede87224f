# shellcheck shell=bash
# Shared by the fake programs of the grading tests: they answer with the
# recorded output in ../fixtures, changed only where a test sets a time.

fixtures=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../fixtures" && pwd)

# record_call NAME ARGS...: appends the call to $FAKE_CALLS, so tests can see
# what the grading script ran.
record_call() {
  [ -z "${FAKE_CALLS:-}" ] || printf '%s\n' "$*" >>"$FAKE_CALLS"
}

# lookup MAP KEY DEFAULT: the value of KEY in a "key=value,key=value" MAP.
lookup() {
  local pair
  for pair in ${1//,/ }; do
    [ "${pair%%=*}" != "$2" ] || { echo "${pair#*=}"; return; }
  done
  echo "$3"
}

# in_list LIST ITEM: whether ITEM is one of the comma-separated LIST.
in_list() { [ -n "$2" ] && [[ ",$1," == *",$2,"* ]]; }

# fixture_with_line FILE LABEL_RE NEW_LINE: the fixture with every line
# starting with LABEL_RE replaced by NEW_LINE.
fixture_with_line() {
  awk -v re="^$2" -v line="$3" '$0 ~ re { print line; next } { print }' "$fixtures/$1"
}

# usage_fail PROGRAM MESSAGE: a usage error as our programs report it.
usage_fail() {
  echo "$1: $2 (try --help)" >&2
  exit 2
}
