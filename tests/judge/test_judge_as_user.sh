#!/usr/bin/env bash
# The judge's exploit suite (test_judge_exploits.sh) with the judge run as
# an ordinary user, as a Slurm cluster runs it: no cgroups it may make, the
# workers as that same user. Every exploit must still be caught, the honest
# worker keep its rows, each worker keep a process count of its own (set
# inside its sandbox), and where a limit cannot hold (shared memory; the
# process count on a kernel before 5.14) the judge must say so and why,
# rather than the test skipping it. Run as root, the suite runs as nobody, from a
# copy of the judge, its workers and the test scripts in a folder nobody
# owns (the build may lie where nobody cannot reach).
#
# Usage: test_judge_as_user.sh JUDGE BIN_DIR TARGETS_DIR
#   TARGETS_DIR  the folder the exploit workers were built to attack
#                (JUDGE_TEST_TARGETS): made nobody's here
set -uo pipefail
judge=$1 bin=$2 targets=$3
here=$(cd "$(dirname "$0")" && pwd)

if [ "$(id -u)" != 0 ]; then
  echo "SKIPPED: already an ordinary user: judge_exploits runs the judge as one here"
  exit 77
fi
for tool in setpriv bwrap; do
  command -v "$tool" >/dev/null || { echo "SKIPPED: $tool is not installed (scripts/setup.sh --tests installs it)"; exit 77; }
done
if ! uid=$(id -u nobody 2>/dev/null) || ! gid=$(id -g nobody 2>/dev/null); then
  echo "SKIPPED: no user nobody here"
  exit 77
fi
as_user() { setpriv --reuid="$uid" --regid="$gid" --clear-groups "$@"; }

tmp=$(mktemp -d) || exit 1
trap 'rm -rf -- "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/tests/judge" "$tmp/tests/grade" "$tmp/temp"
cp -- "$judge" "$(dirname "$judge")/judge_launch" "$bin"/judge_worker_* "$tmp/bin/" || exit 1
cp -- "$here/test_judge_exploits.sh" "$tmp/tests/judge/" && cp -- "$here/../grade/testing.sh" "$tmp/tests/grade/" || exit 1
chown -R "$uid:$gid" "$tmp" && chmod 755 "$tmp" || exit 1
# The workers attack the folder they were built with: it must be there for
# nobody to fill, or the attacks would fail for want of it, not be stopped.
rm -rf -- "$targets" && mkdir -p "$targets" && chown "$uid:$gid" "$targets" || exit 1
if ! as_user test -w "$targets" -a -x "$targets"; then
  echo "SKIPPED: nobody cannot reach $targets, the folder the exploit workers attack"
  exit 77
fi

# A machine that lets no ordinary user make a user namespace (many
# clusters) cannot sandbox as one: the judge refuses to grade there, which
# judge_exploits' "no sandbox" case checks.
if ! as_user bwrap --unshare-all --ro-bind / / --proc /proc --dev /dev /bin/true 2>/dev/null; then
  echo "SKIPPED: an ordinary user cannot make a sandbox here (unprivileged user namespaces are off)"
  exit 77
fi

cd "$tmp" && as_user env -i PATH="$PATH" HOME="$tmp" TMPDIR="$tmp/temp" JUDGE_AS_USER=1 \
  bash "$tmp/tests/judge/test_judge_exploits.sh" "$tmp/bin/$(basename "$judge")" "$tmp/bin" "$targets"
