#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder image
# (the bundle that scripts/make_handout.sh --autograder writes). The image
# must already hold the CUDA Toolkit (nvcc and its CCCL) and grade on a GPU:
# the scores come from timed GPU runs. The rest (CMake, Ninja, g++, the stb,
# giflib and GoogleTest headers, jq and bubblewrap for the grader) is the
# handout's own set-up (setup.sh): it installs what is
# missing with apt-get and stops with one line where nvcc is missing.
set -euo pipefail
exec "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/handout/scripts/setup.sh" "$@"
