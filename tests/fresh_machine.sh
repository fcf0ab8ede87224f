#!/usr/bin/env bash
# Proves the README's quick start on a fresh machine: a minimal Debian 12
# chroot with only the CUDA Toolkit added (no GPU: render runs on the CPU).
# Runs the two commands of the README's quick start in it, as written there.
# Not run by ctest or CI: it needs root, mounts, the network and ~15 minutes.
#
#   sudo tests/fresh_machine.sh [CHROOT_DIR]
#
# CHROOT_DIR (default /tmp/fresh-debian12) is made with
# `debootstrap --variant=minbase bookworm` when it does not exist yet, and
# kept afterwards (delete it by hand). CUDA_DIR (default /usr/local/cuda) is
# the toolkit to lend it, mounted read-only at /usr/local/cuda.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
root=${1:-/tmp/fresh-debian12}
cuda_dir=$(readlink -f "${CUDA_DIR:-/usr/local/cuda}")

die() { echo "fresh_machine.sh: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || die "needs root (debootstrap, chroot and mounts)"
[ -x "$cuda_dir/bin/nvcc" ] || die "no CUDA Toolkit at $cuda_dir (set CUDA_DIR)"

if [ ! -d "$root/usr" ]; then
  command -v debootstrap >/dev/null || die "needs debootstrap (apt-get install debootstrap)"
  echo "== debootstrap --variant=minbase bookworm $root"
  debootstrap --variant=minbase bookworm "$root"
fi

mounted=()
unmount_all() {
  local i
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount "${mounted[i]}" || true; done
}
trap unmount_all EXIT
bind() { # bind SOURCE TARGET [ro]
  mkdir -p "$2"
  mount --bind "$1" "$2"
  mounted+=("$2")
  [ "${3:-}" != ro ] || mount -o remount,bind,ro "$2"
}
bind /proc "$root/proc"
bind /dev "$root/dev"
bind "$cuda_dir" "$root/usr/local/cuda" ro
cp /etc/resolv.conf "$root/etc/resolv.conf"

# A fresh copy of the suite: the files git tracks or would track, no build folders.
rm -rf "$root/root/suite"
mkdir -p "$root/root/suite"
# One tar reads the whole list (xargs would start several past its buffer, and
# the extracting tar stops at the first archive's end).
git -C "$repo" ls-files -z --cached --others --exclude-standard |
  tar -C "$repo" --null --no-recursion -T - -cf - | tar -xf - -C "$root/root/suite"

# The quick start's commands: the lines of the README's first sh block.
# shellcheck disable=SC2016 # sed's $, not the shell's
quick_start=$(sed -n '/^## Quick start/,/^## /p' "$repo/README.md" | sed -n '/^```sh$/,/^```$/p' | sed '1d;$d')
[ -n "$quick_start" ] || die "no quick start block in README.md"
echo "== in the chroot, as a new user's shell would run them:"
echo "$quick_start"
chroot "$root" /usr/bin/env -i HOME=/root TERM="${TERM:-dumb}" PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  /bin/bash -euo pipefail -c "cd /root/suite && ${quick_start//$'\n'/ && }"
echo "== fresh machine: the quick start passed"
