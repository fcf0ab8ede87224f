#!/usr/bin/env bash
# Grades the implementations as the course does: checks every result against
# our serial references, times it against a reference, prints score tables.
#
# Usage: scripts/grade.sh [saxpy|scan|find_repeats|render|all ...] [options]
#   Parts (default all): saxpy (timing table, not scored), scan and
#   find_repeats (1.25 points per size), render (9 points per scene).
# Options (--opt VALUE or --opt=VALUE):
#   --renderer cuda|cpu   renderer to grade (default cuda; cpu needs no GPU)
#   --scenes LIST         scenes, comma-separated (default
#                         rgb,rand10k,rand100k,pattern,snowsingle,biglittle,rand1M,micro2M)
#   --size N              image size (default 1024)
#   --counts LIST         scan element counts (default 1000000,10000000,20000000,40000000)
#   --saxpy-n N           saxpy elements (default: cudaSaxpy's own, 100M)
#   --runs N              timed runs per measurement, the best counts (default 3)
#   --seed auto|random|N  render check seed per scene: auto (default) reuses the
#                         seed of a cached serial image of this build, else draws
#                         one at random; random: always a new one; N: that seed
#   --ref-render PATH     reference renderer with render's command line (e.g.
#                         the course's render_ref); default: the serial renderer
#   --ref-renderer NAME   the -r value given to --ref-render (default cuda)
#   --ref-scan PATH       reference cudaScan (e.g. the course's cudaScan_ref);
#                         default: cudaScan's library path, else the serial one
#   --build-dir DIR       build there if programs are missing or stale (default
#                         build, preset "default"); programs in DIR/bin
#   --bin-dir DIR         use the programs in DIR as they are; build nothing
#   --no-build            never build
#   --logs DIR            folder for every log and the results (default
#                         grade-results/DATE-TIME)
#   --cache-dir DIR       serial reference cache (default BUILD_DIR/grade-cache)
#   --no-cache            always render the serial references afresh (the
#                         reference images into the log folder)
#   --timeout SEC         limit for one program run (default 900)
#   --quiet               no progress lines on stderr
#   --gradescope FILE     also write Gradescope's results.json to FILE (one test
#                         per graded row; scripts/gradescope.sh)
#   -h, --help            this text
# Results: tables on stdout; scores.csv, saxpy.csv and results.md in the log
# folder, named at the end. Exit status: 0 when every result is correct, 1
# when any is wrong or could not be graded (no GPU, program missing), 2 on
# usage errors. See docs/grading.md.
set -uo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$script_dir/.." && pwd)
# shellcheck source=scripts/grade_lib.sh
source "$script_dir/grade_lib.sh"

# ---------------------------------------------------------------- settings

parts=()
renderer=cuda
scenes=rgb,rand10k,rand100k,pattern,snowsingle,biglittle,rand1M,micro2M
size=1024
counts=1000000,10000000,20000000,40000000
saxpy_n=""
runs=3
seed_mode=auto
ref_render=""
ref_renderer=cuda
ref_scan=""
build_dir=$repo/build
bin_dir=""
build=1
logs=""
cache_dir=""
use_cache=1
timeout_s=900
quiet=0
gradescope=""  # --gradescope FILE

# Set while running.
exit_status=0
work_dir=""
declare -A program_state=()  # target -> ok or failed, so each is built once

# ---------------------------------------------------------------- messages

show_help() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }

usage_error() {
  echo "grade.sh: $1 (try --help)" >&2
  exit 2
}

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

# ---------------------------------------------------------------- arguments

# need_value OPTION ARGS...: a usage error when OPTION has no value after it.
need_value() { [ $# -ge 2 ] || usage_error "$1 needs a value"; }

parse_args() {
  while [ $# -gt 0 ]; do
    if [[ $1 == --*=* ]]; then set -- "${1%%=*}" "${1#*=}" "${@:2}"; fi
    case "$1" in
      saxpy | scan | find_repeats | render) parts+=("$1") ;;
      all) parts+=(saxpy scan find_repeats render) ;;
      --renderer) need_value "$@"; renderer=$2; shift ;;
      --scenes) need_value "$@"; scenes=$2; shift ;;
      --size) need_value "$@"; size=$2; shift ;;
      --counts) need_value "$@"; counts=$2; shift ;;
      --saxpy-n) need_value "$@"; saxpy_n=$2; shift ;;
      --runs) need_value "$@"; runs=$2; shift ;;
      --seed) need_value "$@"; seed_mode=$2; shift ;;
      --ref-render) need_value "$@"; ref_render=$2; shift ;;
      --ref-renderer) need_value "$@"; ref_renderer=$2; shift ;;
      --ref-scan) need_value "$@"; ref_scan=$2; shift ;;
      --build-dir) need_value "$@"; build_dir=$2; shift ;;
      --bin-dir) need_value "$@"; bin_dir=$2; shift ;;
      --no-build) build=0 ;;
      --logs) need_value "$@"; logs=$2; shift ;;
      --cache-dir) need_value "$@"; cache_dir=$2; shift ;;
      --no-cache) use_cache=0 ;;
      --timeout) need_value "$@"; timeout_s=$2; shift ;;
      --quiet) quiet=1 ;;
      --gradescope) need_value "$@"; gradescope=$2; [[ $2 == /* ]] || gradescope=$PWD/$2; shift ;;
      -h | --help | -\?) show_help; exit 0 ;;
      -*) usage_error "unknown option '$1'" ;;
      *) usage_error "unknown part '$1' (valid: saxpy, scan, find_repeats, render, all)" ;;
    esac
    shift
  done
  [ ${#parts[@]} -gt 0 ] || parts=(saxpy scan find_repeats render)
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

# executable_path OPTION PATH: PATH made absolute, or a usage error.
executable_path() {
  local path=$2
  [[ $path == */* ]] || path=$(command -v -- "$path" 2>/dev/null || echo "$path")
  if [ ! -f "$path" ] || [ ! -x "$path" ]; then usage_error "$1: '$2' is not an executable program"; fi
  echo "$(cd "$(dirname "$path")" && pwd)/$(basename "$path")"
}

# within N MIN MAX: whether N is a whole number from MIN to MAX.
within() { [[ $1 =~ ^[0-9]{1,12}$ ]] && [ "$1" -ge "$2" ] && [ "$1" -le "$3" ]; }

validate_args() {
  case "$renderer" in cuda | cpu) ;; *) usage_error "--renderer: '$renderer' is not cuda or cpu" ;; esac
  [[ $scenes =~ ^[A-Za-z0-9_.-]+(,[A-Za-z0-9_.-]+)*$ ]] || usage_error "--scenes: '$scenes' is not a comma-separated list of scene names"
  [[ $counts =~ ^[0-9]+(,[0-9]+)*$ ]] || usage_error "--counts: '$counts' is not a comma-separated list of counts"
  local n
  for n in ${counts//,/ }; do within "$n" 1 999999999999 || usage_error "--counts: $n is not a positive count"; done
  within "$size" 1 16384 || usage_error "--size: '$size' is not a size from 1 to 16384"
  within "$runs" 1 100 || usage_error "--runs: '$runs' is not a number from 1 to 100"
  within "$timeout_s" 1 999999 || usage_error "--timeout: '$timeout_s' is not a positive number of seconds"
  # cudaSaxpy's own limit (2^33 elements).
  [ -z "$saxpy_n" ] || within "$saxpy_n" 1 8589934592 || usage_error "--saxpy-n: '$saxpy_n' is not a count from 1 to 8589934592"
  case "$seed_mode" in
    auto | random) ;;
    *) within "$seed_mode" 0 2147483647 || usage_error "--seed: '$seed_mode' is not auto, random or a seed from 0 to 2147483647" ;;
  esac
  [[ $ref_renderer =~ ^[a-z]+$ ]] || usage_error "--ref-renderer: '$ref_renderer' is not a renderer name"
  [ -z "$ref_render" ] || ref_render=$(executable_path --ref-render "$ref_render") || exit 2
  [ -z "$ref_scan" ] || ref_scan=$(executable_path --ref-scan "$ref_scan") || exit 2
  unique_parts
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
  if [ -z "$logs" ]; then
    logs=$repo/grade-results/$(date +%Y%m%d-%H%M%S)
    [ ! -e "$logs" ] || logs=$logs-$$
  fi
  logs=$(make_folder "$logs") || exit 1
  # Made when first written to, so a run that caches nothing leaves no folder.
  cache_dir=${cache_dir:-$build_dir/grade-cache}
  [[ $cache_dir == /* ]] || cache_dir=$PWD/$cache_dir
  work_dir=$(make_folder "$logs/work") || exit 1
  : >"$logs/commands.txt"
  : >"$logs/results.md"
}

# ---------------------------------------------------------------- building

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
  (cd "$repo" && cmake --preset default -B "$build_dir") >"$logs/configure.log" 2>&1 && return 0
  warn "configuring failed (see $logs/configure.log): $(first_failure_line "$logs/configure.log")"
  return 1
}

# build_target TARGET: builds one program, its output in build-TARGET.log.
build_target() {
  local target=$1 log=$logs/build-$1.log
  configure_once || return 1
  progress "building $target"
  if ! cmake --build "$build_dir" --target "$target" -j "$(nproc 2>/dev/null || echo 2)" >"$log" 2>&1; then
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
# limit, all output in LOG; returns the program's exit status.
run_program() {
  local log=$1
  shift
  {
    printf '%s:' "${log#"$logs"/}"
    printf ' %q' "$@"
    printf '\n'
  } >>"$logs/commands.txt"
  (cd "$work_dir" && exec timeout "$timeout_s" "$@") >"$log" 2>&1 </dev/null
}

# timed_runs LABEL LOG_PREFIX PASS_RE PARSER PROGRAM ARGS...: runs the
# command --runs times, stopping at the first bad run. Sets RUN_VERDICT (ok,
# or the bad run's verdict), RUN_BEST (the best time printed, "-" if none)
# and RUN_LOG (the bad run's log, else the first).
timed_runs() {
  local label=$1 prefix=$2 pass=$3 parser=$4
  shift 4
  local i log status verdict time times=""
  RUN_VERDICT=ok RUN_BEST=- RUN_LOG=$prefix.run1.log
  for ((i = 1; i <= runs; i++)); do
    progress "$label: run $i/$runs"
    log=$prefix.run$i.log
    run_program "$log" "$@"
    status=$?
    verdict=$(classify_run "$status" "$log" "$pass")
    time=$("$parser" "$log")
    [ -z "$time" ] || times+="$time"$'\n'
    [ "$verdict" != ok ] || [ -n "$time" ] || verdict=unverified
    if [ "$verdict" != ok ]; then
      RUN_VERDICT=$verdict RUN_LOG=$log
      break
    fi
  done
  [ -z "$times" ] || RUN_BEST=$(printf '%s' "$times" | min_number)
}

# add_score_row PART ITEM SEED REFERENCE REF_MS YOUR_MS VERDICT SCORE MAX
add_score_row() {
  local speed
  speed=$(speedup "$5" "$6")
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" "$6" "$speed" "$7" "$8" "$9" >>"$logs/scores.tsv"
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
  printf '%s: not graded: %s\n\n' "$1" "$2" >>"$logs/results.md"
  [ -t 1 ] || printf '%s: not graded: %s\n\n' "$1" "$2"
  exit_status=1
}

# print_score_table PART TITLE ITEM_HEADER REF_HEADER YOUR_HEADER MAX_PER_ROW:
# the part's rows of scores.tsv in the course's layout (stdout) and in
# Markdown (results.md). Incorrect results get "(F)" after their time.
print_score_table() {
  local part=$1 title=$2 tsv
  tsv=$(
    printf '%s\t%s\t%s\tScore\tSpeedup\tReference\n' "$3" "$4" "$5"
    awk -F '\t' -v part="$part" '$1 == part {
      t = $6; if ($8 != "ok") t = t " (F)"
      print $2 "\t" $5 "\t" t "\t" $9 "\t" $7 "\t" $4 }' "$logs/scores.tsv"
    printf 'TOTAL\t%s\n' "$(awk -F '\t' -v part="$part" '$1 == part { print $9 }' "$logs/scores.tsv" | score_total "$6")"
  )
  printf '%s\n' "$tsv" | format_box_table "$title" 4 | paint
  echo
  printf '%s\n' "$tsv" | format_markdown_table "$title" 4 >>"$logs/results.md"
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
  } >>"$logs/results.md"
}

# ---------------------------------------------------------------- scan

declare -A scan_library_ok=([scan]=1 [find_repeats]=1)
ref_scan_ok=1

# scan_reference_time TEST N LABEL STUDENT_LOG: sets REF_MS and REF_NAME from
# the first reference that works: --ref-scan, the library path, the serial
# time cudaScan prints.
scan_reference_time() {
  local test=$1 n=$2 label=$3 student_log=$4 dir=$logs/$1
  if [ -n "$ref_scan" ] && [ "$ref_scan_ok" = 1 ]; then
    timed_runs "$label: reference" "$dir/$n.ref" "$GRADE_SCAN_PASS_RE" parse_scan_time \
      "$ref_scan" -m "$test" -i random -n "$n"
    REF_NAME=$(basename "$ref_scan")
    [ "$RUN_VERDICT" != ok ] || { REF_MS=$RUN_BEST; return; }
    report_bad_run "reference $REF_NAME ($test $n)" "$RUN_VERDICT" "$RUN_LOG"
    case "$RUN_VERDICT" in nogpu | usage) ref_scan_ok=0 ;; esac
  fi
  if [ "${scan_library_ok[$test]}" = 1 ]; then
    timed_runs "$label: library reference" "$dir/$n.library" "$GRADE_SCAN_PASS_RE" parse_scan_time \
      "$bin_dir/cudaScan" -m "$test" -i random -n "$n" -t
    REF_NAME="cudaScan -t (library)"
    [ "$RUN_VERDICT" != ok ] || { REF_MS=$RUN_BEST; return; }
    report_bad_run "library reference $REF_NAME ($test $n)" "$RUN_VERDICT" "$RUN_LOG"
    scan_library_ok[$test]=0
  fi
  REF_MS=$(parse_serial_scan_time "$student_log")
  REF_NAME="serial (cudaScan's check)"
  [ -n "$REF_MS" ] || { REF_MS=- REF_NAME="none available"; }
}

# grade_scan_count TEST N LABEL: one row of the scan or find_repeats table.
# Returns 1 when there is no GPU.
grade_scan_count() {
  local test=$1 n=$2 label=$3 verdict your_ms student_log
  timed_runs "$label" "$logs/$test/$n" "$GRADE_SCAN_PASS_RE" parse_scan_time \
    "$bin_dir/cudaScan" -m "$test" -i random -n "$n"
  verdict=$RUN_VERDICT your_ms=$RUN_BEST student_log=$RUN_LOG
  if [ "$verdict" = nogpu ]; then
    not_graded "$test" "cudaScan needs a GPU: $(first_failure_line "$student_log")"
    return 1
  fi
  [ "$verdict" = ok ] || report_bad_run "$test $n" "$verdict" "$student_log"
  scan_reference_time "$test" "$n" "$label" "$student_log"
  add_score_row "$test" "$n" - "$REF_NAME" "$REF_MS" "$your_ms" "$verdict" \
    "$(scan_score "$verdict" "$REF_MS" "$your_ms")" 1.25
}

grade_scan() {
  local test=$1 n i=0 total
  ensure_program cudaScan || { not_graded "$test" "cudaScan is not available"; return; }
  mkdir -p "$logs/$test"
  total=$(wc -w <<<"${counts//,/ }")
  for n in ${counts//,/ }; do
    i=$((i + 1))
    grade_scan_count "$test" "$n" "$test $n ($i/$total)" || return
  done
  print_score_table "$test" "Score table: $test (ms, best of $runs)" \
    "Element Count" "Ref Time" "Student Time" 1.25
}

# ---------------------------------------------------------------- render

render_program=""
render_hash=""
has_check_against=0
ref_render_ok=1
host=$(uname -n 2>/dev/null || echo host)

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

# reference_image SCENE SEED LABEL: prints the path of the serial reference
# image of frame 0 (exact floats), from the cache, else rendered now into the
# cache (with --no-cache, into the log folder); fails when render cannot
# write it.
reference_image() {
  local scene=$1 seed=$2 label=$3 dir=$cache_dir/render name written log=$logs/render/$1.reference-image.log
  name=$(reference_image_name "$scene" "$size" "$seed" "$render_hash" rgbaf)
  [ "$use_cache" = 1 ] || dir=$logs/render
  if [ "$use_cache" = 1 ] && [ -f "$dir/$name" ]; then
    progress "$label: serial reference image from the cache"
    echo "$dir/$name"
    return 0
  fi
  progress "$label: serial reference image, seed $seed"
  run_program "$log" "$render_program" -r cpuref -s "$size" -S "$seed" -b 0:1 \
    -f "$work_dir/reference-$scene" --format rgbaf "$scene" || return 1
  written=$(parse_written_file "$log")
  [[ $written == /* ]] || written=$work_dir/$written
  [ -f "$written" ] || return 1
  # Through a temporary name: the cache may be on another file system, and a
  # cut-short move must never leave half an image under the final name.
  mkdir -p "$dir" && mv -f "$written" "$dir/$name.$$" && mv -f "$dir/$name.$$" "$dir/$name" || return 1
  echo "$dir/$name"
}

# render_check SCENE SEED LABEL: sets CHECK_VERDICT and CHECK_LOG. Compares
# with the stored serial image when render can (--check-against), else (an
# older render, or the image could not be made) lets render's -c render the
# serial reference itself.
render_check() {
  local scene=$1 seed=$2 label=$3 image args
  args=(-r "$renderer" -s "$size" -S "$seed" -c)
  if [ "$has_check_against" = 1 ]; then
    if image=$(reference_image "$scene" "$seed" "$label"); then
      args+=(--check-against "$image")
    else
      warn "render $scene: no serial reference image (log: render/$scene.reference-image.log), checking with -c alone"
    fi
  fi
  CHECK_LOG=$logs/render/$scene.check.log
  progress "$label: check, seed $seed"
  run_program "$CHECK_LOG" "$render_program" "${args[@]}" -f '' "$scene"
  CHECK_VERDICT=$(classify_run $? "$CHECK_LOG" "$GRADE_RENDER_PASS_RE")
}

# serial_reference_time SCENE LABEL: sets REF_MS and REF_NAME from the serial
# renderer, its best time cached per scene, size, program and machine.
serial_reference_time() {
  local scene=$1 label=$2 cached
  cached=$cache_dir/render/$(serial_time_name "$scene" "$size" "$render_hash" "$host")
  if [ "$use_cache" = 1 ] && [ -s "$cached" ]; then
    REF_MS=$(cat "$cached") REF_NAME="render -r cpuref (serial, cached)"
    progress "$label: serial reference time from the cache"
    return
  fi
  timed_runs "$label: serial reference" "$logs/render/$scene.cpuref" '^Total:' parse_render_total \
    "$render_program" -r cpuref -s "$size" -b 0:4 -f '' "$scene"
  REF_NAME="render -r cpuref (serial)" REF_MS=$RUN_BEST
  if [ "$RUN_VERDICT" != ok ]; then
    report_bad_run "serial reference ($scene)" "$RUN_VERDICT" "$RUN_LOG"
    REF_MS=- REF_NAME="none (serial reference $(verdict_text "$RUN_VERDICT"))"
  elif [ "$use_cache" = 1 ]; then
    mkdir -p "$cache_dir/render" && echo "$REF_MS" >"$cached"
  fi
}

# render_reference_time SCENE LABEL: sets REF_MS and REF_NAME from
# --ref-render when it works, else from the serial renderer.
render_reference_time() {
  local scene=$1 label=$2
  if [ -n "$ref_render" ] && [ "$ref_render_ok" = 1 ]; then
    REF_NAME="$(basename "$ref_render") -r $ref_renderer"
    timed_runs "$label: reference $REF_NAME" "$logs/render/$scene.ref" '^Total:' parse_render_total \
      "$ref_render" -r "$ref_renderer" -s "$size" -b 0:4 -f '' "$scene"
    [ "$RUN_VERDICT" != ok ] || { REF_MS=$RUN_BEST; return; }
    report_bad_run "reference $REF_NAME ($scene), using the serial renderer instead" "$RUN_VERDICT" "$RUN_LOG"
    case "$RUN_VERDICT" in nogpu | usage) ref_render_ok=0 ;; esac
  fi
  serial_reference_time "$scene" "$label"
}

# choose_seed SCENE: the check's seed (see --seed). "auto" reuses a cached
# serial image's seed only where the check can use that image.
choose_seed() {
  case "$seed_mode" in
    random) random_seed ;;
    auto)
      if [ "$use_cache" = 0 ] || [ "$has_check_against" = 0 ] ||
        ! cached_seed "$cache_dir/render" "$1" "$size" "$render_hash" rgbaf; then
        random_seed
      fi
      ;;
    *) echo "$seed_mode" ;;
  esac
}

# grade_render_scene SCENE LABEL: one row of the render table. Returns 1
# when there is no GPU.
grade_render_scene() {
  local scene=$1 label=$2 seed verdict
  seed=$(choose_seed "$scene")
  render_check "$scene" "$seed" "$label"
  if [ "$CHECK_VERDICT" = nogpu ]; then
    not_graded render "the $renderer renderer needs a GPU: $(first_failure_line "$CHECK_LOG") (on a machine without one: --renderer cpu)"
    return 1
  fi
  if [ "$CHECK_VERDICT" != ok ]; then
    report_bad_run "render $scene, seed $seed" "$CHECK_VERDICT" "$CHECK_LOG"
    warn "replay: $render_program -r $renderer -s $size -S $seed -c $scene"
  fi
  render_reference_time "$scene" "$label"
  timed_runs "$label: $renderer renderer" "$logs/render/$scene.$renderer" '^Total:' parse_render_total \
    "$render_program" -r "$renderer" -s "$size" -b 0:4 -f '' "$scene"
  [ "$RUN_VERDICT" = ok ] || report_bad_run "render $scene (timing)" "$RUN_VERDICT" "$RUN_LOG"
  verdict=$CHECK_VERDICT
  [ "$verdict" != ok ] || verdict=$RUN_VERDICT
  add_score_row render "$scene" "$seed" "$REF_NAME" "$REF_MS" "$RUN_BEST" "$verdict" \
    "$(render_score "$verdict" "$REF_MS" "$RUN_BEST")" 9
}

grade_render() {
  local scene i=0 total seeds
  total=$(wc -w <<<"${scenes//,/ }")
  for scene in ${scenes//,/ }; do
    i=$((i + 1))
    grade_render_scene "$scene" "render $scene ($i/$total)" || return
  done
  print_score_table render "Score table: render ($renderer renderer, ${size}x$size, ms per frame, best of $runs)" \
    "Scene Name" "Ref Time (T_ref)" "Your Time (T)" 9
  seeds=$(awk -F '\t' '$1 == "render" { printf "%s%s %s", sep, $2, $3; sep = ", " }' "$logs/scores.tsv")
  echo "Check seeds (replay: render -r $renderer -s $size -S SEED -c SCENE): $seeds"
  echo
  printf 'Check seeds: %s\n\n' "$seeds" >>"$logs/results.md"
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
    cat "$logs/scores.tsv"
  } | tsv_to_csv >"$logs/scores.csv"
  rm -f "$logs/scores.tsv"
  rmdir "$work_dir" 2>/dev/null || true  # kept only when a program left files there
  echo "Logs and results (results.md, scores.csv$([ -f "$logs/saxpy.csv" ] && echo ", saxpy.csv")): $logs"
}

main() {
  parse_args "$@"
  # In a handout (scripts/make_handout.sh) the reference programs of ref/
  # are the default references.
  if [ -f "$repo/.handout" ]; then
    [ -n "$ref_render" ] || [ ! -x "$repo/ref/render_ref" ] || ref_render=$repo/ref/render_ref
    [ -n "$ref_scan" ] || [ ! -x "$repo/ref/cudaScan_ref" ] || ref_scan=$repo/ref/cudaScan_ref
  fi
  validate_args
  setup_paths
  : >"$logs/scores.tsv"
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
