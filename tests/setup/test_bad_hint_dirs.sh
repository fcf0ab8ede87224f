#!/usr/bin/env bash
# A hint naming a folder or file that is not there stops configure, with one
# message naming it (a bad STB_INCLUDE_DIR used to pass and fail at compile
# time): STB_INCLUDE_DIR without stb_image_write.h, GIF_INCLUDE_DIR without
# gif_lib.h, a GIF_LIBRARY that does not exist.
#   test_bad_hint_dirs.sh CMAKE SOURCE_DIR GENERATOR NVCC STB_INCLUDE_DIR
# Configures into a temporary folder with this build's generator, nvcc and
# stb folder; the later runs reuse the first one's compiler checks.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/grade/testing.sh
source "$here/../grade/testing.sh"
cmake=$1 source_dir=$2 generator=$3 nvcc=$4 stb_dir=$5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# configure ARGS...: sets out (its output) and status.
configure() {
  out=$("$cmake" -S "$source_dir" -B "$tmp/build" -G "$generator" -DCMAKE_CUDA_COMPILER="$nvcc" "$@" 2>&1)
  status=$?
}

configure -DSTB_INCLUDE_DIR="$tmp/nonexistent"
expect_eq "stb: configure fails" 1 "$status"
expect_match "stb: names the folder" "^  STB_INCLUDE_DIR=$tmp/nonexistent holds no stb_image_write.h$" "$out"

configure -DSTB_INCLUDE_DIR="$stb_dir" -DGIF_INCLUDE_DIR="$tmp/nonexistent"
expect_eq "giflib header: configure fails" 1 "$status"
expect_match "giflib header: names the folder" "^  GIF_INCLUDE_DIR=$tmp/nonexistent holds no gif_lib.h$" "$out"

configure -UGIF_INCLUDE_DIR -DGIF_LIBRARY="$tmp/nonexistent/libgif.a"
expect_eq "giflib library: configure fails" 1 "$status"
expect_match "giflib library: names the file" "^  GIF_LIBRARY=$tmp/nonexistent/libgif.a does not exist$" "$out"
finish
