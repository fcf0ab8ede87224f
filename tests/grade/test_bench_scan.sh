#!/usr/bin/env bash
# bench_scan.sh --data on a recorded `cudaScan --bench` run
# (fixtures/scan_bench.txt, printed by the stand-in cudaScan): one row per
# test and size, each figure the recorded table's own. Skips (77), saying
# so, until a run is recorded (fixtures/README.md).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/grade/testing.sh
source "$here/testing.sh"
recording=$here/fixtures/scan_bench.txt
if [ ! -f "$recording" ]; then
  echo "SKIPPED: no recorded cudaScan --bench run in tests/grade/fixtures/scan_bench.txt (record one on a GPU machine)"
  exit 77
fi
use_temp_folder
fake_programs "$tmp/apps/bin" cudaScan
# nvidia-smi's stand-in names the recording's GPU (its first line's).
gpu=$(sed -n '1s/^cudaScan --bench on \(.*\) (.*/\1/p' "$recording")
printf '#!/bin/sh\necho "%s"\n' "$gpu" >"$tmp/nvidia-smi"
chmod +x "$tmp/nvidia-smi"
csv=$tmp/scan.csv
PATH="$tmp:$PATH" "$here/../../scripts/dev/bench_scan.sh" "$tmp/apps" --data "$csv" >/dev/null 2>&1
expect_eq "bench_scan.sh --data: exit status" 0 "$?"
expect_eq "the page's columns" "$(head -n 1 "$here/../../docs/data/scan_bench_h200.csv")" "$(head -n 1 "$csv")"

# figure TEST N ALGORITHM FIELD: field FIELD of the recorded table's row
# (n algorithm time-us GB/s vs-cub memcpy-us of-memcpy course-ms
# course/floor), read apart from the script's parser.
figure() {
  awk -v test="$1" -v n="$2" -v algo="$3" -v field="$4" '
    /^(exclusive_scan|find_repeats),/ { t = ($1 == "exclusive_scan," ? "scan" : "find_repeats") }
    t == test && $1 == n && $2 == algo { print $field }' "$recording"
}
rows=0
for test in scan find_repeats; do
  for n in 10000000 40000000 268435456; do
    case $n in 10000000) label=10M ;; 40000000) label=40M ;; *) label=2^28 ;; esac
    line=$(grep -F "$label,$test," "$csv")
    [ -n "$line" ] && rows=$((rows + 1))
    IFS=, read -r _ _ single cub vs memcpy course floor _ <<<"$line"
    expect_eq "$label $test: single-pass us" "$(figure "$test" "$n" single-pass 3)" "$single"
    expect_eq "$label $test: CUB us" "$(figure "$test" "$n" cub 3)" "$cub"
    expect_eq "$label $test: vs CUB" "$(figure "$test" "$n" single-pass 5)" "$vs"
    expect_eq "$label $test: of memcpy" "$(figure "$test" "$n" single-pass 7)" "$memcpy"
    expect_eq "$label $test: course ms" "$(figure "$test" "$n" single-pass 8)" "$course"
    expect_eq "$label $test: course/floor" "$(figure "$test" "$n" single-pass 9)" "$floor"
  done
done
expect_eq "one row per test and size" 6 "$rows"
expect_eq "every row's GPU, the recording's" "$gpu" "$(tail -n +2 "$csv" | awk -F, '{ print $NF }' | sort -u)"
finish
