#!/usr/bin/env bash
# Fuzzes the scene-file reader with libFuzzer, AddressSanitizer and
# UndefinedBehaviorSanitizer, as a small build of its own (clang only).
#
#   scripts/fuzz_scene_file.sh [SECONDS] [WORK_FOLDER]
#
# SECONDS (default 60) is the fuzzing time. WORK_FOLDER (default build-fuzz
# in the repository) keeps the binaries, the growing corpus, and any finding
# (crash-*, leak-*, timeout-*, oom-*) for the next run. Exits 0 when nothing
# was found, non-zero when libFuzzer reports a finding or the build fails.
# CXX selects the compiler (default clang++; it needs libFuzzer, e.g. the
# libclang-rt-dev package of that clang version).
set -euo pipefail

usage_line="usage: $0 [SECONDS] [WORK_FOLDER]"
usage() { echo "$usage_line" >&2; exit 2; }
if [[ ${1:-} == -h || ${1:-} == --help ]]; then
  echo "$usage_line"
  echo "Fuzzes the scene-file reader for SECONDS (default 60) with libFuzzer and ASan/UBSan;"
  echo "WORK_FOLDER (default build-fuzz) keeps the binaries, corpus and findings. CXX: a clang++."
  exit 0
fi
[[ $# -le 2 ]] || usage
seconds=${1:-60}
[[ $seconds =~ ^[1-9][0-9]*$ ]] || { echo "$0: SECONDS must be a positive whole number, not '$seconds'" >&2; exit 2; }

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=${2:-$root/build-fuzz}
cxx=${CXX:-clang++}
command -v "$cxx" >/dev/null || { echo "$0: compiler '$cxx' not found (set CXX to a clang++)" >&2; exit 1; }

mkdir -p "$work/corpus" "$work/seeds" "$work/findings"
sources=("$root"/scenes/src/*.cpp)
flags=(-std=c++17 -g -O1 -ffp-contract=off -I"$root/scenes/include" -I"$root/scenes/src")

echo "building the fuzz target with $cxx"
"$cxx" "${flags[@]}" -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
  "${sources[@]}" "$root/scenes/fuzz/fuzz_scene_file.cpp" -o "$work/fuzz_scene_file"
"$cxx" "${flags[@]}" "${sources[@]}" "$root/scenes/fuzz/make_seed_corpus.cpp" \
  -o "$work/make_seed_corpus"
"$work/make_seed_corpus" "$work/seeds"

echo "fuzzing for $seconds s; corpus in $work/corpus, findings in $work/findings"
# malloc_limit_mb: one allocation above 512 MiB is a finding, so a header
# value cannot make the reader allocate without bound.
status=0
"$work/fuzz_scene_file" "$work/corpus" "$work/seeds" \
  -dict="$root/scenes/fuzz/scene_file.dict" \
  -max_total_time="$seconds" -max_len=65536 -timeout=10 \
  -rss_limit_mb=2048 -malloc_limit_mb=512 \
  -artifact_prefix="$work/findings/" -print_final_stats=1 || status=$?
if [[ $status -ne 0 ]]; then
  echo "$0: libFuzzer reported a finding (exit $status); see $work/findings" >&2
  exit 1
fi
echo "no findings in $seconds s"
