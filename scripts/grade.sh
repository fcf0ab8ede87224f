#!/usr/bin/env bash
# Grades the implementations as the course does: checks every result against
# our serial references, times it against a named reference, prints score
# tables.
#
# Usage: scripts/grade.sh [saxpy|scan|find_repeats|render|all ...] [options]
#   Parts (default all): saxpy (timing table, not scored), scan and
#   find_repeats (1.25 points per size), render (9 points per scene).
# Options (--opt VALUE or --opt=VALUE):
#   --renderer cuda|cpu|student  renderer to grade (default cuda; cpu needs
#                         no GPU; student: your render -r student, which a
#                         handout's -r cuda already is)
#   --cuda-mode MODE      render's --cuda-mode for the graded CUDA renderer
#                         (default: render's own, auto)
#   --algorithm ALGO      cudaScan's -a for the graded scan (default: its own)
#   --ladder              grade every design rung against the same reference:
#                         render's CUDA modes circles pixels tiles classic
#                         tiled binned auto, cudaScan's algorithms
#                         kogge-stone blelloch single-pass cub (needs a GPU)
#   --scenes LIST         scenes, comma-separated (default
#                         rgb,rand10k,rand100k,pattern,snowsingle,biglittle,rand1M,micro2M)
#   --size N              image size (default 1024)
#   --counts LIST         scan element counts (default 1000000,10000000,20000000,40000000)
#   --saxpy-n N           saxpy elements (default: cudaSaxpy's own, 100M)
#   --runs N              timed runs per measurement, the best counts (default 3)
#   --seed auto|random|N  render check seed per scene (N up to 4294967295):
#                         auto (default) reuses the seed of a cached serial
#                         image of this build, else draws one at random;
#                         random: always a new one; N: that seed
#   --ref-mode MODE       the reference of the CUDA renderer: our render -r
#                         cuda --cuda-mode MODE (default classic, the course's
#                         design)
#   --ref-render PATH     reference renderer with render's command line instead
#                         (e.g. the course's render_ref)
#   --ref-renderer NAME   the -r value given to --ref-render (default cuda)
#   --ref-algorithm ALGO  the scan reference: our cudaScan -a ALGO (default
#                         blelloch, the course's algorithm; cub is the library)
#   --ref-scan PATH       reference cudaScan instead (e.g. the course's
#                         cudaScan_ref)
#                         The CPU renderer's reference is the serial time
#                         divided by this machine's cores (perfect scaling).
#                         A reference that cannot run stops its part (exit 1).
#   --build-dir DIR       build there if programs are missing or stale (default
#                         build, preset "default"); programs in DIR/bin
#   --bin-dir DIR         use the programs in DIR as they are; build nothing
#   --no-build            never build
#   --logs DIR            folder for every log and the results (default: a new
#                         grade-results/DATE-TIME-XXXXXX)
#   --cache-dir DIR       serial reference cache (default BUILD_DIR/grade-cache)
#   --cache-limit MIB     the cache's images kept under this size, oldest
#                         removed first (default 2048; 0: no limit)
#   --clean-cache         empty the cache first (alone: empty it and stop)
#   --no-cache            always render the serial references afresh (the
#                         reference images into the log folder)
#   --timeout SEC         limit for one program run (default 900)
#   --quiet               no progress lines on stderr
#   --gradescope FILE     also write Gradescope's results.json to FILE (one test
#                         per graded row; scripts/gradescope.sh)
#   -h, --help            this text
# Results: tables on stdout; scores.csv, saxpy.csv and results.md in the log
# folder, named at the end. Exit status: 0 when every result is correct, 1
# when any is wrong or could not be graded (no GPU, program missing, a
# reference that cannot run), 2 on usage errors, 130, 143 or 129 when stopped by
# SIGINT, SIGTERM or SIGHUP (then no results are written). See docs/grading.md.
set -uo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$script_dir/.." && pwd)
# shellcheck source=scripts/grade_lib.sh
source "$script_dir/grade_lib.sh"
# shellcheck source=scripts/options_lib.sh
source "$script_dir/options_lib.sh"
# shellcheck source=scripts/run_lib.sh
source "$script_dir/run_lib.sh"

# ---------------------------------------------------------------- settings

parts=()
renderer=cuda
cuda_mode=""
algorithm=""
ladder=0
scenes=rgb,rand10k,rand100k,pattern,snowsingle,biglittle,rand1M,micro2M
size=1024
counts=1000000,10000000,20000000,40000000
saxpy_n=""
runs=3
seed_mode=auto
ref_mode=classic
ref_render=""
ref_renderer=cuda
ref_algorithm=blelloch
ref_scan=""
build_dir=$repo/build
bin_dir=""
build=1
logs=""
cache_dir=""
cache_limit_mib=2048
clean_cache=0
use_cache=1
timeout_s=900
quiet=0
gradescope=""  # --gradescope FILE
declare -A given=()  # the options given, for those that exclude each other

# The rungs of --ladder, from the course's first attempt to our fastest.
render_rungs=(circles pixels tiles classic tiled binned auto)
scan_rungs=(kogge-stone blelloch single-pass cub)

# Set while running.
exit_status=0
work_dir=""
created_logs=""  # the log folder when this run created it
scores_tsv=""  # the rows so far; scores.csv at the end
results_part=""  # results.md so far, renamed at the end
declare -A program_state=()  # target -> ok or failed, so each is built once
cores=$(nproc 2>/dev/null || echo 1)

# ---------------------------------------------------------------- messages

# A usage error (options_lib.sh) takes away the log folder if this run made
# it (render's scenes are checked after it is made).
# shellcheck disable=SC2317  # run by usage_error
remove_created_logs() { [ -z "$created_logs" ] || rm -rf -- "$created_logs"; }
usage_tidy=remove_created_logs

warn() { echo "grade.sh: $*" >&2; }

progress() { [ "$quiet" = 1 ] || printf '[%4ss] %s\n' "$SECONDS" "$*" >&2; }

# paint: colours "(F)" and the total rows, only when stdout is a terminal.
paint() {
  if [ -t 1 ] && [ -z "${NO_COLOR:-}" ] && [ "${TERM:-dumb}" != dumb ]; then
    sed -e $'s/(F)/\033[31m(F)\033[0m/g' -e $'s/\\(Total score: *|[^|]*\\)/\033[1m\\1\033[0m/'
  else
    cat
  fi
}

# ---------------------------------------------------------------- signals

running_what=""  # the program running now, for the message when stopped
temp_files=()    # removed whatever happens
finished=0

# shellcheck disable=SC2317  # run by the traps below
# remove_partial: what a run that did not finish must not leave: temporary
# cache entries, the scratch folder, the half-made results.
remove_partial() {
  [ ${#temp_files[@]} -eq 0 ] || rm -f -- "${temp_files[@]}"
  [ "$finished" = 1 ] || [ -z "$scores_tsv" ] || rm -f -- "$scores_tsv" "$results_part"
  [ "$finished" = 1 ] || [ -z "$work_dir" ] || rm -rf -- "$work_dir"
}

# shellcheck disable=SC2317  # run by stop_on_signals' traps
# stopped: once a signal has stopped the running program (run_lib.sh), what
# was left goes into the one line said.
stopped() {
  remove_partial
  local left="nothing"
  [ -z "$logs" ] || [ ! -d "$logs" ] || left="the logs so far in $logs"
  stop_note="${running_what:+ during $running_what}: no results written; left $left"
}

stop_tidy=stopped
stop_on_signals
trap remove_partial EXIT

# ---------------------------------------------------------------- arguments

# need_number OPTION ARGS...: need_value (options_lib.sh) for an option taking
# a number (an empty one included: --saxpy-n= must not fall back to the
# default count).
need_number() { if [ $# -lt 2 ] || [ -z "$2" ] || [[ $2 == -[!0-9]* ]]; then usage_error "$1 needs a number"; fi; }

parse_args() {
  while [ $# -gt 0 ]; do
    if [[ $1 == --*=* ]]; then set -- "${1%%=*}" "${1#*=}" "${@:2}"; fi
    [[ $1 != --* ]] || given[$1]=1
    case "$1" in
      saxpy | scan | find_repeats | render) parts+=("$1") ;;
      all) parts+=(saxpy scan find_repeats render) ;;
      --renderer) need_value "$@"; renderer=$2; shift ;;
      --cuda-mode) need_value "$@"; cuda_mode=$2; shift ;;
      --algorithm) need_value "$@"; algorithm=$2; shift ;;
      --ladder) ladder=1 ;;
      --scenes) need_value "$@"; scenes=$2; shift ;;
      --size) need_number "$@"; size=$2; shift ;;
      --counts) need_number "$@"; counts=$2; shift ;;
      --saxpy-n) need_number "$@"; saxpy_n=$2; shift ;;
      --runs) need_number "$@"; runs=$2; shift ;;
      --seed) need_value "$@"; seed_mode=$2; shift ;;
      --ref-mode) need_value "$@"; ref_mode=$2; shift ;;
      --ref-render) need_value "$@"; ref_render=$2; shift ;;
      --ref-renderer) need_value "$@"; ref_renderer=$2; shift ;;
      --ref-algorithm) need_value "$@"; ref_algorithm=$2; shift ;;
      --ref-scan) need_value "$@"; ref_scan=$2; shift ;;
      --build-dir) need_folder "$@"; build_dir=$2; shift ;;
      --bin-dir) need_folder "$@"; bin_dir=$2; shift ;;
      --no-build) build=0 ;;
      --logs) need_folder "$@"; logs=$2; shift ;;
      --cache-dir) need_folder "$@"; cache_dir=$2; shift ;;
      --cache-limit) need_number "$@"; cache_limit_mib=$2; shift ;;
      --clean-cache) clean_cache=1 ;;
      --no-cache) use_cache=0 ;;
      --timeout) need_number "$@"; timeout_s=$2; shift ;;
      --quiet) quiet=1 ;;
      --gradescope) need_value "$@"; gradescope=$2; [[ $2 == /* ]] || gradescope=$PWD/$2; shift ;;
      -h | --help | -\?) show_help; exit 0 ;;
      -*) usage_error "unknown option '$1'" ;;
      *) usage_error "unknown part '$1' (valid: saxpy, scan, find_repeats, render, all)" ;;
    esac
    shift
  done
  # --clean-cache alone only cleans.
  [ ${#parts[@]} -gt 0 ] || [ "$clean_cache" = 1 ] || parts=(saxpy scan find_repeats render)
}

# unique_parts: each part once, in the order asked.
unique_parts() {
  local -A seen=()
  local p out=()
  for p in "${parts[@]}"; do
    [ -n "${seen[$p]:-}" ] || out+=("$p")
    seen[$p]=1
  done
  parts=("${out[@]}")
}

# absolute_program PATH: PATH found on PATH when it has no slash, made
# absolute; as given when it is not there (the part then says why).
absolute_program() {
  local path=$1
  [[ $path == */* ]] || path=$(command -v -- "$path" 2>/dev/null || echo "$path")
  [ -d "$(dirname "$path")" ] || { echo "$path"; return; }
  echo "$(cd "$(dirname "$path")" && pwd)/$(basename "$path")"
}

# within N MIN MAX: whether N is a whole number from MIN to MAX.
within() { [[ $1 =~ ^[0-9]{1,12}$ ]] && [ "$1" -ge "$2" ] && [ "$1" -le "$3" ]; }

# mode_name OPTION NAME: a usage error unless NAME looks like a mode or
# algorithm name (the program itself says whether it knows it).
mode_name() { [[ $2 =~ ^[a-z][a-z0-9-]*$ ]] || usage_error "$1: '$2' is not a name"; }

validate_args() {
  case "$renderer" in cuda | cpu | student) ;; *) usage_error "--renderer: '$renderer' is not cuda, cpu or student" ;; esac
  [[ $scenes =~ ^[A-Za-z0-9_.-]+(,[A-Za-z0-9_.-]+)*$ ]] || usage_error "--scenes: '$scenes' is not a comma-separated list of scene names"
  [[ $counts =~ ^[0-9]+(,[0-9]+)*$ ]] || usage_error "--counts: '$counts' is not a comma-separated list of counts"
  local n
  for n in ${counts//,/ }; do within "$n" 1 999999999999 || usage_error "--counts: $n is not a positive count"; done
  within "$size" 1 16384 || usage_error "--size: '$size' is not a size from 1 to 16384"
  within "$runs" 1 100 || usage_error "--runs: '$runs' is not a number from 1 to 100"
  within "$timeout_s" 1 999999 || usage_error "--timeout: '$timeout_s' is not a positive number of seconds"
  within "$cache_limit_mib" 0 99999999 || usage_error "--cache-limit: '$cache_limit_mib' is not a size in MiB"
  # cudaSaxpy's own limit (2^33 elements).
  [ -z "$saxpy_n" ] || within "$saxpy_n" 1 8589934592 || usage_error "--saxpy-n: '$saxpy_n' is not a count from 1 to 8589934592"
  # render -S takes an unsigned 32-bit seed.
  case "$seed_mode" in
    auto | random) ;;
    *) within "$seed_mode" 0 4294967295 || usage_error "--seed: '$seed_mode' is not auto, random or a seed from 0 to 4294967295" ;;
  esac
  [[ $ref_renderer =~ ^[a-z]+$ ]] || usage_error "--ref-renderer: '$ref_renderer' is not a renderer name"
  mode_name --ref-mode "$ref_mode"
  mode_name --ref-algorithm "$ref_algorithm"
  [ -z "$cuda_mode" ] || mode_name --cuda-mode "$cuda_mode"
  [ -z "$algorithm" ] || mode_name --algorithm "$algorithm"
  if [ "$renderer" != cuda ] && [ -n "$cuda_mode" ]; then usage_error "--cuda-mode is for --renderer cuda"; fi
  # A reference option that another one overrides would be ignored unsaid.
  [ -z "${given[--ref-mode]:-}" ] || [ -z "${given[--ref-render]:-}" ] ||
    usage_error "--ref-mode and --ref-render each name the render reference: give one"
  [ -z "${given[--ref-algorithm]:-}" ] || [ -z "${given[--ref-scan]:-}" ] ||
    usage_error "--ref-algorithm and --ref-scan each name the scan reference: give one"
  [ -z "${given[--ref-renderer]:-}" ] || [ -n "$ref_render" ] ||
    usage_error "--ref-renderer is the -r of --ref-render: give --ref-render too"
  if [ "$ladder" = 1 ]; then
    [ "$renderer" = cuda ] || usage_error "--ladder grades the CUDA renderer's modes: leave out --renderer $renderer"
    [ -z "$cuda_mode$algorithm" ] || usage_error "--ladder grades every mode and algorithm: leave out --cuda-mode and --algorithm"
  fi
  # Checked now, not after a grade of many minutes.
  if [ -n "$gradescope" ]; then
    [ ! -d "$gradescope" ] || usage_error "--gradescope: '$gradescope' is a folder, not a file"
    [ -d "$(dirname -- "$gradescope")" ] || usage_error "--gradescope: no folder '$(dirname -- "$gradescope")'"
  fi
  [ -z "$ref_render" ] || ref_render=$(absolute_program "$ref_render")
  [ -z "$ref_scan" ] || ref_scan=$(absolute_program "$ref_scan")
  [ ${#parts[@]} -eq 0 ] || unique_parts
}

# new_log_folder: a fresh folder under grade-results, made atomically (two
# runs started in the same second get different ones).
new_log_folder() {
  local parent=$repo/grade-results
  mkdir -p -- "$parent" 2>/dev/null &&
    mktemp -d "$parent/$(date +%Y%m%d-%H%M%S)-XXXXXX" 2>/dev/null && return 0
  warn "cannot create a log folder in $parent (give one with --logs)"
  exit 1
}

# make_folder DIR: DIR created and printed as an absolute path, or exit 1.
make_folder() {
  if ! mkdir -p -- "$1" 2>/dev/null; then
    warn "cannot create the folder $1"
    exit 1
  fi
  (cd "$1" && pwd)
}

setup_paths() {
  [ -z "$bin_dir" ] || build=0
  [[ $build_dir == /* ]] || build_dir=$PWD/$build_dir
  if [ -n "$bin_dir" ]; then
    [ -d "$bin_dir" ] || usage_error "--bin-dir: '$bin_dir' is not a folder"
    bin_dir=$(cd "$bin_dir" && pwd)
  else
    bin_dir=$build_dir/bin
  fi
  cache_dir=${cache_dir:-$build_dir/grade-cache}
  [[ $cache_dir == /* ]] || cache_dir=$PWD/$cache_dir
  [ "$clean_cache" = 0 ] || clean_the_cache
  [ ${#parts[@]} -gt 0 ] || exit 0
  local fresh=0
  if [ -z "$logs" ]; then logs=$(new_log_folder) || exit 1; fresh=1; fi
  [ -e "$logs" ] || fresh=1
  logs=$(make_folder "$logs") || exit 1
  [ "$fresh" = 0 ] || created_logs=$logs
  work_dir=$(make_folder "$logs/work") || exit 1
  scores_tsv=$logs/.scores.tsv
  results_part=$logs/.results.md
  : >"$logs/commands.txt"
  : >"$results_part"
  : >"$scores_tsv"
}
# ---------------------------------------------------------------- building

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

# sources_of TARGET: the folders whose files make up the program.
sources_of() {
  case "$1" in
    cudaSaxpy) echo common saxpy ;;
    cudaScan) echo common scan ;;
    render) echo common scenes render ;;
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
  run_logged "$logs/configure.log" "$repo" 0 cmake --preset default -B "$build_dir" && return 0
  warn "configuring failed (see $logs/configure.log): $(first_failure_line "$logs/configure.log")"
  return 1
}

# build_target TARGET: builds one program, its output in build-TARGET.log.
build_target() {
  local target=$1 log=$logs/build-$1.log
  configure_once || return 1
  progress "building $target"
  if ! run_logged "$log" "$repo" 0 cmake --build "$build_dir" --target "$target" -j "$(nproc 2>/dev/null || echo 2)"; then
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

# program_of PART: the program a part runs.
program_of() {
  case "$1" in
    saxpy) echo cudaSaxpy ;;
    scan | find_repeats) echo cudaScan ;;
    render) echo render ;;
  esac
}

# ---------------------------------------------------------------- running

# run_program LOG PROGRAM ARGS...: runs in the scratch folder with a time
# limit, all output in LOG; returns the program's exit status. A signal to
# grade.sh stops it at once (run_lib.sh).
run_program() {
  local log=$1
  shift
  {
    printf '%s:' "${log#"$logs"/}"
    printf ' %q' "$@"
    printf '\n'
  } >>"$logs/commands.txt"
  run_logged "$log" "$work_dir" "$timeout_s" "$@"
}

# timed_runs LABEL LOG_PREFIX PASS_RE PROGRAM ARGS...: runs the command
# --runs times, stopping at the first bad run; each run's time is the first
# time line it printed (render's "Total:", cudaScan's "GPU time:"), as the
# course's checker reads it. Sets RUN_VERDICT (ok, or the bad run's
# verdict), RUN_BEST (the best time, "-" if none) and RUN_LOG (the bad run's
# log, else the first).
timed_runs() {
  local label=$1 prefix=$2 pass=$3
  shift 3
  local i log status verdict time times=""
  RUN_VERDICT=ok RUN_BEST=- RUN_LOG=$prefix.run1.log
  for ((i = 1; i <= runs; i++)); do
    progress "$label: run $i/$runs"
    log=$prefix.run$i.log
    run_program "$log" "$@"
    status=$?
    verdict=$(classify_run "$status" "$log" "$pass")
    time=$(first_time "$log")
    [ -z "$time" ] || times+="$time"$'\n'
    [ "$verdict" != ok ] || [ -n "$time" ] || verdict=unverified
    if [ "$verdict" != ok ]; then
      RUN_VERDICT=$verdict RUN_LOG=$log
      break
    fi
  done
  [ -z "$times" ] || RUN_BEST=$(printf '%s' "$times" | min_number)
}

# first_time LOG: the time a run printed, either program's format.
first_time() {
  local t
  t=$(parse_render_total "$1")
  [ -n "$t" ] || t=$(parse_scan_time "$1")
  printf '%s' "$t"
}

# add_score_row PART ITEM SEED REFERENCE REF_MS YOUR_MS VERDICT SCORE MAX
add_score_row() {
  local speed
  speed=$(speedup "$5" "$6")
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" "$6" "$speed" "$7" "$8" "$9" >>"$scores_tsv"
  [ "$7" = ok ] || exit_status=1
}

# report_bad_run WHAT VERDICT LOG: one line on stderr for a wrong or failed run.
report_bad_run() {
  warn "$1: $(verdict_text "$2"): $(first_failure_line "$3") (log: ${3#"$logs"/})"
}

# not_graded PART REASON: a part that could not run at all. Said on stderr;
# also where its table would be when stdout goes to a file, so the file
# tells why the table is missing.
not_graded() {
  warn "$1: not graded: $2"
  printf '%s: not graded: %s\n\n' "$1" "$2" >>"$results_part"
  [ -t 1 ] || printf '%s: not graded: %s\n\n' "$1" "$2"
  exit_status=1
}

# reference_failed PART NAME: the named reference could not give a time:
# the part stops with the reason (never another reference instead).
reference_failed() {
  not_graded "$1" "the reference $2 $(verdict_text "$RUN_VERDICT"): $(first_failure_line "$RUN_LOG") (log: ${RUN_LOG#"$logs"/})"
}

# reference_runs PART NAME PROGRAM: whether a reference program the user
# named can run here; when not, the part stops with the reason.
reference_runs() {
  local problem
  problem=$(program_problem "$3")
  [ -z "$problem" ] && return 0
  not_graded "$1" "the reference $2 cannot run: $3: $problem"
  return 1
}

# print_score_table PART TITLE ITEM_HEADER REF_HEADER YOUR_HEADER MAX_PER_ROW:
# the part's rows of scores.tsv in the course's layout (stdout) and in
# Markdown (results.md). Incorrect results get "(F)" after their time;
# scores show at most 3 decimals, the total is summed from the exact ones.
print_score_table() {
  local part=$1 title=$2 tsv
  tsv=$(
    printf '%s\t%s\t%s\tScore\tSpeedup\tReference\n' "$3" "$4" "$5"
    awk -F '\t' -v part="$part" '$1 == part {
      t = $6; if ($8 != "ok") t = t " (F)"
      s = $9; if (s ~ /^[0-9.]+$/) { s = sprintf("%.3f", s); sub(/0+$/, "", s); sub(/\.$/, "", s) }
      print $2 "\t" $5 "\t" t "\t" s "\t" $7 "\t" $4 }' "$scores_tsv"
    printf 'TOTAL\t%s\n' "$(part_total "$part" "$6")"
  )
  printf '%s\n' "$tsv" | format_box_table "$title" 4 | paint
  echo
  printf '%s\n' "$tsv" | format_markdown_table "$title" 4 >>"$results_part"
}

# part_total PART MAX_PER_ROW: "SUM/MAX" of the part's rows.
part_total() { awk -F '\t' -v part="$1" '$1 == part { print $9 }' "$scores_tsv" | score_total "$2"; }

# print_ladder_table TITLE ITEMS PART_PREFIX MAX_PER_ROW RUNG...: one row
# per rung: its time per item ("(F)" when wrong) and its total.
print_ladder_table() {
  local title=$1 items=$2 prefix=$3 max=$4 rung tsv
  shift 4
  tsv=$(
    printf 'Rung\t%s\tTotal score\n' "$(tr ',' '\t' <<<"$items")"
    for rung in "$@"; do
      awk -F '\t' -v part="$prefix/$rung" -v rung="$rung" -v total="$(part_total "$prefix/$rung" "$max")" '
        $1 == part { t = $6; if ($8 != "ok") t = t " (F)"; line = line "\t" t }
        END { print rung line "\t" total }' "$scores_tsv"
    done
  )
  {
    printf '%s\n' "$tsv" | format_box_table "$title" 0
    echo
  } | paint
  printf '%s\n' "$tsv" | format_markdown_table "$title" 0 >>"$results_part"
}

# ---------------------------------------------------------------- saxpy

grade_saxpy() {
  ensure_program cudaSaxpy || { not_graded saxpy "cudaSaxpy is not available"; return; }
  local log=$logs/saxpy.log args=(-r "$runs") status verdict memcpy rows n
  [ -z "$saxpy_n" ] || args+=(-n "$saxpy_n")
  progress "saxpy: cudaSaxpy ${args[*]}"
  run_program "$log" "$bin_dir/cudaSaxpy" "${args[@]}"
  status=$?
  verdict=$(classify_run "$status" "$log" "$GRADE_SAXPY_PASS_RE")
  [ "$verdict" != nogpu ] || { not_graded saxpy "cudaSaxpy needs a GPU: $(first_failure_line "$log")"; return; }
  memcpy=$(parse_saxpy_memcpy "$log")
  rows=$(parse_saxpy_best "$log")
  n=$(parse_saxpy_n "$log")
  [ -n "$rows" ] || [ "$verdict" != ok ] || verdict=unverified
  [ "$verdict" = ok ] || { report_bad_run saxpy "$verdict" "$log"; exit_status=1; }
  [ -n "$rows" ] || { not_graded saxpy "cudaSaxpy printed no timings (see $log)"; return; }
  print_saxpy_table "$rows" "${memcpy:--}" "$verdict" "${n:-${saxpy_n:-its default}}"
}

# print_saxpy_table ROWS MEMCPY_GBS VERDICT N: the timing table (not
# scored), on stdout, in results.md and in saxpy.csv.
print_saxpy_table() {
  local rows tsv title="Saxpy timing table (N = $4, best of $runs, not scored)"
  rows=$(printf '%s\n' "$1" | awk -F '\t' -v memcpy="$2" -v verdict="$3" '{
    ratio = (memcpy != "-" && $5 != "-" && memcpy + 0 > 0) ? sprintf("%.3f", $5 / memcpy) : "-"
    print $0 "\t" ratio "\t" verdict }')
  {
    printf 'variant\ttrip_ms\ttrip_gbs\tkernel_ms\tkernel_gbs\tkernel_per_memcpy\tverdict\n'
    printf '%s\n' "$rows"
  } | tsv_to_csv >"$logs/saxpy.csv"
  tsv=$(
    printf 'Variant\tTrip (ms)\tTrip GB/s\tKernel (ms)\tKernel GB/s\tKernel/memcpy\n'
    printf '%s\n' "$rows" | awk -F '\t' '{
      trip = $2; if ($7 != "ok") trip = trip " (F)"
      print $1 "\t" trip "\t" $3 "\t" $4 "\t" $5 "\t" $6 }'
  )
  {
    printf '%s\n' "$tsv" | format_box_table "$title" 0
    echo "Device-to-device memcpy: $2 GB/s. Results: $(verdict_text "$3")."
    echo
  } | paint
  {
    printf '%s\n' "$tsv" | format_markdown_table "$title" 0
    printf 'Device-to-device memcpy: %s GB/s. Results: %s.\n\n' "$2" "$(verdict_text "$3")"
  } >>"$results_part"
}

# ---------------------------------------------------------------- scan

# Reference times per test and count, measured once (--ladder reuses them).
declare -A scan_ref_ms=()

# scan_reference_name: the reference named in every row.
scan_reference_name() {
  if [ -n "$ref_scan" ]; then basename "$ref_scan"; else echo "cudaScan -a $ref_algorithm"; fi
}

# scan_reference_time TEST N LABEL: sets REF_MS from the named reference;
# fails (the part stops) when it cannot give a correct time.
scan_reference_time() {
  local test=$1 n=$2 label=$3 program=("$ref_scan")
  REF_MS=${scan_ref_ms[$test:$n]:-}
  [ -z "$REF_MS" ] || return 0
  [ -n "$ref_scan" ] || program=("$bin_dir/cudaScan" -a "$ref_algorithm")
  timed_runs "$label: reference $(scan_reference_name)" "$logs/$test/$n.ref" "$GRADE_SCAN_PASS_RE" \
    "${program[@]}" -m "$test" -i random -n "$n"
  [ "$RUN_VERDICT" = ok ] || return 1
  REF_MS=$RUN_BEST
  scan_ref_ms[$test:$n]=$REF_MS
}

# grade_scan_count PART TEST N LABEL ALGORITHM: one row of the scan or
# find_repeats table (ALGORITHM: cudaScan's -a, empty for its own choice).
# Returns 1 when the part cannot go on (no GPU, no reference).
grade_scan_count() {
  local part=$1 test=$2 n=$3 label=$4 algo=$5 verdict your_ms student_log args=()
  [ -z "$algo" ] || args=(-a "$algo")
  timed_runs "$label" "$logs/$test/$n${algo:+.$algo}" "$GRADE_SCAN_PASS_RE" \
    "$bin_dir/cudaScan" "${args[@]}" -m "$test" -i random -n "$n"
  verdict=$RUN_VERDICT your_ms=$RUN_BEST student_log=$RUN_LOG
  if [ "$verdict" = nogpu ]; then
    not_graded "$part" "cudaScan needs a GPU: $(first_failure_line "$student_log")"
    return 1
  fi
  [ "$verdict" = ok ] || report_bad_run "$test $n${algo:+ (-a $algo)}" "$verdict" "$student_log"
  scan_reference_time "$test" "$n" "$label" || { reference_failed "$part" "$(scan_reference_name)"; return 1; }
  add_score_row "$part" "$n" - "$(scan_reference_name)" "$REF_MS" "$your_ms" "$verdict" \
    "$(scan_score "$verdict" "$REF_MS" "$your_ms")" 1.25
}

# grade_scan_rung TEST ALGORITHM: the table of one algorithm (empty:
# cudaScan's own choice, or --algorithm).
grade_scan_rung() {
  local test=$1 algo=$2 part=$1 n i=0 total
  [ -z "$algo" ] || [ "$ladder" = 0 ] || part=$test/$algo
  total=$(wc -w <<<"${counts//,/ }")
  for n in ${counts//,/ }; do
    i=$((i + 1))
    grade_scan_count "$part" "$test" "$n" "$test${algo:+ -a $algo} $n ($i/$total)" "$algo" || return 1
  done
  print_score_table "$part" "Score table: $test${algo:+ (cudaScan -a $algo)} (ms, best of $runs)" \
    "Element Count" "Ref Time" "Student Time" 1.25
}

grade_scan() {
  local test=$1 algo
  ensure_program cudaScan || { not_graded "$test" "cudaScan is not available"; return; }
  [ -z "$ref_scan" ] || reference_runs "$test" "$(scan_reference_name)" "$ref_scan" || return
  mkdir -p "$logs/$test"
  if [ "$ladder" = 0 ]; then
    grade_scan_rung "$test" "$algorithm"
    return
  fi
  for algo in "${scan_rungs[@]}"; do grade_scan_rung "$test" "$algo" || return; done
  print_ladder_table "Ladder: $test, ms per element count, best of $runs, against $(scan_reference_name)" \
    "$counts" "$test" 1.25 "${scan_rungs[@]}"
}

# ---------------------------------------------------------------- the cache

cache_state=""  # "", ok or off: the cache folder is checked once

# cache_ready: whether the cache can be written; a folder that cannot gives
# one line and the run goes on without the cache.
cache_ready() {
  [ "$use_cache" = 1 ] || return 1
  [ -z "$cache_state" ] || { [ "$cache_state" = ok ]; return; }
  cache_state=off
  if ! mkdir -p -- "$cache_dir/render" 2>/dev/null || [ ! -w "$cache_dir/render" ] ||
    ! touch -- "$cache_dir/render/.writable" 2>/dev/null; then
    warn "the cache folder $cache_dir cannot be written: grading without the cache"
    use_cache=0
    return 1
  fi
  rm -f -- "$cache_dir/render/.writable"
  remove_stale_temps
  cache_state=ok
}

# remove_stale_temps: temporary cache entries of runs that were killed
# outright (their process is gone).
remove_stale_temps() {
  local f pid
  for f in "$cache_dir"/render/.tmp-*; do
    [ -e "$f" ] || continue
    pid=${f##*.}
    [[ $pid =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null && continue
    rm -f -- "$f"
  done
}

# cache_put SOURCE NAME: moves SOURCE into the cache as NAME through a
# temporary name in the cache folder itself, so the last step is an atomic
# rename and a cut-short copy is never found under NAME (the temporary file
# goes whatever stops the run); then keeps the cache under --cache-limit.
cache_put() {
  local dir=$cache_dir/render tmp
  tmp=$dir/.tmp-$2.$$
  temp_files+=("$tmp")
  if ! mv -f -- "$1" "$tmp" 2>/dev/null || ! mv -f -- "$tmp" "$dir/$2" 2>/dev/null; then
    rm -f -- "$tmp" "$1"
    return 1
  fi
  prune_cache "$2"
}

# prune_cache KEEP: removes the oldest images but KEEP (the one in use)
# while the cache holds more than --cache-limit MiB.
prune_cache() {
  [ "$cache_limit_mib" != 0 ] || return 0
  local dir=$cache_dir/render total f
  total=$(du -sk -- "$dir" 2>/dev/null | cut -f1)
  # shellcheck disable=SC2010,SC2012  # the names are ours: letters, digits, _ . and -
  while [ "${total:-0}" -gt $((cache_limit_mib * 1024)) ] &&
    f=$(cd "$dir" && ls -tr -- *.rgbaf 2>/dev/null | grep -vxF -- "$1" | head -n 1) && [ -n "$f" ]; do
    rm -f -- "${dir:?}/$f"
    total=$(du -sk -- "$dir" 2>/dev/null | cut -f1)
  done
}

# clean_the_cache: --clean-cache.
clean_the_cache() {
  local dir=$cache_dir/render size
  if [ ! -d "$dir" ]; then
    echo "The cache $cache_dir is empty."
    return
  fi
  size=$(du -sh -- "$dir" 2>/dev/null | cut -f1)
  if ! rm -rf -- "$dir" 2>/dev/null; then
    warn "cannot empty the cache $cache_dir"
    exit 1
  fi
  echo "Emptied the cache $cache_dir (${size:-?})."
}

# ---------------------------------------------------------------- render

render_program=""
render_hash=""
has_check_against=0
host=$(uname -n 2>/dev/null || echo host)
declare -A scene_seed=() scene_ref_ms=() scene_ref_name=()

# render_preflight: what render's --help offers, and the scenes it knows.
render_preflight() {
  local help=$logs/render/help.log list=$logs/render/list.log scene
  render_program=$bin_dir/render
  render_hash=$(program_hash "$render_program")
  run_program "$help" "$render_program" --help
  ! help_lists "$help" '--check-against' || has_check_against=1
  run_program "$list" "$render_program" --list || return 0
  for scene in ${scenes//,/ }; do
    grep -qw -- "$scene" "$list" || usage_error "--scenes: render does not know the scene '$scene' (render --list names them)"
  done
}

# reference_image SCENE SEED LABEL: sets REF_IMAGE to the serial reference
# image of frame 0 (exact floats), from the cache, else rendered now into the
# cache (without the cache, into the log folder); fails when render cannot
# write it. (Not run in a subshell: a signal must find the running program.)
reference_image() {
  local scene=$1 seed=$2 label=$3 dir name written log=$logs/render/$1.reference-image.log
  name=$(reference_image_name "$scene" "$size" "$seed" "$render_hash" rgbaf)
  REF_IMAGE=""
  if cache_ready; then dir=$cache_dir/render; else dir=$logs/render; fi
  if [ "$dir" != "$logs/render" ] && [ -f "$dir/$name" ]; then
    progress "$label: serial reference image from the cache"
    REF_IMAGE=$dir/$name
    return 0
  fi
  progress "$label: serial reference image, seed $seed"
  run_program "$log" "$render_program" -r cpuref -s "$size" -S "$seed" -b 0:1 \
    -f "$work_dir/reference-$scene" --format rgbaf "$scene" || return 1
  written=$(parse_written_file "$log")
  [[ $written == /* ]] || written=$work_dir/$written
  [ -f "$written" ] || return 1
  if [ "$dir" = "$logs/render" ]; then
    mv -f -- "$written" "$dir/$name" || return 1
  else
    cache_put "$written" "$name" || return 1
  fi
  REF_IMAGE=$dir/$name
}

# render_check SCENE SEED LABEL ARGS...: sets CHECK_VERDICT and CHECK_LOG.
# Runs render ARGS (the renderer graded) with the check, against the stored
# serial image when render can (--check-against), else (an older render, or
# the image could not be made) with -c alone.
render_check() {
  local scene=$1 seed=$2 label=$3 args
  shift 3
  args=("$@" -s "$size" -S "$seed" -c)
  if [ "$has_check_against" = 1 ]; then
    if reference_image "$scene" "$seed" "$label"; then
      args+=(--check-against "$REF_IMAGE")
    else
      warn "render $scene: no serial reference image (log: render/$scene.reference-image.log), checking with -c alone"
    fi
  fi
  CHECK_LOG=$logs/render/$scene.check${rung_suffix}.log
  progress "$label: check, seed $seed"
  run_program "$CHECK_LOG" "$render_program" "${args[@]}" -f '' "$scene"
  CHECK_VERDICT=$(classify_run $? "$CHECK_LOG" "$GRADE_RENDER_PASS_RE")
}

# serial_reference_time SCENE LABEL: sets REF_MS and CACHED from the serial
# renderer's best time. Cached per scene, size, build and machine, with the
# load average it was measured under: a time measured on a busy machine is
# used once and never kept, a cached one only where it was measured quietly.
serial_reference_time() {
  local scene=$1 label=$2 name cached load
  name=$(serial_time_name "$scene" "$size" "$render_hash" "$host")
  cached=$cache_dir/render/$name
  CACHED=0
  if [ "$use_cache" = 1 ] && REF_MS=$(cached_time "$cached" "$cores"); then
    CACHED=1
    progress "$label: serial reference time from the cache"
    return 0
  fi
  timed_runs "$label: serial reference" "$logs/render/$scene.cpuref" '^Total:' \
    "$render_program" -r cpuref -s "$size" -b 0:4 -f '' "$scene"
  [ "$RUN_VERDICT" = ok ] || return 1
  REF_MS=$RUN_BEST
  load=$(load_average)
  if is_busy "$load" "$cores"; then
    warn "render $scene: the machine was busy (load $load on $cores cores) while timing the serial renderer: its time is not cached"
  elif cache_ready; then
    # The time is measured and good: a cache that cannot take it only costs
    # the next run a measurement.
    if ! printf '%s %s\n' "$REF_MS" "${load:--}" >"$work_dir/$name" || ! cache_put "$work_dir/$name" "$name"; then
      warn "render $scene: could not cache the serial time"
    fi
  fi
  return 0
}

# render_reference_name: the reference named in every row.
render_reference_name() {
  if [ -n "$ref_render" ]; then
    echo "$(basename "$ref_render") -r $ref_renderer"
  elif [ "$renderer" != cpu ]; then
    echo "render -r cuda --cuda-mode $ref_mode"
  else
    echo "serial / $cores cores (perfect scaling)"
  fi
}

# render_reference_time SCENE LABEL: sets REF_MS and REF_NAME from the
# named reference (measured once per scene); fails when it cannot give a
# correct time.
render_reference_time() {
  local scene=$1 label=$2 program
  REF_MS=${scene_ref_ms[$scene]:-} REF_NAME=${scene_ref_name[$scene]:-}
  [ -z "$REF_MS" ] || return 0
  REF_NAME=$(render_reference_name)
  if [ -z "$ref_render" ] && [ "$renderer" = cpu ]; then
    serial_reference_time "$scene" "$label" || return 1
    REF_MS=$(per_core "$REF_MS" "$cores")
    [ "$CACHED" = 0 ] || REF_NAME="serial / $cores cores (perfect scaling, cached)"
  else
    if [ -n "$ref_render" ]; then program=("$ref_render" -r "$ref_renderer")
    else program=("$render_program" -r cuda --cuda-mode "$ref_mode"); fi
    timed_runs "$label: reference $REF_NAME" "$logs/render/$scene.ref" '^Total:' \
      "${program[@]}" -s "$size" -b 0:4 -f '' "$scene"
    [ "$RUN_VERDICT" = ok ] || return 1
    REF_MS=$RUN_BEST
  fi
  scene_ref_ms[$scene]=$REF_MS scene_ref_name[$scene]=$REF_NAME
}

# choose_seed SCENE: the check's seed (see --seed), one per scene for the
# whole run. "auto" reuses a cached serial image's seed only where the check
# can use that image.
choose_seed() {
  local seed=${scene_seed[$1]:-}
  if [ -z "$seed" ]; then
    case "$seed_mode" in
      random) seed=$(random_seed) ;;
      auto)
        if [ "$use_cache" = 0 ] || [ "$has_check_against" = 0 ] ||
          ! seed=$(cached_seed "$cache_dir/render" "$1" "$size" "$render_hash" rgbaf); then
          seed=$(random_seed)
        fi
        ;;
      *) seed=$seed_mode ;;
    esac
    scene_seed[$1]=$seed
  fi
  SEED=$seed
}

# graded_renderer MODE: render's options for the renderer graded.
graded_renderer() {
  printf '%s\n' -r "$renderer"
  [ -z "$1" ] || printf '%s\n' --cuda-mode "$1"
}

# grade_render_scene PART SCENE LABEL MODE: one row of the render table.
# Returns 1 when the part cannot go on (no GPU, no reference).
grade_render_scene() {
  local part=$1 scene=$2 label=$3 mode=$4 verdict args
  mapfile -t args < <(graded_renderer "$mode")
  choose_seed "$scene"
  render_check "$scene" "$SEED" "$label" "${args[@]}"
  if [ "$CHECK_VERDICT" = nogpu ]; then
    local what="the $renderer renderer needs a GPU"
    [ "$ladder" = 0 ] || what="--ladder needs a GPU"
    not_graded "$part" "$what: $(first_failure_line "$CHECK_LOG") (on a machine without one: --renderer cpu)"
    return 1
  fi
  if [ "$CHECK_VERDICT" != ok ]; then
    report_bad_run "render $scene${mode:+ (--cuda-mode $mode)}, seed $SEED" "$CHECK_VERDICT" "$CHECK_LOG"
    warn "replay: $render_program ${args[*]} -s $size -S $SEED -c $scene"
  fi
  render_reference_time "$scene" "$label" || { reference_failed "$part" "$(render_reference_name)"; return 1; }
  timed_runs "$label: ${mode:-$renderer} renderer" "$logs/render/$scene.${mode:-$renderer}" '^Total:' \
    "$render_program" "${args[@]}" -s "$size" -b 0:4 -f '' "$scene"
  [ "$RUN_VERDICT" = ok ] || report_bad_run "render $scene (timing)" "$RUN_VERDICT" "$RUN_LOG"
  verdict=$CHECK_VERDICT
  [ "$verdict" != ok ] || verdict=$RUN_VERDICT
  add_score_row "$part" "$scene" "$SEED" "$REF_NAME" "$REF_MS" "$RUN_BEST" "$verdict" \
    "$(render_score "$verdict" "$REF_MS" "$RUN_BEST")" 9
}

# grade_render_rung MODE: the table of one CUDA mode (empty: the graded
# renderer as render picks it, or --cuda-mode).
grade_render_rung() {
  local mode=$1 part=render scene i=0 total seeds what
  [ "$ladder" = 0 ] || part=render/$mode
  rung_suffix=${mode:+.$mode}
  total=$(wc -w <<<"${scenes//,/ }")
  for scene in ${scenes//,/ }; do
    i=$((i + 1))
    grade_render_scene "$part" "$scene" "render${mode:+ $mode} $scene ($i/$total)" "$mode" || return 1
  done
  what=$renderer
  [ -z "$mode" ] || what="$renderer --cuda-mode $mode"
  print_score_table "$part" "Score table: render ($what, ${size}x$size, ms per frame, best of $runs)" \
    "Scene Name" "Ref Time (T_ref)" "Your Time (T)" 9
  seeds=$(awk -F '\t' -v part="$part" '$1 == part { printf "%s%s %s", sep, $2, $3; sep = ", " }' "$scores_tsv")
  echo "Check seeds (replay: render -r $renderer${mode:+ --cuda-mode $mode} -s $size -S SEED -c SCENE): $seeds"
  echo
  printf 'Check seeds: %s\n\n' "$seeds" >>"$results_part"
}

rung_suffix=""

grade_render() {
  local mode
  if [ -n "$ref_render" ]; then reference_runs render "$(render_reference_name)" "$ref_render" || return; fi
  if [ "$ladder" = 0 ]; then
    grade_render_rung "$cuda_mode"
    return
  fi
  for mode in "${render_rungs[@]}"; do grade_render_rung "$mode" || return; done
  print_ladder_table "Ladder: render ${size}x$size, ms per frame per scene, best of $runs, against $(render_reference_name)" \
    "$scenes" render 9 "${render_rungs[@]}"
}

# ---------------------------------------------------------------- main

# prepare_programs: builds what the parts need before anything runs, and
# checks render's scenes, so a usage error comes before any long run.
prepare_programs() {
  local part
  for part in "${parts[@]}"; do ensure_program "$(program_of "$part")"; done
  if [ "${program_state[render]:-}" = ok ]; then
    mkdir -p "$logs/render"
    render_preflight
  fi
}

grade_part() {
  case "$1" in
    saxpy) grade_saxpy ;;
    scan | find_repeats) grade_scan "$1" ;;
    render)
      if [ "${program_state[render]}" = ok ]; then grade_render; else not_graded render "render is not available"; fi
      ;;
  esac
}

write_results() {
  {
    printf 'part\titem\tseed\treference\tref_ms\tyour_ms\tspeedup\tverdict\tscore\tmax_score\n'
    cat "$scores_tsv"
  } | tsv_to_csv >"$logs/scores.csv"
  mv -f -- "$results_part" "$logs/results.md"
  rm -f -- "$scores_tsv"
  finished=1
  rmdir "$work_dir" 2>/dev/null || true  # kept only when a program left files there
  echo "Logs and results (results.md, scores.csv$([ -f "$logs/saxpy.csv" ] && echo ", saxpy.csv")): $logs"
}

# handout_references: in a handout (scripts/make_handout.sh) the reference
# programs of ref/ are the default references, but only where the user named
# no reference (--ref-mode and --ref-algorithm name one too), and never for
# the CPU renderer, whose reference is the serial time over the cores.
handout_references() {
  [ -f "$repo/.handout" ] || return 0
  if [ -z "${given[--ref-render]:-}${given[--ref-mode]:-}" ] && [ "$renderer" != cpu ] &&
    [ -x "$repo/ref/render_ref" ]; then
    ref_render=$repo/ref/render_ref
  fi
  if [ -z "${given[--ref-scan]:-}${given[--ref-algorithm]:-}" ] && [ -x "$repo/ref/cudaScan_ref" ]; then
    ref_scan=$repo/ref/cudaScan_ref
  fi
}

main() {
  parse_args "$@"
  handout_references
  validate_args
  setup_paths
  prepare_programs
  local part
  for part in "${parts[@]}"; do grade_part "$part"; done
  write_results
  if [ -n "$gradescope" ]; then
    "$script_dir/gradescope.sh" --execution-time "$SECONDS" "$logs" "$gradescope" || exit_status=1
  fi
  exit "$exit_status"
}

main "$@"
