#!/usr/bin/env bash
# Installs Debian 12's Slurm and MUNGE from their .deb files, as root, on a
# machine that has neither and no package access (a throwaway container,
# such as a GPU machine's): the programs and plugins where Debian puts
# them, which are the paths built into them (the plugin folder, slurmd's
# slurmstepd), the daemons under the names Debian's alternatives give them,
# and a library only where ldd says one of those needs it and the machine
# lacks it, so nothing the machine has is replaced. No maintainer scripts
# run: no users, services or configuration (tests/class/slurm_cluster.sh
# configures a cluster of its own).
#
# Usage: scripts/dev/slurm_debs.sh DIR
#   DIR   the .deb files: slurmctld, slurmd, slurm-client,
#         slurm-wlm-basic-plugins, munge and libmunge2, and the libraries
#         they link that the machine may lack (libdbus-1-3, libhwloc15,
#         libjson-c5, liblz4-1, libyaml-0-2, libnuma1, liblua5.1-0,
#         libreadline8, ...: apt-get download NAME on Debian 12)
#   -h, --help  this text
# Exit status: 0 installed (or already there), 1 a package missing from DIR
# or a program still lacking a library after the install, 2 usage.
set -uo pipefail
# shellcheck source=scripts/options_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../options_lib.sh"

fail() {
  echo "slurm_debs.sh: $1" >&2
  exit 1
}

dir=""
while [ $# -gt 0 ]; do
  case "$1" in
    -h | --help) show_help; exit 0 ;;
    -*) usage_error "unknown option '$1'" ;;
    *) [ -z "$dir" ] || usage_error "one DIR only ('$dir', then '$1')"; dir=$1 ;;
  esac
  shift
done
[ -n "$dir" ] || usage_error "needs DIR, the folder of .deb files"
[ -d "$dir" ] || usage_error "'$dir' is not a folder"
[ "$(id -u)" = 0 ] || fail "needs root (it writes into /usr)"
for tool in dpkg-deb ldd; do
  command -v "$tool" >/dev/null || fail "needs $tool"
done

# The packages whose programs and plugins are installed; every other .deb
# is a library, taken from only for what ldd finds missing.
PROGRAM_PACKAGES=(slurmctld slurmd slurm-client slurm-wlm-basic-plugins munge)
REQUIRED_PACKAGES=("${PROGRAM_PACKAGES[@]}" libmunge2)
# The daemons under their Debian names, and the names slurmd and the
# scripts use (Debian's alternatives make these links).
ALTERNATIVES=(slurmctld slurmd slurmstepd)

stage=$(mktemp -d) || fail "no temporary folder"
trap 'rm -rf "$stage"' EXIT

# Each package unpacked into a folder of its own, named by the package.
declare -A unpacked=()
for deb in "$dir"/*.deb; do
  [ -f "$deb" ] || continue
  package=$(dpkg-deb -f "$deb" Package 2>/dev/null) || fail "$deb is not a .deb file"
  dpkg-deb -x "$deb" "$stage/$package" || fail "cannot unpack $deb"
  unpacked[$package]=$deb
done
for package in "${REQUIRED_PACKAGES[@]}"; do
  [ -n "${unpacked[$package]:-}" ] || fail "no $package package in $dir (apt-get download $package on Debian 12)"
done

# The programs, their plugins and libslurmfull (found through the
# programs' RUNPATH), each file only where the machine has none.
installed=()
for package in "${PROGRAM_PACKAGES[@]}"; do
  while IFS= read -r file; do
    [ ! -e "/$file" ] || continue
    { mkdir -p "/$(dirname "$file")" && cp -a "$stage/$package/$file" "/$file"; } || fail "cannot install /$file"
    installed+=("/$file")
  done < <(cd "$stage/$package" && find usr/bin usr/sbin usr/lib -mindepth 1 \( -type f -o -type l \) 2>/dev/null)
done
for name in "${ALTERNATIVES[@]}"; do
  if [ ! -e "/usr/sbin/$name" ] && [ -e "/usr/sbin/$name-wlm" ]; then
    ln -s "$name-wlm" "/usr/sbin/$name" || fail "cannot link /usr/sbin/$name"
    installed+=("/usr/sbin/$name")
  fi
done

# elf_files: the installed programs and plugins (ELF files), one a line.
elf_files() {
  local file
  for file in /usr/sbin/munged /usr/sbin/slurm*-wlm /usr/bin/munge /usr/bin/s{batch,queue,info,cancel,control,run} \
    /usr/lib/*/slurm-wlm/*.so; do
    [ -f "$file" ] && [ "$(head -c 4 "$file")" = $'\x7fELF' ] && echo "$file"
  done
}
# missing_sonames FILE...: the libraries ldd finds for none of FILES.
missing_sonames() {
  local file
  for file in "$@"; do ldd "$file" 2>/dev/null | awk '$2 == "=>" && $3 == "not" { print $1 }'; done | sort -u
}

# The libraries, from the library packages, until ldd finds all it can
# (a library copied in may itself need one the machine lacks).
mapfile -t elves < <(elf_files)
libraries=()
for _ in 1 2 3 4 5; do
  mapfile -t missing < <(missing_sonames "${elves[@]}")
  [ ${#missing[@]} -gt 0 ] || break
  added=0
  for soname in "${missing[@]}"; do
    found=""
    for package in "${!unpacked[@]}"; do
      [[ " ${PROGRAM_PACKAGES[*]} " != *" $package "* ]] || continue
      found=$(find "$stage/$package" -name "$soname" \( -type f -o -type l \) 2>/dev/null | head -n 1)
      [ -z "$found" ] || break
    done
    [ -n "$found" ] || continue
    # Debian 12 puts some libraries in /lib, some in /usr/lib; /usr/lib's
    # multiarch folder is searched on every Debian and Ubuntu.
    target=/usr/lib/$(basename "$(dirname "$found")")
    real=$(readlink -f "$found")
    mkdir -p "$target"
    [ -e "$target/$(basename "$real")" ] || cp "$real" "$target/" || fail "cannot copy $real into $target"
    [ -e "$target/$soname" ] || ln -s "$(basename "$real")" "$target/$soname" || fail "cannot link $target/$soname"
    libraries+=("$soname ($package)")
    added=1
  done
  command -v ldconfig >/dev/null && ldconfig
  [ "$added" = 1 ] || break
done

echo "slurm_debs.sh: installed ${#installed[@]} files of ${PROGRAM_PACKAGES[*]}"
echo "slurm_debs.sh: libraries this machine lacked: ${libraries[*]:-none}"
# A program that still lacks a library cannot run; a plugin that does is
# only a problem if the configuration loads it (its daemon's log says so).
problems=""
for file in "${elves[@]}"; do
  mapfile -t missing < <(missing_sonames "$file")
  [ ${#missing[@]} -gt 0 ] || continue
  if [[ $file == *.so ]]; then
    echo "slurm_debs.sh: warning: $file lacks ${missing[*]} (a plugin: only used if configured)" >&2
  else
    problems+=" $file (${missing[*]})"
  fi
done
[ -z "$problems" ] || fail "programs still lacking libraries:$problems; add their packages to $dir"
for name in slurmctld slurmd slurmstepd munged sbatch; do
  command -v "$name" >/dev/null || fail "$name is not on PATH after the install"
done
echo "slurm_debs.sh: $(slurmctld -V 2>&1), $(munged -V 2>&1 | head -n 1)"
