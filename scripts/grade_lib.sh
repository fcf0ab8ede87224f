# shellcheck shell=bash
# The parts of scripts/grade.sh that can be tested without running anything:
# reading the programs' printed lines, judging a run, the course's scoring
# rules, cache names and the tables. Sourced by grade.sh and by the
# tests in tests/grade; it defines functions and constants only.

# The grader's files in scripts/: grade.sh, every file it sources (the
# folder grade/ whole) and gradescope.sh (results.json from a log folder,
# by the judge). The handout
# (make_handout.sh) and the tests' copies of the grader take this list; a
# library added to grade.sh goes here too.
# shellcheck disable=SC2034  # read by make_handout.sh and the tests
GRADE_FILES=(grade.sh grade_lib.sh options_lib.sh run_lib.sh grade gradescope.sh build_box.sh)
# What else of the suite the grader reads, from the top of the suite: the
# course's contract.
# shellcheck disable=SC2034  # read by make_handout.sh and the tests
GRADE_DATA=(judge/contract/course.json)

# ---------------------------------------------------------------- patterns

# shellcheck disable=SC2034  # the patterns are used by grade.sh and the tests
# A run that failed for want of a GPU says so in one of these ways (our
# programs, the CUDA runtime's own message, the course's binaries).
GRADE_NO_GPU_RE='no CUDA device|no CUDA-capable device|no NVIDIA GPU|cudaErrorNoDevice|CUDA driver version is insufficient|no GPU (or driver )?found'
# Lines that mark a wrong result in our programs and in the course's.
GRADE_FAILURE_RE='Mismatch|ERROR|Error|[Ii]ncorrect'
# Lines that mark a passed check.
GRADE_RENDER_PASS_RE='Correctness check passed'
GRADE_SCAN_PASS_RE='outputs are correct'

# ---------------------------------------------------------------- parsing

# numbers_after LOG LABEL_RE MODE: the number following the first match of
# LABEL_RE on each line of LOG; MODE "first" prints the first one (as the
# course's checker reads a run), "last" the last one. Prints nothing when no
# line matches.
numbers_after() {
  awk -v re="$2" -v mode="$3" '
    match($0, re) {
      rest = substr($0, RSTART + RLENGTH)
      if (!match(rest, /[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?/)) next
      v = substr(rest, RSTART, RLENGTH)
      if (mode == "last" || found == "") found = v
    }
    END { if (found != "") print found }' "$1"
}

# parse_render_total LOG: ms per frame of the first "Total:" line (render's
# benchmark, ours and the course's), the line the course's checker reads.
parse_render_total() { numbers_after "$1" '^Total:' first; }

# parse_scan_time LOG: the first "Student GPU time" or "Thrust GPU time" in
# ms (cudaScan, ours and the course's), as the course's checker reads it.
parse_scan_time() { numbers_after "$1" '^(Student|Thrust) GPU time:' first; }

# parse_written_file LOG: the image file a benchmark run wrote last
# ("Wrote PATH").
parse_written_file() { sed -n 's/^Wrote //p' "$1" | tail -n 1; }

# one_line TEXT: TEXT fit for one field of a table and one line of a
# terminal: colour and cursor sequences (ESC [ ...) go, tabs, carriage
# returns and newlines become spaces, the other control characters go.
one_line() {
  printf '%s' "$1" | LC_ALL=C sed $'s/\033\\[[0-9;?]*[ -/]*[@-~]//g' |
    LC_ALL=C tr '\t\r\n' '   ' | LC_ALL=C tr -d '\000-\010\013-\037\177'
  echo
}

# markdown_text TEXT: TEXT made one line (one_line) and then Markdown
# that shows it as written, for inside a line of results.md or the class's
# summary.md: & < > become HTML entities and Markdown's other active
# characters are backslash-escaped, so a student's text there (a judge's
# note quoting their worker, a compiler's line, a not-graded reason) makes
# no tag, image, link, emphasis, code or heading in the staff's viewer.
markdown_text() {
  one_line "$1" | LC_ALL=C sed -e 's/[][\\`*_{}()#+!|~$-]/\\&/g' -e 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g'
}

# first_failure_line LOG: the line that best explains a failed run: a
# mismatch or error line, else the last line printed (one_line's form: a
# program's output is anything).
first_failure_line() {
  local line
  line=$(grep -aEi -m 1 "$GRADE_NO_GPU_RE" "$1")
  [ -n "$line" ] || line=$(grep -aE -m 1 "$GRADE_FAILURE_RE|error" "$1")
  [ -n "$line" ] || line=$(grep -av '^[[:space:]]*$' "$1" | tail -n 1)
  one_line "${line:-(no output)}"
}

# help_lists HELP_LOG OPTION: whether a program's --help text names OPTION.
help_lists() { grep -q -e "$2" "$1"; }

# ---------------------------------------------------------------- verdicts

# classify_run STATUS LOG [PASS_RE]: the verdict on one run of a program.
#   ok          exit 0, no failure line, PASS_RE (if given) printed
#   cannotrun   the program could not start (exit 126 or 127: not
#               executable, a missing shared library, no such file)
#   wrong       a mismatch or error line (any exit status but 2)
#   error       exit 1 without a mismatch line (failed to run, e.g. no memory)
#   unverified  exit 0 but PASS_RE never printed
#   nogpu       no GPU or driver
#   usage       exit 2: the program rejected its command line
#   timeout     stopped after the time limit (timeout's 124)
#   crash       killed by a signal (status above 128)
# (The judge's rows have one more: rejected, with the judge's reason.)
classify_run() {
  local status=$1 log=$2 pass=${3:-}
  if [ "$status" -ne 0 ] && grep -Eqi "$GRADE_NO_GPU_RE" "$log"; then
    echo nogpu
  elif [ "$status" -eq 126 ] || [ "$status" -eq 127 ]; then
    echo cannotrun
  elif [ "$status" -eq 124 ]; then
    echo timeout
  elif [ "$status" -gt 128 ]; then
    echo crash
  elif [ "$status" -eq 2 ]; then
    echo usage
  elif grep -Eq "$GRADE_FAILURE_RE" "$log"; then
    echo wrong
  elif [ "$status" -ne 0 ]; then
    echo error
  elif [ -n "$pass" ] && ! grep -Eq "$pass" "$log"; then
    echo unverified
  else
    echo ok
  fi
}

# verdict_text VERDICT: a few words for messages.
verdict_text() {
  case "$1" in
    ok) echo "correct" ;;
    wrong) echo "wrong result" ;;
    error) echo "failed to run" ;;
    cannotrun) echo "cannot run" ;;
    unverified) echo "printed no correctness verdict or time" ;;
    nogpu) echo "no GPU" ;;
    usage) echo "rejected its command line" ;;
    timeout) echo "timed out" ;;
    crash) echo "crashed" ;;
    rejected) echo "rejected by the judge" ;;
    *) echo "$1" ;;
  esac
}

# ---------------------------------------------------------------- numbers

# min_number: the smallest of the numbers on stdin, one a line; nothing
# when there are none.
min_number() { awk 'NF && (m == "" || $1 + 0 < m + 0) { m = $1 } END { if (m != "") print m }'; }

# has_time VALUE: whether VALUE is a measured time (not empty, not "-").
has_time() { [ -n "$1" ] && [ "$1" != "-" ]; }

# ---------------------------------------------------------------- the course's contract

# The course's contract, judge/contract/course.json: the graded sizes and
# scenes, the timed calls, each part's points and score rule. The judge is
# built from it and scores every row by it (judge score); the grader reads
# its defaults and maxima here, with jq, not the judge: it needs them before
# it builds anything (the defaults are checked with the options, and
# --maximum is asked where the build failed: run_autograder) and where the
# judge did not build (the points of a part not graded).
# shellcheck disable=SC2034  # read by grade.sh and the tests
GRADE_CONTRACT=${GRADE_CONTRACT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/judge/contract/course.json}

# contract_value FILTER: jq's FILTER on the contract, raw.
contract_value() { jq -r "$1" "$GRADE_CONTRACT"; }

# contract_maximum PART ROWS: the most PART scores over ROWS rows (nothing
# for a part that scores none).
contract_maximum() {
  jq -r --arg part "$1" --argjson rows "$2" \
    '.rules[(.parts[] | select(.part == $part) | .rule)].points * $rows' "$GRADE_CONTRACT"
}

# noise_note VERDICT SCORE LOW HIGH REF_BEST REF_MEDIAN YOUR_BEST YOUR_MEDIAN:
# the row's score is the judge's of the two best times (the course's rule);
# LOW and HIGH are its scores with either side's median instead (judge
# score's score_low, score_high). Where they differ from SCORE the timing's
# spread reaches a threshold, and this says so with the range; nothing
# otherwise. A "-" median is its best.
noise_note() {
  local verdict=$1 score=$2 low=$3 high=$4 rb=$5 rm=$6 yb=$7 ym=$8
  [ "$verdict" = ok ] || return 0
  [ "$low" != "$score" ] || [ "$high" != "$score" ] || return 0
  has_time "$rm" || rm=$rb
  has_time "$ym" || ym=$yb
  echo "within the timing's spread of a threshold: $low to $high at the medians' times (reference $rb to $rm ms, yours $yb to $ym ms)"
}

# noted NOTE MORE: the two notes of a row, "; " between them where both are.
noted() { printf '%s%s%s\n' "$1" "${1:+${2:+; }}" "$2"; }

# score_total: reads "SCORE MAX" lines (a row's score, "n/a" allowed, and
# its most) and prints "SUM/MAX" over all rows, with " (N not scored)" when
# some lack a reference time. Sums print without trailing zeros.
score_total() {
  awk '
    function clean(x) { x = sprintf("%.3f", x); sub(/0+$/, "", x); sub(/\.$/, "", x); return x }
    { max += $2; if ($1 == "n/a") missing++; else sum += $1 }
    END {
      line = clean(sum) "/" clean(max)
      if (missing) line = line " (" missing " not scored)"
      print line
    }'
}

# round_score SCORE: a score as the tables show it, at most 3 decimals.
round_score() {
  awk -v x="$1" 'BEGIN {
    if (x !~ /^[0-9.]+$/) { print x; exit }
    x = sprintf("%.3f", x); sub(/0+$/, "", x); sub(/\.$/, "", x); print x }'
}

# ---------------------------------------------------------------- references

# elf_machine FILE: the ELF machine field of FILE in hex (e.g. 3e for
# x86-64); nothing when FILE is not an ELF program.
elf_machine() {
  [ "$(head -c 4 -- "$1" 2>/dev/null | od -An -c | tr -d ' ')" = 177ELF ] || return 0
  od -An -tx1 -j18 -N2 -- "$1" | awk '{ print ($2 == "00" ? $1 : $2 $1) }'
}

# machine_name HEX: a readable name for an ELF machine field.
machine_name() {
  case "$1" in
    3e) echo x86-64 ;; b7) echo aarch64 ;; 03) echo x86 ;; 28) echo arm ;;
    15) echo ppc64 ;; f3) echo riscv ;; *) echo "machine 0x$1" ;;
  esac
}

# program_problem PATH [HOST_PROGRAM]: why PATH cannot run here, in a few
# words; nothing when it may. A program built for another architecture is
# caught here because running it would hand it to /bin/sh instead.
program_problem() {
  local path=$1 host=${2:-$BASH} mine theirs
  if [ ! -e "$path" ]; then echo "no such file"; return; fi
  if [ ! -f "$path" ]; then echo "not a regular file"; return; fi
  if [ ! -x "$path" ]; then echo "not executable (chmod +x it)"; return; fi
  theirs=$(elf_machine "$path")
  mine=$(elf_machine "$(readlink -f "$host")")
  if [ -n "$theirs" ] && [ -n "$mine" ] && [ "$theirs" != "$mine" ]; then
    echo "exec format error: built for $(machine_name "$theirs"), this machine is $(machine_name "$mine")"
  fi
}

# ---------------------------------------------------------------- the serial time cache

# program_hash PATH: a short content hash, so cached results of one build
# are never used for another.
program_hash() { sha256sum "$1" | cut -c1-16; }

# serial_time_name SCENE SIZE HASH HOST: timings depend on the machine too.
serial_time_name() { printf '%s-%spx-%s-%s.ms\n' "$1" "$2" "$3" "$4"; }

# other_runnable: how many tasks run on the machine besides this reader, at
# the quietest of five looks a tenth of a second apart (/proc/loadavg's
# fourth field; GRADE_LOADAVG_FILE stands in for it in tests); nothing
# where it is unknown. A load average would count the grader's own work
# of the last minutes, which on a machine of few cores always looks busy.
other_runnable() {
  local look n least=
  for look in 1 2 3 4 5; do
    n=$(awk '{ split($4, r, "/"); if (r[1] ~ /^[0-9]+$/) print (r[1] > 0 ? r[1] - 1 : 0); exit }' \
      "${GRADE_LOADAVG_FILE:-/proc/loadavg}" 2>/dev/null)
    [ -n "$n" ] || return 0
    if [ -z "$least" ] || [ "$n" -lt "$least" ]; then least=$n; fi
    [ "$look" = 5 ] || sleep 0.1
  done
  echo "$least"
}

# is_busy OTHERS CORES: whether that many other running tasks mean the
# machine was busy beyond the program being timed (more than half the
# other cores).
is_busy() {
  [ -n "$1" ] || return 1
  awk -v l="$1" -v c="$2" 'BEGIN { exit !(l > (c - 1) / 2) }'
}

# cached_time FILE: the time of a cache entry ("MS OTHERS" a line) measured on
# a quiet machine; fails when there is none or it was measured under load.
cached_time() {
  local ms load
  read -r ms load _ 2>/dev/null <"$1" || return 1
  [[ $ms =~ ^[0-9]+(\.[0-9]+)?$ ]] || return 1
  ! is_busy "$load" "$2" || return 1
  echo "$ms"
}

# ---------------------------------------------------------------- tables

# format_box_table TITLE TOTAL_COLUMN < TSV: the course's box layout. The
# first TSV line is the header, the others rows; a last line starting with
# "TOTAL<tab>" is the total row, its value shown in column TOTAL_COLUMN
# (1-based) under "Total score:" in the column before it.
format_box_table() {
  awk -F '\t' -v title="$1" -v tcol="$2" '
    function rule(   i, s) { s = "-"; for (i = 1; i <= ncol; i++) s = s sprintf("%" (w[i] + 3) "s", ""); gsub(/ /, "-", s); print s }
    function row(cells,   i, s) { s = "|"; for (i = 1; i <= ncol; i++) s = s sprintf(" %-" w[i] "s |", cells[i]); print s }
    function widen(i, text) { if (length(text) > w[i]) w[i] = length(text) }
    NR == 1 { ncol = NF }
    $1 == "TOTAL" { total = $2; next }
    { n++; for (i = 1; i <= ncol; i++) { cell[n, i] = $i; widen(i, $i) } }
    END {
      for (i = 1; i <= ncol; i++) if (w[i] < 15) w[i] = 15
      widen(tcol - 1, "Total score:"); widen(tcol, total)
      bar = ""; for (i = 1; i <= length(title) + 1; i++) bar = bar "-"
      print bar; print title ":"; print bar
      rule()
      for (r = 1; r <= n; r++) {
        for (i = 1; i <= ncol; i++) cells[i] = cell[r, i]
        row(cells)
        if (r == 1) rule()
      }
      if (total == "") { if (n > 0) rule(); exit }
      rule()
      # The total row: the cells before "Total score:" merge, as the course prints it.
      span = 0; for (i = 1; i < tcol - 1; i++) span += w[i] + 3
      s = sprintf("| %-" (span - 3) "s |", "")
      s = s sprintf(" %-" w[tcol - 1] "s |", "Total score:") sprintf(" %-" w[tcol] "s |", total)
      for (i = tcol + 1; i <= ncol; i++) s = s sprintf(" %-" w[i] "s |", "")
      print s
      rule()
    }'
}

# format_markdown_table TITLE TOTAL_COLUMN < TSV: the same table in Markdown.
format_markdown_table() {
  awk -F '\t' -v title="$1" -v tcol="$2" '
    function line(cells, k,   i, s) { s = "|"; for (i = 1; i <= k; i++) s = s " " cells[i] " |"; print s }
    NR == 1 { ncol = NF; print "### " title; print ""; for (i = 1; i <= NF; i++) c[i] = $i; line(c, ncol)
              s = "|"; for (i = 1; i <= NF; i++) s = s "---|"; print s; next }
    $1 == "TOTAL" {
      for (i = 1; i <= ncol; i++) c[i] = ""
      c[tcol - 1] = "**Total score:**"; c[tcol] = "**" $2 "**"; line(c, ncol); next
    }
    { for (i = 1; i <= ncol; i++) c[i] = $i; line(c, ncol) }
    END { print "" }'
}

# GRADE_CSV_AWK: the awk functions every CSV writer of the suite puts its
# cells through (tsv_to_csv, and the class's gradebooks in
# scripts/class/class_roster.sh): text a student wrote (a name, an email,
# a judge's note quoting their program) must stay text when the staff
# open the file in a spreadsheet. A cell that starts with = + - @, a tab
# or a carriage return is a formula there, quoted or not
# (=HYPERLINK(...), a DDE call): csv_inert puts a single quote before it,
# which the spreadsheet shows and which keeps the rest text. A number
# (-1, +2.5e3) and a lone "-" (no value) are no formula and stay as they
# are, so the numeric columns keep their numbers. csv_quoted(TEXT): TEXT
# inert, always quoted; csv_cell(TEXT): inert, quoted only where it holds
# a comma, a quote, a space or a line break.
# shellcheck disable=SC2016  # awk's program, not the shell's
GRADE_CSV_AWK='
  function csv_inert(text) {
    if (text ~ /^[-=+@\t\r]/ && text != "-" && text !~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/) text = "\047" text
    return text
  }
  function csv_quoted(text) { text = csv_inert(text); gsub(/"/, "\"\"", text); return "\"" text "\"" }
  function csv_cell(text) { return text ~ /[," \r\n]/ ? csv_quoted(text) : csv_inert(text) }
'

# tsv_to_csv < TSV: the same rows as CSV (GRADE_CSV_AWK's csv_cell): a
# field holding a comma, a quote or a space is quoted, one a spreadsheet
# would run as a formula made text.
tsv_to_csv() {
  awk -F '\t' "$GRADE_CSV_AWK"'{
    line = ""
    for (i = 1; i <= NF; i++) {
      f = csv_cell($i)
      line = line (i > 1 ? "," : "") f
    }
    print line
  }'
}
