#!/usr/bin/env bash
# Builds untrusted code in a box: runs COMMAND (a build) under bubblewrap in
# a view that lists what a build needs and nothing else, with limits. A
# compiler reads whatever file the code names (an #include, an .incbin, a
# #line a warning then prints), so the view is an allowlist: /usr without
# /usr/local and /usr/src, the CUDA Toolkit, the build tools found on PATH
# outside /usr (each alone, not the folder it lies in), a few files of
# /etc (passwd and group of two lines), a minimal /dev, its own /proc with
# /proc/sys read-only, a private /tmp of bounded size, the folders given
# with --read (read-only) and the one folder it may write (--work). No
# home, no network, no other folder of the machine, no descriptor of the
# caller's, no variable of the caller's environment (bubblewrap itself is
# started with none: its environment is the box's pid 1's). It runs as
# nobody without capabilities; a root caller drops to nobody before
# bubblewrap (root outside would be root to the kernel, and no process
# limit holds root), in a mount namespace of its own where every folder of
# the view is bound at a staging folder nobody may pass through, so nobody
# needs no way into the folders above them (a class folder, a home).
#
# Usage: scripts/build_box.sh [options] --work DIR -- COMMAND [ARGS...]
#   --work DIR           the folder the build writes (made nobody's when the
#                        caller is root); COMMAND runs there unless --chdir
#   --read DIR           also in view, read-only (repeatable)
#   --chdir DIR          where COMMAND runs (a --read or --work folder)
#   --hide DIR           covered by an empty folder wherever it lies in the
#                        view (repeatable)
#   --memory MIB         each process's data (RLIMIT_DATA; default 4096)
#   --file-size MIB      the largest file it may write (default 256)
#   --tmp-size MIB       its /tmp, memory it takes from the machine (default 2048)
#   --processes N        its tasks (RLIMIT_NPROC; default 4096 more than
#                        nobody runs already)
#   --time-limit SEC     stopped past this (default 1800)
#   --output-limit KIB   what it prints, kept in --log; past it the build is
#                        stopped (default 2048)
#   --log FILE           where its output goes (default: standard output),
#                        control characters but tab and newline taken out
#   --check              make an empty box and say whether it can be made
#   -h, --help           this text
# Exit status: COMMAND's; 124 past --time-limit, 125 the box could not be
# made or the output limit was passed (one line says which), 2 usage.
set -uo pipefail
unset CDPATH

usage() { sed -n '2,37s/^# \{0,1\}//p' "$0"; }
fail_usage() {
  echo "build_box.sh: $1 (try --help)" >&2
  exit 2
}

work="" chdir="" log="" check=0 memory_mib=4096 file_mib=256 tmp_mib=2048 processes=4096
time_s=1800 output_kib=2048
reads=() hides=()
# count OPTION VALUE: VALUE is a whole number from 1 to 9 digits, or a usage error.
count() { [[ $2 =~ ^[1-9][0-9]{0,8}$ ]] || fail_usage "$1: '$2' is not a positive whole number"; }
folder() { [ -d "$2" ] || fail_usage "$1: '$2' is not a folder"; }
while [ $# -gt 0 ]; do
  case $1 in
    --work) [ $# -ge 2 ] || fail_usage "--work needs a value"; folder "$1" "$2"; work=$2; shift ;;
    --read) [ $# -ge 2 ] || fail_usage "--read needs a value"; folder "$1" "$2"; reads+=("$2"); shift ;;
    --chdir) [ $# -ge 2 ] || fail_usage "--chdir needs a value"; folder "$1" "$2"; chdir=$2; shift ;;
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
  set -- true
fi
[ -n "$work" ] || fail_usage "needs --work DIR"
[ $# -gt 0 ] || fail_usage "needs a COMMAND after --"

for tool in bwrap setpriv prlimit; do
  command -v "$tool" >/dev/null || {
    echo "build_box.sh: $tool is not installed: builds of submissions run in bubblewrap's sandbox (Debian: apt-get install bubblewrap util-linux)" >&2
    exit 125
  }
done

real() { (cd -- "$1" 2>/dev/null && pwd -P); }
work=$(real "$work")
chdir=$(real "${chdir:-$work}")
root=0
[ "$(id -u)" -ne 0 ] || root=1
readonly nobody=65534

# The binds, in order: each "KIND SOURCE DEST" (KIND ro, rw, or cover: an
# empty tmpfs, before what is bound back into it), turned into
# bubblewrap's arguments at the end: by path, or for a root caller by an
# open descriptor (nobody may not be able to enter the folders above).
binds=()
bind() { binds+=("$1" "$2" "$3"); }
view=(--die-with-parent --unshare-all --new-session --clearenv)
bind ro /usr /usr
# /usr/local and /usr/src may hold anything (a suite's checkout, sources):
# covered, and what the build needs of /usr/local bound back below.
covered=()
for dir in /usr/local /usr/src; do
  [ ! -d "$dir" ] || { covered+=("$dir"); bind cover "$dir" "$dir"; }
done
# The merged /usr's links (/bin -> usr/bin), or the folders themselves.
links=()
for dir in /bin /sbin /lib /lib32 /lib64 /libx32; do
  if [ -L "$dir" ]; then links+=("$(readlink "$dir")" "$dir")
  elif [ -d "$dir" ]; then bind ro "$dir" "$dir"; fi
done
for file in /etc/ld.so.cache /etc/ld.so.conf /etc/ld.so.conf.d /etc/alternatives /etc/nsswitch.conf \
  /etc/localtime; do
  [ ! -e "$file" ] || bind ro "$file" "$file"
done

# bind_path PATH: PATH in view read-only at its real place, and where PATH
# is a link (or lies below one), a link there straight to that place
# (/usr/local/cuda -> /usr/local/cuda-13.0, whether through
# /etc/alternatives or not).
declare -A bound=()
bind_path() {
  local path=$1 target
  target=$(readlink -f -- "$path") || return 0
  [ -e "$target" ] || return 0
  if [ -z "${bound[$target]:-}" ]; then
    bound[$target]=1
    bind ro "$target" "$target"
  fi
  if [ "$path" != "$target" ] && [ -z "${bound[$path]:-}" ]; then
    bound[$path]=1
    links+=("$target" "$path")
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
# bound instead (/usr/local/share/cmake-4.0). (A tool that is a script
# run by an interpreter outside what is bound does not run here; a pip
# install's cmake runs where its environment is the install above.)
declare -A tool_rank=()
tool_path=""
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
  # Where the caller's PATH found it: the box's PATH keeps that order (a
  # stand-in cmake before an install's whole bin folder).
  rank=0
  IFS=: read -ra entries <<<"$PATH"
  for entry in "${entries[@]}"; do
    [ "$entry" != "$(dirname -- "$found")" ] || break
    rank=$((rank + 1))
  done
  dir=$(dirname -- "$resolved")
  [ -n "${tool_rank[$dir]:-}" ] && [ "${tool_rank[$dir]}" -le "$rank" ] || tool_rank[$dir]=$rank
done
while IFS= read -r dir; do
  case ":$box_path:" in *":${dir#* }:"*) ;; *) tool_path+=${dir#* }: ;; esac
done < <(for dir in "${!tool_rank[@]}"; do echo "${tool_rank[$dir]} $dir"; done | sort -n)
box_path=$tool_path$box_path

for dir in "${reads[@]}"; do bind ro "$(real "$dir")" "$(real "$dir")"; done
bind rw "$work" "$work"
hidden=()
for dir in "${hides[@]}"; do
  [ -d "$dir" ] || continue
  dir=$(real "$dir")
  case $dir in
    "$work" | "$work"/* | /usr/* | /etc/*) hidden+=("$dir") ;;
    *) for shown in "${reads[@]}" "${!bound[@]}"; do
         case $dir in "$(real "$shown" 2>/dev/null || echo "$shown")"/*) hidden+=("$dir"); break ;; esac
       done ;;
  esac
done

if [ "$root" = 1 ]; then
  # nobody writes the build folder; the rest it reads as anyone may.
  chown -R "$nobody:$nobody" -- "$work" || { echo "build_box.sh: cannot give $work to nobody" >&2; exit 125; }
fi

# The machine's own mounts first: a bind below /tmp (a --work there) must
# land on the box's /tmp, not be covered by it.
view+=(--dev /dev --size $((64 * 1024 * 1024)) --tmpfs /dev/shm --proc /proc --ro-bind /proc/sys /proc/sys
  --size $((tmp_mib * 1024 * 1024)) --tmpfs /tmp)
# The arguments: binds by path, or for a root caller from the staging
# folder (below), each source bound there as N in a mount namespace that
# only the box's start sees.
keep_fds=()
staged=()
stage=""
# shellcheck disable=SC2317  # run by the trap
cleanup() {
  [ -z "$stage" ] || rm -rf -- "$stage"
  [ "$check" = 0 ] || rm -rf -- "$work"
  rm -f -- "${status_file:-}" "${pid_file:-}"
  [ -n "$log" ] || rm -f -- "${kept:-}"
}
trap cleanup EXIT
if [ "$root" = 1 ]; then
  stage=$(mktemp -d /tmp/build_box.XXXXXX) && chmod 711 -- "$stage" || exit 125
fi
for ((i = 0; i < ${#binds[@]}; i += 3)); do
  kind=${binds[i]} src=${binds[i + 1]} dest=${binds[i + 2]}
  if [ "$kind" = cover ]; then
    view+=(--size 1048576 --tmpfs "$dest")
    continue
  fi
  option=--ro-bind
  [ "$kind" = ro ] || option=--bind
  if [ "$root" = 1 ]; then
    view+=("$option" "$stage/${#staged[@]}" "$dest")
    staged+=("$src")
  else
    view+=("$option" "$src" "$dest")
  fi
done
for ((i = 0; i < ${#links[@]}; i += 2)); do view+=(--symlink "${links[i]}" "${links[i + 1]}"); done
for dir in "${hidden[@]}"; do view+=(--size 4096 --tmpfs "$dir" --remount-ro "$dir"); done
# Two lines of users: the machine's names and homes are none of its business.
# (Written to files opened and then removed: a pipe's reader could be
# closed before bubblewrap reads it.)
staging=$(mktemp -d) || exit 125
printf 'root:x:0:0::/root:/bin/false\nnobody:x:%s:%s::/nonexistent:/bin/false\n' "$nobody" "$nobody" >"$staging/passwd"
printf 'root:x:0:\nnogroup:x:%s:\n' "$nobody" >"$staging/group"
exec {users}<"$staging/passwd" {groups}<"$staging/group"
keep_fds+=("$users" "$groups")
view+=(--ro-bind-data "$users" /etc/passwd --ro-bind-data "$groups" /etc/group)
# Nothing it may write but its folder and /tmp.
view+=(--remount-ro / --remount-ro /dev)
for dir in "${covered[@]}"; do view+=(--remount-ro "$dir"); done
# Nobody, without capabilities, in a user namespace of the box's; from
# bubblewrap 0.8.0 on, none of the build's own making.
view+=(--unshare-user --uid "$nobody" --gid "$nobody" --cap-drop ALL)
if bwrap --help 2>&1 | grep -q -- '--disable-userns '; then view+=(--disable-userns); fi
view+=(--setenv PATH "$box_path" --setenv HOME /tmp --setenv TMPDIR /tmp --chdir "$chdir")

# The arguments go to bubblewrap on a descriptor (--args), so that its
# command line in the box's /proc names none of this machine's folders.
printf '%s\0' "${view[@]}" >"$staging/args"
exec {args}<"$staging/args"
rm -rf -- "$staging"
keep_fds+=("$args")
drop=()
bwrap=$(command -v bwrap)
if [ "$root" = 1 ]; then
  # bubblewrap itself from there too (it may lie where nobody cannot go).
  staged+=("$bwrap")
  bwrap=$stage/$((${#staged[@]} - 1))
  # In a private mount namespace: each source bound at the staging folder
  # (a folder on a folder, a file on an empty file), then nobody.
  # shellcheck disable=SC2016  # expanded by that shell
  drop=(unshare --mount --propagation private -- /bin/sh -c '
    set -e
    stage=$1 n=0
    shift
    while [ "$1" != -- ]; do
      if [ -d "$1" ]; then mkdir "$stage/$n"; else : >"$stage/$n"; fi
      mount --rbind "$1" "$stage/$n"
      n=$((n + 1))
      shift
    done
    shift
    exec "$@"' stage "$stage" "${staged[@]}" --
    setpriv --reuid="$nobody" --regid="$nobody" --clear-groups --)
fi
# nobody's processes now, which RLIMIT_NPROC counts (all of them).
box_uid=$(id -u)
[ "$root" = 0 ] || box_uid=$nobody
running=$(ps -u "$box_uid" -L --no-headers 2>/dev/null | wc -l)
limits=(prlimit --data=$((memory_mib * 1024 * 1024)) --fsize=$((file_mib * 1024 * 1024))
  --nproc=$((running + processes)) --core=0 --)

# close_fds: no descriptor of the caller's past 2 but the box's own.
close_fds() {
  local fd kept
  for fd in /proc/self/fd/*; do
    fd=${fd##*/}
    [ "$fd" -gt 2 ] || continue
    for kept in "${keep_fds[@]}"; do [ "$fd" != "$kept" ] || continue 2; done
    { exec {fd}>&-; } 2>/dev/null
  done
}

# box COMMAND...: COMMAND in the box, bubblewrap started with an empty
# environment, in the caller's process group (timeout --foreground), so
# that a signal to it (grade.sh stopped, a class cancelled) reaches
# bubblewrap, whose end ends the box; at the limit, timeout ends it.
box() {
  close_fds
  env -i PATH=/usr/bin:/bin:/usr/sbin:/sbin timeout --foreground -k 10 "$time_s" "${limits[@]}" "${drop[@]}" \
    "$bwrap" --args "$args" -- "$@"
}

if [ "$check" = 1 ]; then
  if ! why=$(box true 2>&1 </dev/null); then
    echo "build_box.sh: cannot make the build's sandbox with bwrap: ${why:-it failed} (unprivileged user namespaces may be off on this machine)" >&2
    exit 125
  fi
  exit 0
fi

# Its output, capped and without control characters (a terminal's escapes
# in a log would hide lines from whoever reads it): past the cap the box
# is stopped.
cap=$((output_kib * 1024))
status_file="" pid_file="" kept=""
status_file=$(mktemp) || exit 125
pid_file=$(mktemp) || exit 125
kept=${log:-$(mktemp)} || exit 125
# Stopped (the caller's process group signalled), the box ends and so
# does this, quietly (no shell's "Terminated"), its staging removed.
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM
{
  trap : HUP INT TERM
  box "$@" 2>&1 </dev/null &
  pid=$!
  echo "$pid" >"$pid_file"
  until wait "$pid"; status=$?; ! kill -0 "$pid" 2>/dev/null; do :; done
  echo "$status" >"$status_file"
} | {
  # (tr and head end with the box's output.)
  trap '' HUP INT TERM
  LC_ALL=C tr -d '\000-\010\013-\037\177' | head -c $((cap + 1)) >"$kept"
  [ "$(stat -c %s -- "$kept")" -le "$cap" ] || kill -TERM "$(cat -- "$pid_file")" 2>/dev/null
}
status=$(cat -- "$status_file")
rm -f -- "$status_file" "$pid_file"
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
