# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154  # the settings are options.sh's, shared by every part
# grade.sh's building: each program built once, when missing or stale.
# Sourced by scripts/grade.sh, after grade_lib.sh, options_lib.sh and run_lib.sh.

# ---------------------------------------------------------------- building

declare -A program_state=()  # target -> ok or failed, so each is built once

# run_logged LOG DIR LIMIT COMMAND...: run_lib.sh's run_program_in with all
# output in LOG; returns the command's exit status. A signal to grade.sh
# stops it at once, and the line said names it.
run_logged() {
  local log=$1 status
  shift
  running_what=$(basename "$3")
  run_program_in "$@" >"$log" 2>&1 </dev/null
  status=$?
  running_what=""
  return "$status"
}

# build_logged LOG COMMAND...: a step of the build (cmake), in
# scripts/build_box.sh's box unless --unsandboxed: the slots it compiles
# are the submission's, so it sees the sources read-only, writes only the
# build folder, and sees nothing else of the machine (as the class's and
# Gradescope's builds).
build_logged() {
  local log=$1 status
  shift
  if [ "$unsandboxed" = 1 ]; then
    run_logged "$log" "$repo" 0 "$@"
    return
  fi
  mkdir -p -- "$build_dir" || return 1
  running_what=$(basename "$1")
  run_program_in "$repo" 0 "$script_dir/build_box.sh" --work "$build_dir" --read "$repo" \
    --time-limit 7200 --log "$log" -- "$@" </dev/null
  status=$?
  running_what=""
  return "$status"
}

# sources_of TARGET: the folders whose files make up the program.
sources_of() {
  case "$1" in
    cudaSaxpy) echo common saxpy ;;
    cudaScan) echo common scan ;;
    judge | judge_calibration_worker) echo common judge scan/include scan/src/reference.cpp saxpy/include saxpy/src/saxpy_serial.cpp ;;
    saxpy_worker | judge_saxpy_rung_*) echo common judge saxpy ;;
    scan_worker) echo common judge scan/student ;;
    judge_scan_reference) echo common judge ;;
    judge_scan_rung_*) echo common judge scan ;;
    render) echo common scenes render ;;
    render_worker) echo common judge scenes render/student render/include render/src ;;
    judge_render_*) echo common judge scenes render ;;
  esac
}

# is_stale PROGRAM FOLDER...: whether a source or build file is newer than PROGRAM.
is_stale() {
  local program=$1 d
  shift
  local paths=()
  for d in "$@" CMakeLists.txt CMakePresets.json cmake; do
    [ -e "$repo/$d" ] && paths+=("$repo/$d")
  done
  [ -n "$(find "${paths[@]}" -type f -newer "$program" -print -quit 2>/dev/null)" ]
}

# configure_once: configures the build folder with preset "default" unless it
# is configured already.
configure_once() {
  [ -f "$build_dir/CMakeCache.txt" ] && return 0
  command -v cmake >/dev/null || { warn "cmake is not installed: build the programs yourself and pass --bin-dir"; return 1; }
  progress "configuring $build_dir (preset default)"
  build_logged "$logs/configure.log" cmake -S "$repo" --preset default -B "$build_dir" && return 0
  warn "configuring failed (see $logs/configure.log): $(first_failure_line "$logs/configure.log")"
  return 1
}

# build_target TARGET: builds one program, its output in build-TARGET.log.
build_target() {
  local target=$1 log=$logs/build-$1.log
  configure_once || return 1
  progress "building $target"
  if ! build_logged "$log" cmake --build "$build_dir" --target "$target" -j "$(nproc 2>/dev/null || echo 2)"; then
    warn "cannot build $target (see $log): $(first_failure_line "$log")"
    return 1
  fi
  [ -x "$bin_dir/$target" ] || { warn "built $target but $bin_dir/$target is not there"; return 1; }
}

# ensure_program TARGET: the program exists and is up to date, built if
# allowed; each target is looked at once.
ensure_program() {
  local target=$1 program=$bin_dir/$1 sources
  [ -z "${program_state[$target]:-}" ] || { [ "${program_state[$target]}" = ok ]; return; }
  program_state[$target]=failed
  read -r -a sources <<<"$(sources_of "$target")"
  if [ "$build" = 0 ]; then
    [ -x "$program" ] || { warn "$program is missing (nothing is built with --bin-dir or --no-build)"; return 1; }
  elif [ ! -x "$program" ] || is_stale "$program" "${sources[@]}"; then
    build_target "$target" || return 1
  fi
  program_state[$target]=ok
}

# unavailable TARGET: why a part cannot run without TARGET, for its "not
# graded" line. A handout holds the reference workers only when
# make_handout.sh built them (not with --no-refs).
unavailable() {
  if [ -f "$repo/.handout" ] &&
    [[ $1 == judge_scan_reference || $1 == judge_render_reference || $1 == judge_render_rung_* ]]; then
    echo "$1 is not available: this handout has no reference workers in ref/.bin (make_handout.sh builds them, unless --no-refs)"
  elif [ "$build" = 0 ]; then
    echo "$1 is not available: it is not in $bin_dir (nothing is built with --bin-dir or --no-build)"
  elif [ -f "$logs/build-$1.log" ]; then
    echo "$1 is not available: it did not build (see $logs/build-$1.log)"
  elif [ -f "$logs/configure.log" ]; then
    echo "$1 is not available: the build folder could not be configured (see $logs/configure.log)"
  else
    echo "$1 is not available: it could not be built (cmake is not installed: build the programs yourself and pass --bin-dir)"
  fi
}

# programs_of PART: the programs a part runs, one a line.
programs_of() {
  case "$1" in
    saxpy) echo judge; for variant in $(saxpy_variants); do saxpy_worker_target "$variant"; done ;;
    scan | find_repeats) scan_programs ;;
    render) render_programs ;;
  esac
}
