#!/usr/bin/env bash
# The GPU machine's scripts run on stand-ins that finish at once (the real
# steps need a GPU): gpu_render.sh to its end, its summary table and exit
# status with every run passing and with failed checks; a log folder that
# cannot be made is one line and exit 1; bench_render.sh --data and
# bench_cpu_render.sh --data write the CSV a measurement page shows, or
# nothing.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/grade/testing.sh
source "$here/testing.sh"
scripts=$here/../../scripts
# The summary names the per-run limit: the default one, whatever the caller
# set (gpu_check.sh runs may set it for the whole ctest).
unset GPU_RENDER_RUN_LIMIT

use_temp_folder
# Stand-ins on PATH: a GPU, and a compute-sanitizer that runs the program
# it is given (after --tool T --error-exitcode N).
fakebin=$tmp/fakebin
mkdir -p "$fakebin"
printf '#!/bin/sh\necho "NVIDIA H200, 570.86.15, 143771 MiB"\n' >"$fakebin/nvidia-smi"
# shellcheck disable=SC2016  # expanded by the stand-in
printf '#!/bin/sh\necho "compute-sanitizer $*"\nshift 4\nexec "$@"\n' >"$fakebin/compute-sanitizer"
chmod +x "$fakebin"/*
# A build folder of fakes.
build=$tmp/build
fake_programs "$build/bin" render
printf '#!/bin/sh\nexit 0\n' >"$build/bin/render_cuda_tests"
chmod +x "$build/bin/render_cuda_tests"

# render_to_end NAME ENV...: gpu_render.sh --no-bench to its end on the fakes,
# the scenes FAKE_SCENES lists; OUT its stdout, STATUS its exit status.
render_to_end() {
  local name=$1
  shift
  OUT=$(env PATH="$fakebin:$PATH" "$@" "$scripts/dev/gpu_render.sh" "$build" "$tmp/$name" --no-bench 2>"$tmp/$name.err")
  STATUS=$?
}
line() { printf '  %-9s %3d passed, %d failed, %d timed out (limit 900s)\n' "$@"; }

# Every run passes: one scene of each kind (a few circles; 100,000, which
# racecheck and the ladder's rungs cut to their first 5,000; animated).
render_to_end pass FAKE_SCENES=rgb,rand100k,snow FAKE_CALLS="$tmp/calls"
expect_eq "gpu_render.sh, all pass: exit status" 0 "$STATUS"
expect_eq "gpu_render.sh, all pass: the summary" "CUDA renderer (scripts/dev/gpu_render.sh):
$(line check 30 0 0)
$(line sanitize 36 0 0)
$(line oom 1 0 0)" "$OUT"
expect_eq "gpu_render.sh, all pass: summary.txt holds it" "$OUT" "$(cat "$tmp/pass/summary.txt")"
expect_eq "gpu_render.sh, all pass: nothing on stderr" "" "$(cat "$tmp/pass.err")"
expect_match "gpu_render.sh: checks an animated scene on three frames" \
  "^render -r cuda --cuda-mode tiled -s 1024 -b 0:3 -c -f  snow$" "$(cat "$tmp/calls")"
expect_match "gpu_render.sh: racecheck draws a large scene's first circles" "--first 5000" \
  "$(cat "$tmp/pass/sanitize/racecheck-rand100k-tiled.log" 2>&1)"
expect_no_match "gpu_render.sh: memcheck draws all of the scene in tiled mode" "--first" \
  "$(cat "$tmp/pass/sanitize/memcheck-rand100k-tiled.log" 2>&1)"

# Checks that fail: exit 1, the failed runs named in the summary.
render_to_end wrong FAKE_SCENES=rgb FAKE_WRONG_MODES=binned
expect_eq "gpu_render.sh, failed checks: exit status" 1 "$STATUS"
expect_eq "gpu_render.sh, failed checks: the summary" "CUDA renderer (scripts/dev/gpu_render.sh):
$(line check 8 2 0)
$(line sanitize 12 0 0)
$(line oom 1 0 0)
  FAIL check rgb-binned-1024
  FAIL check rgb-binned-517" "$OUT"

# A log folder inside a file: "SCRIPT: cannot create FOLDER", exit 1,
# before anything runs.
: >"$tmp/file"
bad=$tmp/file/logs
for command in "gpu_render.sh $build $bad --no-bench" "gpu_scan.sh $tmp/scan-build $bad" \
  "gpu_check.sh --logs $bad" "gpu_portable.sh --logs $bad"; do
  script=${command%% *}
  # shellcheck disable=SC2086  # the command's words
  out=$(PATH="$fakebin:$PATH" "$scripts/dev/"$command 2>&1)
  expect_eq "$script, log folder in a file: exit status" 1 "$?"
  expect_eq "$script, log folder in a file: says so last" "$script: cannot create $bad" "$(tail -n 1 <<<"$out")"
done

# bench_render.sh --data: the CSV docs/data/render_cuda_h200.csv holds, in
# its columns, from the stand-in's Total and CUDA mode lines.
gpu_name=$tmp/gpu-name
mkdir -p "$gpu_name"
printf '#!/bin/sh\necho "NVIDIA H200"\n' >"$gpu_name/nvidia-smi"
chmod +x "$gpu_name/nvidia-smi"
commit=$(git -C "$here/../.." rev-parse --short HEAD 2>/dev/null) || commit=unknown
bench() {
  env PATH="$gpu_name:$PATH" FAKE_MS=rgb=0.0179,rand1M=1.0161 FAKE_MODE_MS=binned=0.0592 \
    FAKE_AUTO_CHOICE=rand1M=binned "$@" "$scripts/dev/bench_render.sh" "$build" --runs 2 --data "$csv_file" \
    >"$tmp/bench.out" 2>"$tmp/bench.err"
}
mkdir -p "$tmp/data"
csv_file=$tmp/data/render.csv
bench
expect_eq "bench_render.sh --data: exit status" 0 "$?"
expect_eq "bench_render.sh --data: the page's columns" "$(head -n 1 "$here/../../docs/data/render_cuda_h200.csv")" \
  "$(head -n 1 "$csv_file")"
expect_eq "bench_render.sh --data: a row per scene" 9 "$(($(wc -l <"$csv_file") - 1))"
expect_eq "bench_render.sh --data: a tiled scene" \
  "rgb,0.035,0.015,0.0179,tiled,\"met, 0.51×\",\"missed, 1.19×\",0.0179,0.0592,$commit,NVIDIA H200" \
  "$(grep '^rgb,' "$csv_file")"
expect_eq "bench_render.sh --data: a binned scene" \
  "rand1M,1.25,0.50,1.0161,binned,\"met, 0.81×\",\"missed, 2.03×\",1.0161,0.0592,$commit,NVIDIA H200" \
  "$(grep '^rand1M,' "$csv_file")"
expect_eq "bench_render.sh --data: says so" "bench_render.sh: wrote $csv_file" "$(cat "$tmp/bench.err")"
expect_eq "bench_render.sh --data: nothing else beside it" "render.csv" "$(ls "$tmp/data")"
# The page's table is made from such a file.
mkdir -p "$tmp/docs/data"
cp "$csv_file" "$tmp/docs/data/render_cuda_h200.csv"
printf '%s\n' '<!-- table: begin (made from data/render_cuda_h200.csv) -->' '<!-- table: end -->' >"$tmp/page.md"
"$scripts/dev/measurement_tables.sh" --docs "$tmp/docs" --write "$tmp/page.md"
expect_match "bench_render.sh --data: a page's table" '^\| rgb \| 0.035 \| 0.015 \| 0.0179 \| tiled \| met, 0.51× \|' \
  "$(cat "$tmp/page.md")"
# A failed run: the file is left as it was, nothing beside it.
cp "$csv_file" "$tmp/before.csv"
bench FAKE_NO_GPU=1
expect_eq "bench_render.sh --data, failed runs: exit status" 1 "$?"
expect_eq "bench_render.sh --data, failed runs: the file as it was" "" "$(diff "$tmp/before.csv" "$csv_file")"
expect_eq "bench_render.sh --data, failed runs: says so" "bench_render.sh: a run failed, so $csv_file is left as it was" \
  "$(tail -n 1 "$tmp/bench.err")"
expect_eq "bench_render.sh --data, failed runs: nothing beside it" "render.csv" "$(ls "$tmp/data")"
# A path that cannot be written: one line and exit 1, before any run.
for bad in "$tmp/file/render.csv" "$tmp/data"; do
  csv_file=$bad
  bench FAKE_CALLS="$tmp/bench-calls"
  expect_eq "bench_render.sh --data $bad: exit status" 1 "$?"
  expect_eq "bench_render.sh --data $bad: one line" "bench_render.sh: --data: cannot write $bad" "$(cat "$tmp/bench.err")"
  expect_eq "bench_render.sh --data $bad: nothing ran" no "$([ -e "$tmp/bench-calls" ] && echo yes || echo no)"
done
# bench_cpu_render.sh --data, on a stand-in render_bench_cpu printing the
# real one's lines (the formats of render/bench/bench_cpu_render.cpp) and a
# cmake that builds nothing.
cpu_build=$tmp/cpu-build
mkdir -p "$cpu_build/bin" "$tmp/cpu-fakebin"
: >"$cpu_build/CMakeCache.txt"
printf '#!/bin/sh\nexit 0\n' >"$tmp/cpu-fakebin/cmake"
cat >"$cpu_build/bin/render_bench_cpu" <<'FAKE'
#!/bin/sh
printf "CPU renderer vs serial reference: render phase, median of %d frames, %dx%d\n" 3 1024 1024
printf "Hardware threads: %d; multithreaded run: %d threads (target: speedup >= 0.8 x %d = %.1f)\n\n" 16 16 16 12.8
printf "%-10s %12s %12s %12s %12s %10s %10s %10s %s\n" scene "cpuref ms" "cpu 1t ms" "cpu all ms" "full all ms" "x (1t)" "x (all)" "x (full)" images
printf "%-10s %12.1f %12.1f %12.1f %12.1f %10.2f %10.2f %10.2f %s\n" rand10k 410.3 113.8 21.3 30.0 3.61 19.28 1.41 identical
printf "%-10s %12.1f %12.1f %12.1f %12.1f %10.2f %10.2f %10.2f %s\n" rand100k 4066.7 1377.0 162.4 200.0 2.95 25.04 1.23 "${FAKE_IMAGES:-identical}"
[ -z "${FAKE_IMAGES:-}" ]
FAKE
chmod +x "$tmp/cpu-fakebin/cmake" "$cpu_build/bin/render_bench_cpu"
cpu_bench() {
  env PATH="$tmp/cpu-fakebin:$PATH" BUILD_DIR="$cpu_build" "$@" "$scripts/dev/bench_cpu_render.sh" --data "$csv_file" \
    >"$tmp/cpu.out" 2>"$tmp/cpu.err"
}
mkdir -p "$tmp/cpu-data"
csv_file=$tmp/cpu-data/cpu.csv
cpu_bench
expect_eq "bench_cpu_render.sh --data: exit status" 0 "$?"
expect_eq "bench_cpu_render.sh --data: the page's columns" "$(head -n 1 "$here/../../docs/data/render_cpu_xeon16.csv")" \
  "$(head -n 1 "$csv_file")"
model=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ //') || model=""
expect_eq "bench_cpu_render.sh --data: the rows" "rand10k,410.3,113.8,21.3,3.61,19.28,$commit,${model:-unknown} (16 cores)
rand100k,4066.7,1377.0,162.4,2.95,25.04,$commit,${model:-unknown} (16 cores)" "$(sed 1d "$csv_file" | tr -d '"')"
expect_eq "bench_cpu_render.sh --data: nothing else beside it" "cpu.csv" "$(ls "$tmp/cpu-data")"
cp "$csv_file" "$tmp/cpu-before.csv"
cpu_bench FAKE_IMAGES=DIFFER
expect_eq "bench_cpu_render.sh --data, images differ: exit status" 1 "$?"
expect_eq "bench_cpu_render.sh --data, images differ: the file as it was" "" "$(diff "$tmp/cpu-before.csv" "$csv_file")"
expect_eq "bench_cpu_render.sh --data, images differ: nothing beside it" "cpu.csv" "$(ls "$tmp/cpu-data")"
csv_file=$tmp/file/cpu.csv
cpu_bench
expect_eq "bench_cpu_render.sh --data in a file: exit status" 1 "$?"
expect_eq "bench_cpu_render.sh --data in a file: one line" "bench_cpu_render.sh: --data: cannot write $csv_file" "$(cat "$tmp/cpu.err")"

# bench_scan.sh --data on the stand-in cudaScan. Its rows from a recorded
# --bench run: test_bench_scan.sh (bench_scan_recorded), which skips until
# a run is recorded.
apps=$tmp/apps
fake_programs "$apps/bin" cudaScan cudaSaxpy
data_csv=$here/../../docs/data
# app_bench SCRIPT ENV...: SCRIPT --data $csv_file on the stand-ins; its
# stdout and stderr in $tmp/app.out and $tmp/app.err.
app_bench() {
  local script=$1
  shift
  env PATH="$gpu_name:$PATH" "$@" "$scripts/dev/$script" "$apps" --data "$csv_file" >"$tmp/app.out" 2>"$tmp/app.err"
}
# rows_as_page FILE COMMIT: the CSV FILE with its commit column (the one
# before the last) set to COMMIT.
rows_as_page() { awk -F, -v OFS=, -v c="$2" 'NR > 1 { $(NF - 1) = c } { print }' "$1"; }
mkdir -p "$tmp/scan-data"
csv_file=$tmp/scan-data/scan.csv
cp "$data_csv/scan_bench_h200.csv" "$csv_file"
rm -f "$tmp/scan-calls"
env PATH="$gpu_name:$PATH" FAKE_CALLS="$tmp/scan-calls" "$scripts/dev/bench_scan.sh" "$apps" -m find_repeats -n 1000000 \
  >/dev/null 2>&1
expect_eq "bench_scan.sh -m -n: passed on" "cudaScan --bench -m find_repeats -n 1000000" "$(cat "$tmp/scan-calls")"
# A failed run: the file is left as it was, nothing beside it.
cp "$csv_file" "$tmp/before.csv"
app_bench bench_scan.sh FAKE_NO_GPU=1
expect_eq "bench_scan.sh --data, failed run: exit status" 1 "$?"
expect_eq "bench_scan.sh --data, failed run: the file as it was" "" "$(diff "$tmp/before.csv" "$csv_file")"
expect_eq "bench_scan.sh --data, failed run: says so" \
  "bench_scan.sh: cudaScan --bench failed (exit status 1), so $csv_file is left as it was" "$(tail -n 1 "$tmp/app.err")"
expect_eq "bench_scan.sh --data, failed run: nothing beside it" "scan.csv" "$(ls "$tmp/scan-data")"
# Output without the tables it knows (another program's, cudaSaxpy's
# recorded run): refused, the file as it was.
mkdir -p "$tmp/other/bin"
printf '#!/bin/sh\ncat "%s"\n' "$here/fixtures/saxpy_ours.txt" >"$tmp/other/bin/cudaScan"
chmod +x "$tmp/other/bin/cudaScan"
env PATH="$gpu_name:$PATH" "$scripts/dev/bench_scan.sh" "$tmp/other" --data "$csv_file" >/dev/null 2>"$tmp/app.err"
expect_eq "bench_scan.sh --data, no tables: exit status" 1 "$?"
expect_eq "bench_scan.sh --data, no tables: says why" "bench_scan.sh: cudaScan --bench printed no single-pass row
bench_scan.sh: so $csv_file is left as it was" "$(cat "$tmp/app.err")"
expect_eq "bench_scan.sh --data, no tables: the file as it was" "" "$(diff "$tmp/before.csv" "$csv_file")"
expect_eq "bench_scan.sh --data, no tables: nothing beside it" "scan.csv" "$(ls "$tmp/scan-data")"

# bench_saxpy.sh --data, on the stand-in cudaSaxpy, which prints a run
# recorded on an H200 (fixtures/saxpy_ours.txt): its summary rows.
mkdir -p "$tmp/saxpy-data"
csv_file=$tmp/saxpy-data/saxpy.csv
rm -f "$tmp/saxpy-calls"
app_bench bench_saxpy.sh FAKE_CALLS="$tmp/saxpy-calls"
expect_eq "bench_saxpy.sh --data: exit status" 0 "$?"
expect_eq "bench_saxpy.sh --data: ran gpu_check.sh's command" "cudaSaxpy -n 100000000 -r 5" "$(cat "$tmp/saxpy-calls")"
expect_eq "bench_saxpy.sh --data: the page's columns" "$(head -n 1 "$data_csv/saxpy_h200.csv")" "$(head -n 1 "$csv_file")"
expect_eq "bench_saxpy.sh --data: the rows" "course,113.5 ms,0.390 ms,0.76,7.86,$commit,NVIDIA H200
tuned,15.7 ms,0.291 ms,1.01,1.09,$commit,NVIDIA H200" "$(sed 1d "$csv_file")"
expect_eq "bench_saxpy.sh --data: prints cudaSaxpy's output" "$(cat "$here/fixtures/saxpy_ours.txt")" "$(cat "$tmp/app.out")"
expect_eq "bench_saxpy.sh --data: says so" "bench_saxpy.sh: wrote $csv_file" "$(cat "$tmp/app.err")"
# A run whose result is wrong (it prints its summary all the same): the
# file is left as it was, nothing beside it.
cp "$csv_file" "$tmp/before.csv"
app_bench bench_saxpy.sh FAKE_WRONG=1
expect_eq "bench_saxpy.sh --data, wrong result: exit status" 1 "$?"
expect_eq "bench_saxpy.sh --data, wrong result: the file as it was" "" "$(diff "$tmp/before.csv" "$csv_file")"
expect_eq "bench_saxpy.sh --data, wrong result: nothing beside it" "saxpy.csv" "$(ls "$tmp/saxpy-data")"

# Both: a path that cannot be written is one line and exit 1, before any
# run; usage errors one line and exit 2; --help exit 0.
for script in bench_scan.sh bench_saxpy.sh; do
  for bad in "$tmp/file/data.csv" "$tmp/saxpy-data"; do
    csv_file=$bad
    rm -f "$tmp/app-calls"
    app_bench "$script" FAKE_CALLS="$tmp/app-calls"
    expect_eq "$script --data $bad: exit status" 1 "$?"
    expect_eq "$script --data $bad: one line" "$script: --data: cannot write $bad" "$(cat "$tmp/app.err")"
    expect_eq "$script --data $bad: nothing ran" no "$([ -e "$tmp/app-calls" ] && echo yes || echo no)"
  done
  for args in "" "--data" "$apps --data" "$apps --bogus" "--bogus $apps"; do
    # shellcheck disable=SC2086  # the arguments' words
    err=$("$scripts/dev/$script" $args 2>&1 >/dev/null)
    expect_eq "$script $args: exit status" 2 "$?"
    expect_eq "$script $args: one line" 1 "$(wc -l <<<"$err")"
  done
  "$scripts/dev/$script" --help >"$tmp/help.out" 2>&1
  expect_eq "$script --help: exit status" 0 "$?"
  expect_match "$script --help: the usage" "^Usage: scripts/dev/$script BUILD_DIR" "$(cat "$tmp/help.out")"
done
for args in "-m bogus" "-n 0" "-n x" "-m"; do
  # shellcheck disable=SC2086  # the arguments' words
  err=$("$scripts/dev/bench_scan.sh" "$apps" $args 2>&1 >/dev/null)
  expect_eq "bench_scan.sh $args: exit status" 2 "$?"
  expect_eq "bench_scan.sh $args: one line" 1 "$(wc -l <<<"$err")"
done

finish
