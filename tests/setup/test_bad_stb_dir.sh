#!/usr/bin/env bash
# A STB_INCLUDE_DIR without stb_image_write.h stops configure, with one
# message naming the folder (it used to pass and fail at compile time).
#   test_bad_stb_dir.sh CMAKE SOURCE_DIR GENERATOR NVCC
# Configures into a temporary folder with this build's generator and nvcc.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/grade/testing.sh
source "$here/../grade/testing.sh"
cmake=$1 source_dir=$2 generator=$3 nvcc=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

out=$("$cmake" -S "$source_dir" -B "$tmp/build" -G "$generator" -DCMAKE_CUDA_COMPILER="$nvcc" \
  -DSTB_INCLUDE_DIR="$tmp/nonexistent" 2>&1)
status=$?
expect_eq "configure fails" 1 "$status"
expect_match "names the folder" "^  STB_INCLUDE_DIR=$tmp/nonexistent holds no stb_image_write.h$" "$out"
finish
