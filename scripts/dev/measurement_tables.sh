#!/usr/bin/env bash
# Makes the measurement pages' tables from the data the benchmarks wrote:
# each block of a Markdown file between a line
#   <!-- table: begin (made from data/NAME.csv) -->
# and a line "<!-- table: end -->" is the Markdown table of that CSV (its
# path relative to the docs folder). The CSV's header row names the
# columns; a column whose every cell is a number (optionally ending in x,
# × or %) is right-aligned. The columns commit and machine say where the
# rows were measured; the page's prose says so, the table leaves them out.
#
# Usage: scripts/dev/measurement_tables.sh [--docs DIR] --check|--write FILE...
#   --check  exit 1, naming each, where a block is not its CSV's table
#   --write  replace every block of each FILE with its CSV's table
#   --docs   the folder the CSV paths are relative to (default: docs/)
# A FILE without a block is left as it is. Exit status: 0 when done (or up
# to date), 1 on a stale block or a file or CSV that cannot be read, 2 on
# usage errors.
set -euo pipefail
me=measurement_tables.sh
docs=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/docs

usage() { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; }

mode=""
while [ $# -gt 0 ]; do
  case "$1" in
    --check | --write) mode=$1; shift; break ;;
    --docs)
      [ $# -ge 2 ] || { echo "$me: --docs needs a folder" >&2; exit 2; }
      docs=$2; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "$me: unknown option '$1' (try --help)" >&2; exit 2 ;;
  esac
done
[ -n "$mode" ] || { usage >&2; exit 2; }
[ $# -gt 0 ] || { echo "$me: $mode needs files" >&2; exit 2; }

# regenerate FILE STALE: FILE with every block made again, on stdout; the
# CSV of each block that changed goes to STALE, one a line. Exit 3 (message
# on stderr) on a CSV that cannot be read or a block without its end.
regenerate() {
  awk -v docs="$docs" -v stale="$2" -v page="$1" -v me="$me" '
    function fail(msg) { print me ": " page ": " msg > "/dev/stderr"; failed = 1; exit 3 }
    # split_csv(LINE, CELLS): the fields of one CSV line ("" quotes a field
    # holding commas or quotes); their count.
    function split_csv(line, cells,    n, i, c, cell, quoted) {
      n = 0; cell = ""; quoted = 0
      for (i = 1; i <= length(line); i++) {
        c = substr(line, i, 1)
        if (quoted) {
          if (c == "\"" && substr(line, i + 1, 1) == "\"") { cell = cell c; i++ }
          else if (c == "\"") quoted = 0
          else cell = cell c
        } else if (c == "\"") quoted = 1
        else if (c == ",") { cells[++n] = cell; cell = "" }
        else cell = cell c
      }
      cells[++n] = cell
      return n
    }
    function numeric(text) { return text ~ /^-?[0-9]+(\.[0-9]+)?(x|×|%)?$/ }
    # table(CSV): the Markdown table of CSV.
    function table(csv,    path, line, rows, ncols, cols, cells, n, r, c, shown, nshown, right, out, sep, cell) {
      path = docs "/" csv
      rows = 0
      while ((r = (getline line < path)) > 0) {
        sub(/\r$/, "", line)
        if (line == "") continue
        n = split_csv(line, cells)
        if (rows == 0) ncols = n
        else if (n != ncols) fail(csv " row " rows ": " n " fields, the header has " ncols)
        for (c = 1; c <= n; c++) grid[rows, c] = cells[c]
        rows++
      }
      if (r < 0) fail("cannot read " path)
      close(path)
      if (rows < 2) fail(csv " has no rows")
      nshown = 0
      for (c = 1; c <= ncols; c++)
        if (grid[0, c] != "commit" && grid[0, c] != "machine") shown[++nshown] = c
      for (c = 1; c <= nshown; c++) {
        right[c] = 0
        for (r = 1; r < rows; r++) {
          cell = grid[r, shown[c]]
          if (cell == "") continue
          if (!numeric(cell)) { right[c] = 0; break }
          right[c] = 1
        }
      }
      out = ""
      for (r = 0; r < rows; r++) {
        line = "|"
        for (c = 1; c <= nshown; c++) {
          cell = grid[r, shown[c]]
          gsub(/\|/, "\\|", cell)
          line = line " " cell " |"
        }
        out = out line "\n"
        if (r == 0) {
          sep = "|"
          for (c = 1; c <= nshown; c++) sep = sep (right[c] ? "---:|" : "---|")
          out = out sep "\n"
        }
      }
      return out
    }
    /^<!-- table: begin / {
      if (inside) fail("a table block begins inside another (line " NR ")")
      csv = $0
      if (!sub(/^<!-- table: begin \(made from /, "", csv) || !sub(/\) -->$/, "", csv))
        fail("line " NR ": expected \"<!-- table: begin (made from data/NAME.csv) -->\"")
      print
      inside = 1; old = ""; blocks++
      next
    }
    /^<!-- table: end -->$/ && inside {
      new = table(csv)
      printf "%s", new
      if (old != new) print csv > stale
      inside = 0
      print
      next
    }
    inside { old = old $0 "\n"; next }
    { print }
    END {
      if (failed) exit 3
      if (inside) fail("the block of " csv " has no \"<!-- table: end -->\"")
    }' "$1"
}

status=0
stale=$(mktemp)
new=""
trap 'rm -f -- "$stale" ${new:+"$new"}' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
for file in "$@"; do
  if [ ! -r "$file" ] || [ ! -f "$file" ]; then
    echo "$me: cannot read $file" >&2
    status=1
    continue
  fi
  # A page without a block has nothing to make: docs/measurements/*.md may be given.
  grep -q "^<!-- table: begin " "$file" || continue
  : >"$stale"
  if [ "$mode" = --write ]; then
    new=$(mktemp "$file.XXXXXX" 2>/dev/null) || { echo "$me: cannot write next to $file" >&2; status=1; continue; }
  else
    new=$(mktemp)
  fi
  if ! regenerate "$file" "$stale" >"$new"; then
    rm -f -- "$new"
    status=1
    continue
  fi
  if [ "$mode" = --write ]; then
    if [ -s "$stale" ]; then
      chmod --reference="$file" "$new" 2>/dev/null || true
      mv -f -- "$new" "$file"
    else
      rm -f -- "$new"
    fi
  else
    rm -f -- "$new"
    while IFS= read -r csv; do
      echo "$me: $file: the table made from $csv is out of date (scripts/dev/$me --write $file)" >&2
      status=1
    done <"$stale"
  fi
  new=""
done
exit "$status"
