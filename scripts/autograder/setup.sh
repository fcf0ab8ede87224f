#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder image
# (the bundle that scripts/make_handout.sh --autograder writes). The image
# must already hold the CUDA Toolkit (nvcc and its CCCL) and grade on a GPU:
# the scores come from timed GPU runs. This installs the rest.
set -euo pipefail
apt-get install -y --no-install-recommends cmake g++ make libgtest-dev libstb-dev zip
if ! command -v nvcc >/dev/null && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "setup.sh: no CUDA Toolkit (nvcc) in this image: the autograder needs a CUDA image with a GPU" >&2
  exit 1
fi
