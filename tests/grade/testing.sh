# shellcheck shell=bash
# Assertions for the grading tests: each prints a line only when it fails,
# and finish prints "N passed, M failed" and sets the exit status.

passed=0
failed=0

pass() { passed=$((passed + 1)); }

fail() {
  failed=$((failed + 1))
  printf 'FAIL: %s\n' "$1"
  [ -z "${2:-}" ] || printf '%s\n' "$2" | sed 's/^/    /'
}

# expect_eq NAME WANT GOT
expect_eq() {
  if [ "$2" = "$3" ]; then pass; else fail "$1" "want: $2"$'\n'"got:  $3"; fi
}

# expect_match NAME ERE TEXT: TEXT has a line matching ERE.
expect_match() {
  if grep -Eq -- "$2" <<<"$3"; then pass; else fail "$1" "no line matches: $2"$'\n'"in:"$'\n'"$3"; fi
}

# expect_no_match NAME ERE TEXT: no line of TEXT matches ERE.
expect_no_match() {
  if grep -Eq -- "$2" <<<"$3"; then fail "$1" "a line matches: $2"$'\n'"in:"$'\n'"$3"; else pass; fi
}

# finish: the summary line; exit status 1 when anything failed.
finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}
