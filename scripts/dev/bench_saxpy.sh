#!/usr/bin/env bash
# saxpy's benchmark: BUILD_DIR/bin/cudaSaxpy -n 100000000 -r 5, as
# scripts/dev/gpu_check.sh runs it, its output printed; with --data, its
# summary table as the CSV docs/measurements/saxpy_h200.md shows
# (docs/data/saxpy_h200.csv).
#
# Usage: scripts/dev/bench_saxpy.sh BUILD_DIR [--data FILE]
#   --data FILE  also write the CSV to FILE (docs/data/README.md): a row per
#                variant of cudaSaxpy's "Summary, best of 5 runs" table,
#                "trip" its trip ms (to 0.1 ms), "kernel" its kernel ms,
#                "kernel / memcpy" and "trip / ideal" its kernel/memcpy and
#                trip/ideal (to 0.01), then the commit and the GPU. Written
#                only when cudaSaxpy succeeded (every result matched), else
#                left as it was
# Exit status: 0 when cudaSaxpy succeeded (and FILE was written), 1 when it
# failed or FILE cannot be written, 2 on usage errors, 130, 143 or 129 by
# SIGINT, SIGTERM or SIGHUP (cudaSaxpy stops at once).
set -uo pipefail
me=bench_saxpy.sh
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=scripts/options_lib.sh
source "$root/scripts/options_lib.sh"

case "${1:-}" in -h|--help) show_help; exit 0 ;; esac
[ $# -ge 1 ] || usage_error "needs BUILD_DIR"
[[ $1 != -* ]] || usage_error "needs BUILD_DIR first, not '$1'"
build=$1
shift
data=""
while [ $# -gt 0 ]; do
  case "$1" in
    --data) need_value "$@"; data=$2; shift 2 ;;
    -h|--help) show_help; exit 0 ;;
    *) usage_error "unknown argument '$1'" ;;
  esac
done
program=$build/bin/cudaSaxpy
[ -x "$program" ] || { echo "$me: $program is not built" >&2; exit 2; }

# shellcheck source=scripts/run_lib.sh
source "$root/scripts/run_lib.sh"
# shellcheck source=scripts/dev/bench_data_lib.sh
source "$root/scripts/dev/bench_data_lib.sh"
bench_start "$me" "$data"
bench_run "$me" "$data" "cudaSaxpy" "$program" -n 100000000 -r 5
[ -n "$data" ] || exit 0

data_where "$root"
# The summary of saxpy/app/main.cpp: "Summary, best of R runs, ...", a
# header line, a row per variant, then "(ideal trip: ...)". A header other
# than the one known here is an error: the columns would be misread.
if ! awk -v commit="$data_commit" -v machine="$data_machine" -v me="$me" '
  function q(field) { if (field ~ /[,"]/) { gsub(/"/, "\"\"", field); field = "\"" field "\"" } return field }
  function fail(msg) { print me ": cudaSaxpy printed " msg > "/dev/stderr"; failed = 1; exit 1 }
  BEGIN { print "variant,trip,kernel,kernel / memcpy,trip / ideal,commit,machine" }
  /^Summary, best of / { summary = 1; next }
  summary && $1 == "variant" {
    header = $0; gsub(/ +/, " ", header)
    if (header != "variant trip ms GB/s kernel ms GB/s kernel/memcpy trip/ideal")
      fail("a summary with other columns: " header)
    next
  }
  summary && /^\(ideal trip/ { summary = 0; next }
  summary && NF == 7 {
    printf "%s,%.1f ms,%.3f ms,%.2f,%.2f,%s,%s\n", $1, $2, $4, $6, $7, q(commit), q(machine)
    written++
  }
  END {
    if (failed) exit 1
    if (!written) fail("no summary rows")
  }' "$work/out" >"$data_partial"; then
  echo "$me: so $data is left as it was" >&2
  exit 1
fi
data_finish "$me" "$data" || exit 1
