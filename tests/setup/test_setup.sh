#!/usr/bin/env bash
# shellcheck disable=SC2016 # the fakes' bodies expand when they run, not here
# Tests of scripts/setup.sh's decisions on a made-up machine: PATH holds only
# fake programs (cmake, g++, ninja, nvcc, id, sudo, and an apt-get that
# "installs" a package by creating the fake program or header it stands for),
# so nothing is installed for real.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
setup=$here/../../scripts/setup.sh
# shellcheck source=tests/grade/testing.sh
source "$here/../grade/testing.sh"
bash_program=$(command -v bash)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Real tools the script and the fakes use.
mkdir -p "$tmp/tools"
for tool in sed sort head env dirname mkdir chmod; do ln -s "$(command -v "$tool")" "$tmp/tools/$tool"; done

# fake NAME BODY: an executable in the fake bin folder.
fake() {
  printf '#!%s\n%s\n' "$bash_program" "$2" >"$machine/bin/$1"
  chmod +x "$machine/bin/$1"
}

# new_machine: everything the build and grade.sh need, as root, with apt-get.
new_machine() {
  machine=$(mktemp -d "$tmp/machine.XXXX")
  mkdir -p "$machine/bin" "$machine/include/stb" "$machine/include/gtest" "$machine/cuda"
  : >"$machine/include/stb/stb_image_write.h"
  : >"$machine/include/gif_lib.h"
  : >"$machine/include/gtest/gtest.h"
  fake cmake 'echo "cmake version ${FAKE_CMAKE_VERSION:-3.25.1}"'
  fake g++ ':'
  fake ninja ':'
  fake nvcc ':'
  fake jq ':'
  fake bwrap ':'
  fake id 'echo "${FAKE_UID:-0}"'
  fake sudo 'echo "sudo $*" >>"$(dirname "$0")/../log"; exec "$@"'
  fake apt-get "$(
    cat <<'EOF'
root=$(dirname "$0")/..
echo "apt-get $*" >>"$root/log"
[ "$1" = install ] || exit 0
for arg; do
  case $arg in
    libstb-dev) mkdir -p "$root/include/stb" && : >"$root/include/stb/stb_image_write.h" ;;
    libgif-dev) : >"$root/include/gif_lib.h" ;;
    libgtest-dev) mkdir -p "$root/include/gtest" && : >"$root/include/gtest/gtest.h" ;;
    cmake | g++ | clang) printf '#!/bin/sh\necho "cmake version 3.25.1"\n' >"$root/bin/${arg/clang/clang++}" ;;
    ninja-build) printf '#!/bin/sh\n' >"$root/bin/ninja" ;;
    jq) printf '#!/bin/sh\n' >"$root/bin/jq" ;;
    bubblewrap) printf '#!/bin/sh\n' >"$root/bin/bwrap" ;;
  esac
  chmod +x "$root/bin/"* 2>/dev/null
done
EOF
  )"
  : >"$machine/log"
}

# run_setup ARGS...: sets out (stdout and stderr) and status.
run_setup() {
  out=$(PATH="$machine/bin:$tmp/tools" SETUP_CUDA_BIN="$machine/cuda" \
    SETUP_INCLUDE_DIRS="$machine/include" "$bash_program" "$setup" "$@" 2>&1)
  status=$?
}

test_ready_machine() {
  new_machine
  run_setup
  expect_eq "ready: status" 0 "$status"
  expect_match "ready: says so" '^setup.sh: ready to build \(cmake 3.25.1, nvcc at .*/bin/nvcc\)$' "$out"
  expect_eq "ready: no apt-get" "" "$(cat "$machine/log")"
}

test_installs_missing_headers_as_root() {
  new_machine
  rm -r "$machine/include/stb" "$machine/include/gif_lib.h" "$machine/include/gtest"
  run_setup
  expect_eq "headers: status" 0 "$status"
  expect_match "headers: says what it installs" '^setup.sh: installing with apt-get: libstb-dev libgif-dev libgtest-dev$' "$out"
  expect_eq "headers: update, then install, without sudo" \
    "apt-get update -qq"$'\n'"apt-get install -y -qq --no-install-recommends libstb-dev libgif-dev libgtest-dev" \
    "$(cat "$machine/log")"
  expect_match "headers: ready after" '^setup.sh: ready to build' "$out"
}

test_installs_tools_with_sudo() {
  new_machine
  rm "$machine/bin/cmake" "$machine/bin/g++" "$machine/bin/ninja"
  FAKE_UID=1000 run_setup
  expect_eq "sudo: status" 0 "$status"
  expect_match "sudo: update through sudo" '^sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq$' \
    "$(cat "$machine/log")"
  expect_match "sudo: install through sudo" \
    '^sudo env DEBIAN_FRONTEND=noninteractive apt-get install .* cmake g\+\+ ninja-build$' "$(cat "$machine/log")"
}

test_no_sudo() {
  new_machine
  rm "$machine/bin/ninja" "$machine/bin/sudo"
  FAKE_UID=1000 run_setup
  expect_eq "no sudo: status" 1 "$status"
  expect_match "no sudo: says so" '^setup.sh: not root and no sudo: run as root: ' "$out"
  expect_eq "no sudo: no apt-get" "" "$(cat "$machine/log")"
}

test_no_apt_get_names_packages() {
  new_machine
  rm -r "$machine/bin/apt-get" "$machine/include/gtest"
  run_setup
  expect_eq "no apt-get: status" 1 "$status"
  expect_match "no apt-get: names the package" '^setup.sh: missing: libgtest-dev \(Debian package names\)' "$out"
}

test_old_cmake() {
  new_machine
  FAKE_CMAKE_VERSION=3.22.1 run_setup
  expect_eq "old cmake, apt-get brings a new one: status" 0 "$status"
  expect_match "old cmake: apt-get installs cmake" '^apt-get install .* cmake$' "$(cat "$machine/log")"
  new_machine
  rm "$machine/bin/apt-get"
  FAKE_CMAKE_VERSION=3.22.1 run_setup
  expect_match "old cmake without apt-get: names it" '^setup.sh: missing: cmake ' "$out"
  new_machine
  FAKE_CMAKE_VERSION=3.30.0 run_setup
  expect_eq "newer cmake: status" 0 "$status"
}

test_old_cmake_after_apt_get() {
  new_machine
  # The distribution's cmake is too old too: apt-get "installs" it again.
  fake apt-get 'echo "apt-get $*" >>"$(dirname "$0")/../log"'
  FAKE_CMAKE_VERSION=3.22.1 run_setup
  expect_eq "old cmake after apt-get: status" 1 "$status"
  expect_match "old cmake after apt-get: says what to do" \
    "^setup.sh: this system's cmake is 3.22.1, older than 3.25: install a newer CMake" "$out"
}

test_apt_get_fails() {
  new_machine
  rm -r "$machine/include/gtest"
  fake apt-get 'echo "apt-get $*" >>"$(dirname "$0")/../log"; [ "$1" = update ] || { echo "E: Unable to locate package libgtest-dev"; exit 100; }'
  run_setup
  expect_eq "apt-get fails: status" 1 "$status"
  expect_match "apt-get fails: apt-get's reason" '^E: Unable to locate package libgtest-dev$' "$out"
  expect_match "apt-get fails: says so last" 'setup.sh: apt-get install failed \(see above\); install by hand: libgtest-dev$' "$out"
}

test_nvcc() {
  new_machine
  mv "$machine/bin/nvcc" "$machine/cuda/nvcc"
  run_setup
  expect_eq "nvcc off PATH: status" 0 "$status"
  expect_match "nvcc off PATH: found in the toolkit's folder" "nvcc at $machine/cuda/nvcc\)$" "$out"
  rm "$machine/cuda/nvcc"
  run_setup
  expect_eq "no nvcc: status" 1 "$status"
  expect_match "no nvcc: names the CUDA Toolkit" "^setup.sh: nvcc not found .*install NVIDIA's CUDA Toolkit" "$out"
}

test_dry_run_and_clang() {
  new_machine
  rm -r "$machine/include/stb"
  run_setup --dry-run --clang
  expect_eq "dry run: status" 0 "$status"
  expect_match "dry run: names the packages" '^setup.sh: installing with apt-get: clang libstb-dev$' "$out"
  expect_match "dry run: says it runs nothing" '^setup.sh: dry run, would run: ' "$out"
  expect_eq "dry run: no apt-get" "" "$(cat "$machine/log")"
}

test_usage() {
  new_machine
  run_setup --bogus
  expect_eq "usage: status" 2 "$status"
  expect_eq "usage: one line" "setup.sh: unknown option '--bogus' (try --help)" "$out"
  run_setup --help
  expect_eq "help: status" 0 "$status"
  expect_match "help: synopsis" '^  scripts/setup.sh \[--clang\] \[--tests\] \[--check\] \[--dry-run\]$' "$out"
}

test_tests_tools() {
  new_machine
  run_setup --dry-run --tests
  expect_eq "--tests: status" 0 "$status"
  expect_match "--tests: names the test tools" \
    '^setup.sh: installing with apt-get: zip unzip shellcheck gnuplot-nox slurm-wlm munge freeglut3-dev xvfb imagemagick$' "$out"
}

# What grade.sh needs comes with the build's needs, without an option (the
# quick start's first command grades); --grade is still taken.
test_grade_tools() {
  new_machine
  rm "$machine/bin/jq" "$machine/bin/bwrap"
  run_setup --dry-run
  expect_eq "grading: status" 0 "$status"
  expect_match "grading: names what grade.sh needs" '^setup.sh: installing with apt-get: jq bubblewrap$' "$out"
  run_setup --dry-run --grade
  expect_match "--grade: the same" '^setup.sh: installing with apt-get: jq bubblewrap$' "$out"
  run_setup
  expect_eq "grading: installed" 0 "$status"
  expect_match "grading: apt-get installs them" '^apt-get install .* jq bubblewrap$' "$(cat "$machine/log")"
}

# --check installs nothing and says what is missing in one line.
test_check() {
  new_machine
  run_setup --check
  expect_eq "--check, nothing missing: status" 0 "$status"
  expect_eq "--check, nothing missing: says so" "setup.sh: nothing missing" "$out"
  rm "$machine/bin/bwrap"
  run_setup --check --tests
  expect_eq "--check, missing: status" 1 "$status"
  expect_eq "--check, missing: one line" 1 "$(grep -c . <<<"$out")"
  expect_match "--check, missing: names them and the option" \
    '^setup.sh: missing: bubblewrap zip unzip .* \(Debian package names; scripts/setup.sh --tests installs them\)$' "$out"
  expect_eq "--check: no apt-get" "" "$(cat "$machine/log")"
  rm "$machine/bin/nvcc"
  fake bwrap ':'
  run_setup --check
  expect_eq "--check without nvcc: status" 1 "$status"
  expect_match "--check without nvcc: names it" "^setup.sh: nvcc not found" "$out"
}

test_ready_machine
test_installs_missing_headers_as_root
test_installs_tools_with_sudo
test_no_sudo
test_no_apt_get_names_packages
test_old_cmake
test_old_cmake_after_apt_get
test_apt_get_fails
test_nvcc
test_dry_run_and_clang
test_usage
test_tests_tools
test_grade_tools
test_check
finish
