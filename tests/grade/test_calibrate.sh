#!/usr/bin/env bash
# The calibration (scripts/dev/gpu_calibrate.sh, scripts/dev/calibrate_lib.sh):
# its tables from a real run's recorded measurements (fixtures/
# calibration_h200), the same points docs/grading.md shows; a row without
# a judged time; the scan's points; and the script's refusals without a
# GPU and on bad options.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/grade/testing.sh
source "$here/testing.sh"
# shellcheck source=scripts/dev/calibrate_lib.sh
source "$here/../../scripts/dev/calibrate_lib.sh"
scripts=$here/../../scripts
runs=$here/fixtures/calibration_h200
use_temp_folder
# The points are the judge's (judge score).
need_judge
CALIBRATE_JUDGE=$JUDGE_PROGRAM

table=$(calibration_points "$runs/own.tsv" "$runs/judged.tsv" "$runs/course.tsv" render fill pixels tiles classic ref)
expect_eq "render: the header" "| render | course reference | reference, own | reference, judged | fill | pixels | tiles | classic | ref |" \
  "$(sed -n 1p <<<"$table")"
expect_eq "render: rgb" "| rgb | 0.058 | 0.0435 | 0.1061 | 9 / 9 | 9 / 9 | 9 / 9 | 9 / 9 | 9 / 9 |" "$(grep '^| rgb ' <<<"$table")"
expect_eq "render: pattern (tiles a point apart)" "| pattern | 0.084 | 0.0681 | 0.1355 | 2 / 2 | 2 / 2 | 2 / 3 | 9 / 9 | 9 / 9 |" \
  "$(grep '^| pattern ' <<<"$table")"
expect_eq "render: rand100k (the fill not judged)" \
  "| rand100k | 4.25 | 4.5715 | 4.6461 | 2 / not judged | 2 / 2 | 2 / 2 | 7 / 8 | 9 / 9 |" "$(grep '^| rand100k ' <<<"$table")"
expect_eq "render: biglittle" "| biglittle | 2.80 | 2.7669 | 2.8038 | 2 / 2 | 2 / 2 | 4 / 4 | 6 / 6 | 9 / 9 |" \
  "$(grep '^| biglittle ' <<<"$table")"
expect_eq "render: the verdict" "render: within 1 on 30 of 30 rows judged." "$(tail -n 1 <<<"$table")"

# Rows that disagree are counted as such; scan points to 3 decimals.
printf 'scan\t1000000\t1.0\nscan\t10000000\t2.0\n' >"$tmp/course.tsv"
printf 'ref\tscan\t1000000\t1.1\nref\tscan\t1000000\t0.9\nfast\tscan\t1000000\t0.5\nslow\tscan\t1000000\t3.0\nslow\tscan\t10000000\t9.0\nref\tscan\t3\t0.1\n' \
  >"$tmp/own.tsv"
printf 'ref\tscan\t1000000\tok\t1.0000\t1.0\nfast\tscan\t1000000\tok\t0.9000\t0.9\nslow\tscan\t1000000\tok\t1.5000\t1.5\nslow\tscan\t10000000\trejected\t-\t-\n' \
  >"$tmp/judged.tsv"
table=$(calibration_points "$tmp/own.tsv" "$tmp/judged.tsv" "$tmp/course.tsv" scan fast slow)
expect_eq "scan: best own and judged times, points course / ours" \
  "| 1000000 | 1.0 | 0.9 | 1.0000 | 1.25 / 1.25 | 0.417 / 0.833 |" "$(grep '^| 1000000 ' <<<"$table")"
expect_eq "scan: no reference and a rejected row: not judged" \
  "| 10000000 | 2.0 | - | - | - / not judged | 0.278 / not judged |" "$(grep '^| 10000000 ' <<<"$table")"
expect_eq "scan: a size measured without a course time" "| 3 | - | 0.1 | - | - / not judged | - / not judged |" \
  "$(grep '^| 3 ' <<<"$table")"
expect_eq "scan: the verdict counts the row 0.4 apart as not within" "scan: within 0.15 on 1 of 2 rows judged." \
  "$(tail -n 1 <<<"$table")"

# Without a GPU: one line, exit 1, before any build.
fakebin=$tmp/fakebin
mkdir -p "$fakebin"
printf '#!/bin/sh\necho "NVIDIA-SMI has failed because it could not communicate with the NVIDIA driver." >&2\nexit 9\n' \
  >"$fakebin/nvidia-smi"
chmod +x "$fakebin/nvidia-smi"
err=$(PATH="$fakebin:$PATH" "$scripts/dev/gpu_calibrate.sh" --logs "$tmp/logs" 2>&1 >/dev/null)
expect_eq "no GPU: exit status" 1 "$?"
expect_match "no GPU: said" '^gpu_calibrate.sh: no GPU here: nvidia-smi says: NVIDIA-SMI has failed' "$err"
[ ! -e "$tmp/logs" ] || fail "no GPU: a log folder was made"

# Usage errors: exit 2, one line each.
usage() {  # usage WHAT EXPECTED_RE ARGS...
  local what=$1 re=$2 err
  shift 2
  err=$("$scripts/dev/gpu_calibrate.sh" "$@" 2>&1 >/dev/null)
  expect_eq "usage, $what: exit status" 2 "$?"
  expect_match "usage, $what: said" "$re" "$err"
}
usage "--only" "--only: 'saxpy' is not render or scan" --only saxpy
usage "--runs" "--runs: '0' is not a number from 1 to 99" --runs 0
usage "--counts" "--counts: '1e6' is not a list of element counts" --counts 1e6
usage "--scenes" "--scenes: 'rgb,,pattern' is not a list of scene names" --scenes rgb,,pattern
usage "--algorithms" "--algorithms: 'thrust' is not kogge-stone, blelloch, single-pass or cub" --algorithms cub,thrust
usage "--algorithms, a bad list" "--algorithms: 'cub,' is not a list" --algorithms cub,
usage "--algorithms, twice" "--algorithms: 'cub' named twice" --algorithms cub,blelloch,cub
usage "--course" "--course: no such file: $tmp/none" --course "$tmp/none"
printf 'render\trgb\tfast\n' >"$tmp/bad-course.tsv"
usage "--course, a bad line" "--course: line 1 of $tmp/bad-course.tsv is not TEST<tab>ITEM<tab>MS" --course "$tmp/bad-course.tsv"
usage "unknown" "unknown argument '--fast'" --fast
expect_match "--help: the usage" '^Usage: scripts/dev/gpu_calibrate.sh \[options\]' "$("$scripts/dev/gpu_calibrate.sh" --help)"
finish
