#!/usr/bin/env bash
# The scan's benchmark: BUILD_DIR/bin/cudaScan --bench, its tables printed
# as they come; with --data, the single-pass rows of its tables as the CSV
# docs/measurements/scan_h200.md shows (docs/data/scan_bench_h200.csv).
#
# Usage: scripts/dev/bench_scan.sh BUILD_DIR [-m TEST] [-n N] [--data FILE]
#   -m TEST      only scan or find_repeats (cudaScan --bench -m TEST)
#   -n N         only N items (cudaScan --bench -n N; default 10M, 40M, 2^28)
#   --data FILE  also write the CSV to FILE (docs/data/README.md): for each
#                test and size, from the single-pass row of cudaScan's table
#                "single-pass us" (time us), "vs CUB", "of memcpy", "course
#                ms" and "course/floor", "CUB us" from the cub row's time
#                us, then the commit and the GPU; n as 10M (a multiple of a
#                million), 2^28 (a power of two) or the number. Written only
#                when cudaScan succeeded and printed its tables, else left
#                as it was
# Exit status: 0 when cudaScan succeeded (and FILE was written), 1 when it
# failed or FILE cannot be written, 2 on usage errors, 130, 143 or 129 by
# SIGINT, SIGTERM or SIGHUP (cudaScan stops at once).
set -uo pipefail
me=bench_scan.sh
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=scripts/options_lib.sh
source "$root/scripts/options_lib.sh"

case "${1:-}" in -h|--help) show_help; exit 0 ;; esac
[ $# -ge 1 ] || usage_error "needs BUILD_DIR"
[[ $1 != -* ]] || usage_error "needs BUILD_DIR first, not '$1'"
build=$1
shift
data="" args=()
while [ $# -gt 0 ]; do
  case "$1" in
    -m)
      need_value "$@"
      case "$2" in scan|find_repeats) ;; *) usage_error "-m: unknown test '$2' (scan, find_repeats)" ;; esac
      args+=(-m "$2"); shift 2 ;;
    -n)
      need_value "$@"
      [[ $2 =~ ^[1-9][0-9]{0,11}$ ]] || usage_error "-n: '$2' is not a number of items"
      args+=(-n "$2"); shift 2 ;;
    --data) need_value "$@"; data=$2; shift 2 ;;
    -h|--help) show_help; exit 0 ;;
    *) usage_error "unknown argument '$1'" ;;
  esac
done
program=$build/bin/cudaScan
[ -x "$program" ] || { echo "$me: $program is not built" >&2; exit 2; }

# shellcheck source=scripts/run_lib.sh
source "$root/scripts/run_lib.sh"
# shellcheck source=scripts/dev/bench_data_lib.sh
source "$root/scripts/dev/bench_data_lib.sh"
bench_start "$me" "$data"
# cudaScan's stdout is kept to be read; its progress lines (stderr) show
# as they come.
bench_run "$me" "$data" "cudaScan --bench" "$program" --bench "${args[@]}"
[ -n "$data" ] || exit 0

data_where "$root"
# The tables of scan/app/bench.cpp (print_table): a title line naming the
# test, a header line, then a row per size and algorithm. A header other
# than the one known here is an error: the columns would be misread.
if ! awk -v commit="$data_commit" -v machine="$data_machine" -v me="$me" '
  function q(field) { if (field ~ /[,"]/) { gsub(/"/, "\"\"", field); field = "\"" field "\"" } return field }
  function size(n,    k, p) {
    if (n % 1000000 == 0) return (n / 1000000) "M"
    k = 0; p = 1
    while (p < n) { p *= 2; k++ }
    return p == n && k >= 10 ? "2^" k : n
  }
  function fail(msg) { print me ": cudaScan --bench printed " msg > "/dev/stderr"; failed = 1; exit 1 }
  BEGIN { print "n,test,single-pass us,CUB us,vs CUB,of memcpy,course ms,course/floor,commit,machine" }
  /^exclusive_scan, int32, / { test = "scan"; next }
  /^find_repeats, int32, / { test = "find_repeats"; next }
  $1 == "n" && $2 == "algorithm" {
    header = $0; gsub(/ +/, " ", header); sub(/^ /, "", header)
    if (header != "n algorithm time us GB/s vs cub memcpy us of memcpy course ms course/floor")
      fail("a table with other columns: " header)
    if (test == "") fail("a table without its title")
    next
  }
  test != "" && $1 ~ /^[0-9]+$/ && NF == 9 {
    if ($2 == "single-pass") single[$1] = $0
    if ($2 == "cub") cub[$1] = $3
    if (($1 in single) && ($1 in cub)) {
      split(single[$1], f, " ")
      print size($1), test, f[3], cub[$1], f[5], f[7], f[8], f[9], q(commit), q(machine)
      written++
      delete single[$1]; delete cub[$1]
    }
  }
  /^$/ { for (n in single) fail("a single-pass row without a cub row (n = " n ")"); test = "" }
  END {
    if (failed) exit 1
    for (n in single) fail("a single-pass row without a cub row (n = " n ")")
    if (!written) fail("no single-pass row")
  }' OFS=, "$work/out" >"$data_partial"; then
  echo "$me: so $data is left as it was" >&2
  exit 1
fi
data_finish "$me" "$data" || exit 1
