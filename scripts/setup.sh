#!/usr/bin/env bash
# Checks what the build and the grading script need and installs what is
# missing through the system's package manager (apt-get on Debian and
# Ubuntu, with sudo when not root). Elsewhere it names the packages to
# install and exits 1. The CUDA Toolkit cannot be installed this way: it is
# named, with where to get it. Always needed: CMake, g++, Ninja, GoogleTest,
# stb, giflib, and for grade.sh jq (the course's contract) and bubblewrap
# (the judge's sandbox).
#
#   scripts/setup.sh [--clang] [--tests] [--check] [--dry-run]
#
# --clang   also needs clang++ (the sanitizer step of CI builds the host code with it)
# --tests   also what some tests use and skip without: zip and unzip (the
#           handout and Gradescope tests), gnuplot (profile.sh's chart),
#           Slurm and munge (the class grader's test cluster), freeglut and
#           Xvfb (render -i's window), ImageMagick (the GIF test), shellcheck
# --grade   (kept for old scripts: what grade.sh needs is always needed)
# --check   installs nothing: one line naming what is missing, exit 1
# --dry-run says what it would install and runs nothing
# Exit status: 0 ready to build, 1 something is missing, 2 usage.
set -euo pipefail

usage() { sed -n '2,21s/^# \{0,1\}//p' "$0"; }

dry_run=0
check=0
want_clang=0
want_tests=0
for arg in "$@"; do
  case $arg in
    --dry-run) dry_run=1 ;;
    --check) check=1 ;;
    --clang) want_clang=1 ;;
    --tests) want_tests=1 ;;
    --grade) ;;
    -h | --help) usage; exit 0 ;;
    *) echo "setup.sh: unknown option '$arg' (try --help)" >&2; exit 2 ;;
  esac
done

readonly min_cmake=3.25
# Where the CUDA Toolkit installs itself; the CMake presets look there too.
cuda_bin=${SETUP_CUDA_BIN:-/usr/local/cuda/bin}
# Folders searched for the stb, giflib and GoogleTest headers (the tests set them).
include_dirs=${SETUP_INCLUDE_DIRS:-/usr/include /usr/local/include}

# version_at_least HAVE WANT: dotted versions, numerically.
version_at_least() {
  [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n 1)" = "$2" ]
}

cmake_version() { cmake --version 2>/dev/null | sed -n '1s/^cmake version \([0-9][0-9.]*\).*/\1/p'; }

has_header() {
  local dir
  for dir in $include_dirs; do
    [ -f "$dir/$1" ] && return 0
  done
  return 1
}

# missing_packages: one Debian package name per line for each missing piece.
missing_packages() {
  local version
  if ! command -v cmake >/dev/null; then
    echo cmake
  else
    version=$(cmake_version)
    version_at_least "${version:-0}" "$min_cmake" || echo cmake
  fi
  # nvcc compiles host code with g++ unless told otherwise, so g++ it is.
  command -v g++ >/dev/null || echo g++
  [ "$want_clang" -eq 0 ] || command -v clang++ >/dev/null || echo clang
  # The presets use the Ninja generator: it builds on every core by default.
  command -v ninja >/dev/null || echo ninja-build
  has_header stb/stb_image_write.h || has_header stb_image_write.h || echo libstb-dev
  has_header gif_lib.h || echo libgif-dev
  has_header gtest/gtest.h || echo libgtest-dev
  # grade.sh: the course's contract, and the judge's sandbox.
  command -v jq >/dev/null || echo jq
  command -v bwrap >/dev/null || echo bubblewrap
  if [ "$want_tests" -eq 1 ]; then
    local tool
    for tool in zip unzip shellcheck; do command -v "$tool" >/dev/null || echo "$tool"; done
    command -v gnuplot >/dev/null || echo gnuplot-nox
    command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v sbatch >/dev/null || echo slurm-wlm
    command -v munged >/dev/null || echo munge
    has_header GL/freeglut.h || echo freeglut3-dev
    command -v Xvfb >/dev/null || echo xvfb
    command -v identify >/dev/null || echo imagemagick
  fi
}

# find_nvcc: the nvcc the build will use (PATH first, as the presets do), or nothing.
find_nvcc() {
  if command -v nvcc >/dev/null; then
    command -v nvcc
  elif [ -x "$cuda_bin/nvcc" ]; then
    echo "$cuda_bin/nvcc"
  fi
}

# as_root CMD...: runs CMD as root, through sudo when needed.
as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo >/dev/null; then
    sudo "$@"
  else
    echo "setup.sh: not root and no sudo: run as root: $*" >&2
    return 1
  fi
}

mapfile -t packages < <(missing_packages)
if [ "$check" -eq 1 ]; then
  if [ ${#packages[@]} -gt 0 ]; then
    echo "setup.sh: missing: ${packages[*]} (Debian package names; scripts/setup.sh$([ "$want_clang" -eq 0 ] || echo " --clang")$([ "$want_tests" -eq 0 ] || echo " --tests") installs them)" >&2
    exit 1
  fi
  [ -n "$(find_nvcc)" ] || { echo "setup.sh: nvcc not found (on PATH or in $cuda_bin): install NVIDIA's CUDA Toolkit" >&2; exit 1; }
  echo "setup.sh: nothing missing"
  exit 0
fi
if [ ${#packages[@]} -gt 0 ]; then
  if ! command -v apt-get >/dev/null; then
    echo "setup.sh: missing: ${packages[*]} (Debian package names); install them with your" \
      "system's package manager, and CMake $min_cmake or newer" >&2
    exit 1
  fi
  echo "setup.sh: installing with apt-get: ${packages[*]}"
  if [ "$dry_run" -eq 1 ]; then
    echo "setup.sh: dry run, would run: apt-get update; apt-get install -y ${packages[*]}"
  else
    # apt-get's own lines say why; its status (100) is not this script's.
    for step in update install; do
      args=(-qq)
      [ "$step" = update ] || args=(-y -qq --no-install-recommends "${packages[@]}")
      if ! as_root env DEBIAN_FRONTEND=noninteractive apt-get "$step" "${args[@]}"; then
        echo "setup.sh: apt-get $step failed (see above); install by hand: ${packages[*]}" >&2
        exit 1
      fi
    done
    mapfile -t packages < <(missing_packages)
    if [ ${#packages[@]} -gt 0 ]; then
      version=$(cmake_version)
      if [ "${packages[*]}" = cmake ] && [ -n "$version" ]; then
        echo "setup.sh: this system's cmake is $version, older than $min_cmake: install a newer" \
          "CMake (Kitware's releases, or 'pip install cmake')" >&2
      else
        echo "setup.sh: still missing after apt-get: ${packages[*]}" >&2
      fi
      exit 1
    fi
  fi
fi

nvcc=$(find_nvcc)
if [ -z "$nvcc" ]; then
  echo "setup.sh: nvcc not found (on PATH or in $cuda_bin): install NVIDIA's CUDA Toolkit" \
    "(this suite is built and tested with 13.0; get it from NVIDIA's CUDA downloads page), or" \
    "put the folder that holds nvcc on PATH" >&2
  exit 1
fi
[ "$dry_run" -eq 1 ] && [ ${#packages[@]} -gt 0 ] && exit 0
echo "setup.sh: ready to build (cmake $(cmake_version), nvcc at $nvcc)"
