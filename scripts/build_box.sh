#!/usr/bin/env bash
# Builds untrusted code in a box: runs COMMAND (a build) under bubblewrap in
# a view that lists what a build needs and nothing else, with limits. A
# compiler reads whatever file the code names (an #include, an .incbin), so
# the view is an allowlist: /usr without /usr/local and /usr/src, the CUDA
# Toolkit, the build tools found on PATH outside /usr (each alone, not the
# folder it lies in), a few files of /etc, a minimal /dev, its own /proc, a
# private /tmp of bounded size, the folder being built (the only one it may
# write) and the folders given with --read. No home, no network, no other
# folder of the machine. The environment is cleared but for PATH, HOME=/tmp
# and TMPDIR=/tmp.
#
# Usage: scripts/build_box.sh [options] --work DIR -- COMMAND [ARGS...]
#   --work DIR           the folder built, writable; COMMAND runs there
#   --read DIR           also in view, read-only (repeatable)
#   --hide DIR           covered by an empty folder wherever it lies in the
#                        view (repeatable)
#   --memory MIB         each process's data (RLIMIT_DATA; default 4096)
#   --file-size MIB      the largest file it may write (default 1024)
#   --tmp-size MIB       its /tmp, memory it takes from the machine (default 2048)
#   --processes N        its tasks, where the kernel applies the limit (not
#                        to root; default 4096 more than the user runs)
#   --time-limit SEC     stopped past this (default 1800)
#   --output-limit KIB   what it prints, kept in --log; past it the build is
#                        stopped (default 2048)
#   --log FILE           where its output goes (default: standard output)
#   --check              make an empty box and say whether it can be made
#   -h, --help           this text
# Exit status: COMMAND's; 124 past --time-limit, 125 the box could not be
# made or the output limit was passed (one line says which), 2 usage.
set -uo pipefail

usage() { sed -n '2,30s/^# \{0,1\}//p' "$0"; }
fail_usage() {
  echo "build_box.sh: $1 (try --help)" >&2
  exit 2
}

work="" log="" check=0 memory_mib=4096 file_mib=1024 tmp_mib=2048 processes=4096
time_s=1800 output_kib=2048
reads=() hides=()
# count OPTION VALUE: VALUE is a whole number from 1 to 9 digits, or a usage error.
count() { [[ $2 =~ ^[1-9][0-9]{0,8}$ ]] || fail_usage "$1: '$2' is not a positive whole number"; }
folder() { [ -d "$2" ] || fail_usage "$1: '$2' is not a folder"; }
while [ $# -gt 0 ]; do
  case $1 in
    --work) [ $# -ge 2 ] || fail_usage "--work needs a value"; folder "$1" "$2"; work=$2; shift ;;
    --read) [ $# -ge 2 ] || fail_usage "--read needs a value"; folder "$1" "$2"; reads+=("$2"); shift ;;
    --hide) [ $# -ge 2 ] || fail_usage "--hide needs a value"; hides+=("$2"); shift ;;
    --memory) count "$1" "${2:-}"; memory_mib=$2; shift ;;
    --file-size) count "$1" "${2:-}"; file_mib=$2; shift ;;
    --tmp-size) count "$1" "${2:-}"; tmp_mib=$2; shift ;;
    --processes) count "$1" "${2:-}"; processes=$2; shift ;;
    --time-limit) count "$1" "${2:-}"; time_s=$2; shift ;;
    --output-limit) count "$1" "${2:-}"; output_kib=$2; shift ;;
    --log) [ $# -ge 2 ] || fail_usage "--log needs a value"; log=$2; shift ;;
    --check) check=1 ;;
    -h | --help) usage; exit 0 ;;
    --) shift; break ;;
    *) fail_usage "unknown option '$1'" ;;
  esac
  shift
done
if [ "$check" = 1 ]; then
  [ $# -eq 0 ] || fail_usage "--check runs no command"
  work=$(mktemp -d) || exit 125
  trap 'rm -rf -- "$work"' EXIT
  set -- true
fi
[ -n "$work" ] || fail_usage "needs --work DIR"
[ $# -gt 0 ] || fail_usage "needs a COMMAND after --"

command -v bwrap >/dev/null || {
  echo "build_box.sh: bubblewrap is not installed: builds of submissions run in its sandbox (Debian: apt-get install bubblewrap)" >&2
  exit 125
}

real() { (cd "$1" 2>/dev/null && pwd -P); }
work=$(real "$work")

# The view, as bubblewrap's arguments, one a line.
view=(--die-with-parent --unshare-all --new-session --clearenv --ro-bind /usr /usr)
# /usr/local and /usr/src may hold anything (a suite's checkout, sources):
# covered, and what the build needs of /usr/local bound back below.
for dir in /usr/local /usr/src; do [ ! -d "$dir" ] || view+=(--tmpfs "$dir"); done
# The merged /usr's links (/bin -> usr/bin), or the folders themselves.
for dir in /bin /sbin /lib /lib32 /lib64 /libx32; do
  if [ -L "$dir" ]; then view+=(--symlink "$(readlink "$dir")" "$dir")
  elif [ -d "$dir" ]; then view+=(--ro-bind "$dir" "$dir"); fi
done
for file in /etc/ld.so.cache /etc/ld.so.conf /etc/ld.so.conf.d /etc/alternatives /etc/passwd \
  /etc/group /etc/nsswitch.conf /etc/localtime; do
  view+=(--ro-bind-try "$file" "$file")
done
view+=(--dev /dev --proc /proc --size $((tmp_mib * 1024 * 1024)) --tmpfs /tmp)

# bind_path PATH: PATH in view read-only, with the links that lead to it
# (/usr/local/cuda -> cuda-13.0): each link made as a link, its target bound.
declare -A bound=()
bind_path() {
  local path=$1 target
  [ -z "${bound[$path]:-}" ] || return 0
  bound[$path]=1
  if [ -L "$path" ]; then
    target=$(readlink "$path")
    view+=(--symlink "$target" "$path")
    [[ $target == /* ]] || target=$(dirname -- "$path")/$target
    bind_path "$(cd "$(dirname -- "$target")" && pwd -P)/$(basename -- "$target")"
  elif [ -e "$path" ]; then
    view+=(--ro-bind "$path" "$path")
  fi
}

# outside_usr PATH: whether PATH lies outside what /usr's bind shows.
outside_usr() { [[ $1 != /usr/* || $1 == /usr/local/* || $1 == /usr/src/* ]]; }

# CUDA's own tools call each other by path from nvcc's folder; the CMake
# presets look in /usr/local/cuda/bin.
box_path=/usr/bin:/bin
if [ -d /usr/local/cuda ]; then
  bind_path /usr/local/cuda
  box_path=/usr/local/cuda/bin:$box_path
fi

# within_bound PATH: whether PATH lies in a folder bound already.
within_bound() {
  local shown
  for shown in "${!bound[@]}"; do [[ $1 != "$shown"/* ]] || return 0; done
  return 1
}

# The build's tools found on PATH outside /usr, each by its real path: the
# tool alone, and where it lies in an install of its own (a CMake's, a
# CUDA's), that install: its bin's parent unless that is a shared prefix
# (/usr/local, /opt, a home), whose data folders named for the tool are
# bound instead (/usr/local/share/cmake-4.0).
for tool in cmake ctest ninja nvcc c++ g++ gcc cc; do
  found=$(command -v "$tool" 2>/dev/null) || continue
  [[ $found == /* ]] || continue
  resolved=$(readlink -f -- "$found")
  outside_usr "$resolved" || continue
  if ! within_bound "$resolved"; then
    bind_path "$resolved"
    install=$(dirname -- "$(dirname -- "$resolved")")
    case $install in
      / | /usr | /usr/local | /opt | /home | /home/* | /root | /root/* | /tmp | /tmp/*)
        for data in "$install"/share/"$tool"* "$install"/lib/"$tool"*; do
          [ ! -e "$data" ] || bind_path "$data"
        done ;;
      *) bind_path "$install" ;;
    esac
  fi
  case ":$box_path:" in *":$(dirname -- "$resolved"):"*) ;; *) box_path=$(dirname -- "$resolved"):$box_path ;; esac
done

for dir in "${reads[@]}"; do view+=(--ro-bind "$(real "$dir")" "$(real "$dir")"); done
view+=(--bind "$work" "$work")
for dir in "${hides[@]}"; do
  [ -d "$dir" ] || continue
  dir=$(real "$dir")
  case $dir in
    "$work" | "$work"/*) view+=(--tmpfs "$dir") ;;
    /usr/local/* | /usr/src/*) ;;
    /usr/* | /etc/*) view+=(--tmpfs "$dir") ;;
    *) for shown in "${reads[@]}" "${!bound[@]}"; do
         case $dir in "$(real "$shown" 2>/dev/null || echo "$shown")"/*) view+=(--tmpfs "$dir"); break ;; esac
       done ;;
  esac
done
# Nobody, without capabilities, in a user namespace of the box's (root
# outside, where the grader is root: the kernel applies no process limit to
# it); from bubblewrap 0.8.0 on, none of the build's own making.
view+=(--unshare-user --uid 65534 --gid 65534 --cap-drop ALL)
if bwrap --help 2>&1 | grep -q -- '--disable-userns '; then view+=(--disable-userns); fi
view+=(--setenv PATH "$box_path" --setenv HOME /tmp --setenv TMPDIR /tmp --chdir "$work")

# The user's processes now, which RLIMIT_NPROC counts (all of them).
running=$(ps -u "$(id -u)" -L --no-headers 2>/dev/null | wc -l)
limits=(prlimit --data=$((memory_mib * 1024 * 1024)) --fsize=$((file_mib * 1024 * 1024))
  --nproc=$((running + processes)) --core=0 --)

if [ "$check" = 1 ]; then
  if ! why=$("${limits[@]}" bwrap "${view[@]}" true 2>&1); then
    echo "build_box.sh: cannot make the build's sandbox with bwrap: ${why:-it failed} (unprivileged user namespaces may be off on this machine)" >&2
    exit 125
  fi
  exit 0
fi

# Its output, capped: past the cap the pipe closes and the build stops.
cap=$((output_kib * 1024))
status_file=$(mktemp) || exit 125
kept=${log:-$(mktemp)} || exit 125
{
  # In the caller's process group (--foreground), so that a signal to it
  # (grade.sh stopped, a class cancelled) reaches bubblewrap, whose end ends
  # the box; at the limit, timeout ends bubblewrap itself.
  timeout --foreground -k 10 "$time_s" "${limits[@]}" bwrap "${view[@]}" -- "$@" 2>&1 </dev/null
  echo "$?" >"$status_file"
} | head -c $((cap + 1)) >"$kept"
status=$(cat -- "$status_file")
rm -f -- "$status_file"
over=0
if [ "$(stat -c %s -- "$kept" 2>/dev/null || echo 0)" -gt "$cap" ]; then
  truncate -s "$cap" -- "$kept"
  echo "build_box.sh: the build printed more than $output_kib KiB (--output-limit): stopped" >>"$kept"
  over=1
fi
if [ -z "$log" ]; then
  cat -- "$kept"
  rm -f -- "$kept"
fi
[ "$over" = 0 ] || exit 125
exit "${status:-125}"
