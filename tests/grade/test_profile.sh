#!/usr/bin/env bash
# scripts/profile.sh on a stand-in ncu (fake/ncu) and render: the counters
# summed and weighted per rung, the CSV, the clear stops when ncu is missing
# or may not read the counters, the chart drawn by gnuplot from a CSV, and
# in a handout the student's code beside the reference programs.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/grade/testing.sh
source "$here/testing.sh"
profile=$here/../../scripts/profile.sh

# render and cudaScan stand-ins: ncu's fake reads their command lines only.
use_temp_folder
bin=$tmp/bin
fake_programs "$bin" render cudaScan cudaSaxpy

# run NAME ARGS...: profile.sh on the fakes; sets OUT, ERR, STATUS, CSV and
# CALLS (ncu's command lines).
run() {
  local name=$1
  shift
  : >"$tmp/$name.calls"
  OUT=$(FAKE_CALLS=$tmp/$name.calls NCU=$here/fake/ncu GNUPLOT=${GNUPLOT_FOR_TEST:-/nonexistent/gnuplot} "$profile" --bin-dir "$bin" \
    --out "$tmp/$name" "$@" 2>"$tmp/$name.err")
  STATUS=$?
  ERR=$(cat "$tmp/$name.err")
  CSV=$(cat "$tmp/$name/profile.csv" 2>/dev/null)
  CALLS=$(cat "$tmp/$name.calls")
}

run ladder --scenes rgb,pattern --rungs pixels,classic
expect_eq "ladder: exit status" 0 "$STATUS"
expect_eq "ladder: csv header" \
  part,item,rung,kernels,time_ms,inst_executed,warp_efficiency_pct,branch_uniform_pct,occupancy_pct,dram_bytes,dram_throughput_pct,shared_wavefronts,top_stalls \
  "$(head -n 1 <<<"$CSV")"
# Two kernels of 1,000,000 ns, as ncu writes them ("ns", thousands
# separated): 2 ms in all. Instructions, bytes summed; 32 and 16 threads per
# warp instruction weighted by time: 24 of 32, 75%; 80% and 90% uniform: 85%.
# Stalls averaged the same way, "selected" left out: long_scoreboard (50 +
# 20) / 2, barrier (10 + 40) / 2, mio_throttle 15 / 2; wait 2.5 is fourth.
expect_eq "ladder: a row" "render,rgb,classic,2,2.0000,3001000,75.0,85.0,80.0,8388608,50.0,2000,long_scoreboard 35.0;barrier 25.0;mio_throttle 7.5" \
  "$(grep '^render,rgb,classic,' <<<"$CSV")"
expect_eq "ladder: a row per scene and rung" 4 "$(grep -c '^render,' <<<"$CSV")"
expect_match "ladder: the table" '^classic +2 +2.0000 +3.001e\+06 +75.0% +85.0% +80.0% +8.39 +50.0% +2000  long_scoreboard 35.0%, barrier 25.0%, mio_throttle 7.5%$' "$OUT"
expect_match "ladder: ncu as asked" "^ncu --clock-control none --csv --print-units base --metrics gpu__time_duration.sum,smsp__inst_executed.sum,.*,regex:smsp__warp_issue_stalled_\.\*_per_warp_active\\\\\.pct $bin/render -r cuda --cuda-mode pixels -s 1024 -b 0:1 -f  pattern\$" "$CALLS"
expect_match "ladder: the stalls explained" '^    long_scoreboard +a load from device memory' "$OUT"
expect_match "ladder: no gnuplot said" '^profile.sh: gnuplot is not installed: no chart' "$ERR"

FAKE_NCU_NS=pixels=9000000 run weighted --scenes rgb --rungs pixels
# 1 ms at 32 threads and 9 ms at 16: (32 + 9 * 16) / 10 = 17.6 of 32, 55%;
# 80% and 90% uniform: (80 + 9 * 90) / 10 = 89%; barrier (10 + 9 * 40) / 10
# = 37% ahead of long_scoreboard (50 + 9 * 20) / 10 = 23%.
expect_eq "weighted by time" "render,rgb,pixels,2,10.0000,3001000,55.0,89.0,80.0,8388608,50.0,2000,barrier 37.0;long_scoreboard 23.0;mio_throttle 13.5" \
  "$(grep '^render,' <<<"$CSV")"

FAKE_NCU_NO_STALLS=1 run nostalls --scenes rgb --rungs pixels
expect_eq "no stall reasons: an empty field" "render,rgb,pixels,2,2.0000,3001000,75.0,85.0,80.0,8388608,50.0,2000," "$(grep '^render,' <<<"$CSV")"
expect_match "no stall reasons: n/a in the table" '^pixels .* 2000  n/a$' "$OUT"

FAKE_NCU_NS=tiles=123456789 run ns --scenes rgb --rungs tiles
expect_eq "ns to ms: 1,000,000 + 123,456,789 ns" "render,rgb,tiles,2,124.4568" "$(grep -o '^render,rgb,tiles,2,[^,]*' <<<"$CSV")"

FAKE_NCU_TIME_UNIT=usecond run usecond --scenes rgb --rungs tiles
expect_eq "older ncu's usecond to ms" "render,rgb,tiles,2,2000.0000" "$(grep -o '^render,rgb,tiles,2,[^,]*' <<<"$CSV")"
FAKE_NCU_TIME_UNIT=cycle run badunit --scenes rgb --rungs tiles
expect_eq "unknown time unit: exit status" 1 "$STATUS"
expect_match "unknown time unit: said" '^profile.sh: unknown time unit "cycle" in .*render-rgb-tiles.log$' "$ERR"
expect_eq "unknown time unit: no row" 0 "$(grep -c '^render,' <<<"$CSV")"

# A kernel that runs no branch reports 0% uniform: left out of the average,
# and n/a (an empty field) when no kernel ran one.
FAKE_NCU_NO_BRANCH=pixels=main,classic=all run nobranch --scenes rgb --rungs pixels,classic
expect_eq "no branch in one kernel: the other's" "80.0" "$(awk -F, '$3 == "pixels" { print $8 }' <<<"$CSV")"
expect_eq "no branch at all: empty" "render,rgb,classic,2,2.0000,3001000,75.0,,80.0,8388608,50.0,2000" "$(grep -o '^render,rgb,classic,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*' <<<"$CSV")"
expect_match "no branch at all: n/a in the table" '^classic +2 +2.0000 +3.001e\+06 +75.0% +n/a +80.0% ' "$OUT"

run scan --scenes rgb --rungs auto --scan --counts 1000
expect_eq "scan: every algorithm and test" 8 "$(grep -cE '^(scan|find_repeats),1000,' <<<"$CSV")"

run saxpy --scenes rgb --rungs auto --saxpy --saxpy-count 1000
expect_eq "saxpy: exit status" 0 "$STATUS"
expect_eq "saxpy: the course's and the tuned trip" "saxpy,1000,course saxpy,1000,tuned" \
  "$(grep -o '^saxpy,1000,[a-z]*' <<<"$CSV" | tr '\n' ' ' | sed 's/ $//')"
expect_match "saxpy: one run of each" " $bin/cudaSaxpy -v tuned -r 1 -n 1000\$" "$CALLS"

FAKE_NCU_PERM=1 run perm --scenes rgb --rungs auto
expect_eq "no permission: exit status" 1 "$STATUS"
expect_match "no permission: what to do" '^profile.sh: ncu may not read the GPU.s performance counters here \(ERR_NVGPUCTRPERM.*NVreg_RestrictProfilingToAdminUsers=0' "$ERR"

OUT=$(NCU=/nonexistent/ncu "$profile" --bin-dir "$bin" --out "$tmp/noncu" 2>&1)
expect_eq "no ncu: exit status" 1 "$?"
expect_match "no ncu: what to do" '^profile.sh: ncu \(Nsight Compute\) is not installed or not on PATH' "$OUT"

# Bad values: exit status 2, one line, before ncu is looked for.
usage() {  # usage NAME MESSAGE_RE ARGS...
  local name=$1 re=$2 err
  shift 2
  err=$(NCU=/nonexistent/ncu "$profile" "$@" 2>&1 >/dev/null)
  expect_eq "usage, $name: exit status" 2 "$?"
  expect_match "usage, $name: message" "$re" "$err"
  expect_eq "usage, $name: one line" 1 "$(wc -l <<<"$err")"
}
usage "unknown argument" "^profile.sh: unknown argument '--fast'" --fast
usage "missing value" "^profile.sh: --size needs a value" --size
usage "empty value" "^profile.sh: --out needs a value" --out=
usage "bad size" "^profile.sh: --size: '0' is not a size" --size 0
usage "bad rungs" "^profile.sh: --rungs: 'a b' is not a comma-separated list" --rungs "a b"
usage "bad timeout" "^profile.sh: --timeout: 'x' is not a number of seconds" --timeout x
usage "bad saxpy count" "^profile.sh: --saxpy-count: '0' is not a count" --saxpy-count 0
usage "saxpy count past cudaSaxpy's" "^profile.sh: --saxpy-count: '8589934593' is not a count from 1 to 8589934592" \
  --saxpy-count 8589934593

# The chart, from a CSV written by hand in profile.sh's layout.
cat >"$tmp/synthetic.csv" <<'CSV'
part,item,rung,kernels,time_ms,inst_executed,warp_efficiency_pct,branch_uniform_pct,occupancy_pct,dram_bytes,dram_throughput_pct,shared_wavefronts
render,rgb,pixels,2,5.0,1,1,1,1,1,1,1
render,rgb,classic,2,0.5,1,1,1,1,1,1,1
render,rand10k,pixels,2,50.0,1,1,1,1,1,1,1
render,rand10k,classic,2,1.5,1,1,1,1,1,1,1
scan,1000,cub,1,0.01,1,1,1,1,1,1,1
CSV
OUT=$(GNUPLOT=/nonexistent/gnuplot "$profile" --plot "$tmp/synthetic.csv" 2>&1)
expect_eq "plot without gnuplot: exit status" 1 "$?"
expect_match "plot without gnuplot: said" '^profile.sh: gnuplot is not installed .*: install it' "$OUT"
# Stopped while gnuplot draws (a gnuplot that sends the signal to
# profile.sh): exit 130 or 143 and no temporary file left.
mkdir -p "$tmp/fake-gnuplot" "$tmp/tmpdir"
for signal in INT:130 TERM:143 HUP:129; do
  # shellcheck disable=SC2016  # expanded by the fake gnuplot
  printf '#!/bin/sh\nkill -%s "$PPID"\n' "${signal%:*}" >"$tmp/fake-gnuplot/gnuplot"
  chmod +x "$tmp/fake-gnuplot/gnuplot"
  OUT=$(TMPDIR=$tmp/tmpdir GNUPLOT=$tmp/fake-gnuplot/gnuplot "$profile" --plot "$tmp/synthetic.csv" 2>&1)
  expect_eq "plot stopped by SIG${signal%:*}: exit status" "${signal#*:}" "$?"
  expect_eq "plot stopped by SIG${signal%:*}: said" "profile.sh: stopped by SIG${signal%:*}" "$OUT"
  expect_eq "plot stopped by SIG${signal%:*}: no temporary file left" "" "$(ls -A "$tmp/tmpdir")"
done
# Stopped while ncu runs (a stand-in that pauses): ncu stops at once too,
# exit 130 or 143 with one line.
if have_proc; then
  printf '#!/bin/sh\nexec sleep %s\n' "$pause" >"$tmp/pausing-ncu"
  chmod +x "$tmp/pausing-ncu"
  for signal in INT:130 TERM:143; do
    stop_while_paused "profiling stopped by SIG${signal%:*}" "${signal%:*}" "${signal#*:}" env NCU="$tmp/pausing-ncu" \
      "$profile" --bin-dir "$bin" --out "$tmp/stopped-${signal%:*}" --scenes rgb --rungs pixels,classic
    expect_eq "profiling stopped by SIG${signal%:*}: said" \
      "profile.sh: stopped by SIG${signal%:*}: the results so far are in $tmp/stopped-${signal%:*}" "$(tail -n 1 <<<"$STOP_ERR")"
  done
else
  skip_part "stopped while ncu runs (no /proc to find processes in)"
fi
# In a handout: the student's renderer and scan beside the reference
# programs by default, with the hints on reading the table.
hand=$tmp/handout
mkdir -p "$hand/scripts" "$hand/ref"
cp "$here/../../scripts/profile.sh" "$here/../../scripts/options_lib.sh" "$here/../../scripts/run_lib.sh" \
  "$hand/scripts/"
touch "$hand/.handout"
OUT=$(FAKE_CALLS=$tmp/handout-noref.calls NCU=$here/fake/ncu "$hand/scripts/profile.sh" --bin-dir "$bin" \
  --out "$tmp/handout-noref" --scenes rgb 2>&1)
expect_eq "handout without reference programs: exit status" 1 "$?"
expect_match "handout without reference programs: says so" 'the reference programs are missing \(ref/render_ref\)' "$OUT"
# ncu's stand-in only reads their command lines.
for program in render_ref cudaScan_ref; do printf '#!/bin/sh\n' >"$hand/ref/$program" && chmod +x "$hand/ref/$program"; done
: >"$tmp/handout.calls"
OUT=$(FAKE_CALLS=$tmp/handout.calls NCU=$here/fake/ncu GNUPLOT=/nonexistent/gnuplot "$hand/scripts/profile.sh" \
  --bin-dir "$bin" --out "$tmp/handout" --scenes rgb --scan --counts 1000 --saxpy --saxpy-count 1000 2>/dev/null)
expect_eq "handout: exit status" 0 "$?"
CALLS=$(cat "$tmp/handout.calls")
expect_match "handout: the student's renderer" " $bin/render -r student -s 1024 -b 0:1 -f  rgb\$" "$CALLS"
expect_match "handout: the reference renderer" " $hand/ref/render_ref -r cuda -s 1024 -b 0:1 -f  rgb\$" "$CALLS"
expect_match "handout: the student's scan" " $bin/cudaScan -a student -m scan -i random -n 1000\$" "$CALLS"
expect_match "handout: the reference scan" " $hand/ref/cudaScan_ref -m find_repeats -i random -n 1000\$" "$CALLS"
expect_match "handout: the student's saxpy" " $bin/cudaSaxpy -v student -r 1 -n 1000\$" "$CALLS"
expect_eq "handout: no suite rung" "" "$(grep -e '--cuda-mode' -e '-v course' -e '-v tuned' <<<"$CALLS")"
expect_eq "handout: the rows" "render,rgb,student render,rgb,reference" \
  "$(grep -o '^render,rgb,[a-z]*' "$tmp/handout/profile.csv" | tr '\n' ' ' | sed 's/ $//')"
expect_match "handout: how to read the table" '^Reading the table' "$OUT"
OUT=$(NCU=$here/fake/ncu "$hand/scripts/profile.sh" --bin-dir "$bin" --out "$tmp/handout-rung" --rungs student,classic 2>&1)
expect_eq "handout, a suite rung: usage error" 2 "$?"
expect_match "handout, a suite rung: says why" "'classic' is one of the suite's renderers" "$OUT"

if command -v gnuplot >/dev/null; then
  OUT=$("$profile" --plot "$tmp/synthetic.csv" "$tmp/chart.png" 2>&1)
  expect_eq "plot: exit status" 0 "$?"
  expect_eq "plot: said" "Chart: $tmp/chart.png" "$OUT"
  expect_eq "plot: a PNG" $'\x89PNG' "$(head -c 4 "$tmp/chart.png")"
else
  skip_part "the chart (gnuplot is not installed)"
fi
finish
