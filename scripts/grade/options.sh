# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154  # the settings are options.sh's, shared by every part
# grade.sh's settings and options: their defaults, parsing, checks, and the log folder.
# Sourced by scripts/grade.sh, after grade_lib.sh, options_lib.sh and run_lib.sh.

# ---------------------------------------------------------------- settings

parts=()
renderer=cuda
cuda_mode=""
algorithm=""
ladder=0
# The graded scenes, size, counts, saxpy's count and the timed calls: the
# course's contract's (judge/contract/course.json) unless given
# (contract_defaults).
scenes=""
size=""
counts=""
saxpy_n=""
runs=""
seed_mode=auto
ref_mode=course
ref_render=""
ref_renderer=cuda
ref_algorithm=course
ref_scan=""
ref_worker=""
ref_render_worker=""
unsandboxed=0
judge_memory=device
worker_memory_limit=""  # --worker-memory-limit: the judge's --memory-limit
build_dir=$repo/build
bin_dir=""
build=1
logs=""
cache_dir=""
clean_cache=0
secret_file=""
print_maximum=0
use_cache=1
timeout_s=900
time_limit_s=""  # --time-limit: the whole grade's time
allow_every_gpu=0
quiet=0
gradescope=""  # --gradescope FILE
declare -A given=()  # the options given, for those that exclude each other

# The rungs of --ladder, from the course's first attempt to our fastest:
# none in a handout, which holds none of them (make_handout.sh cuts them).
render_rungs=()
scan_rungs=()
# suite-only
render_rungs=(circles pixels tiles classic tiled binned auto)
scan_rungs=(kogge-stone blelloch single-pass cub)
# /suite-only

# Set while running.
exit_status=0
work_dir=""
created_logs=""  # the log folder when this run created it
scores_tsv=""  # the rows so far; scores.tsv and scores.csv at the end
not_graded_tsv=""  # the parts not graded and why, so far
results_part=""  # results.md so far, renamed at the end
cores=$(nproc 2>/dev/null || echo 1)


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
      --ref-worker) need_value "$@"; ref_worker=$2; shift ;;
      --ref-render-worker) need_value "$@"; ref_render_worker=$2; shift ;;
      --unsandboxed) unsandboxed=1 ;;
      --judge-memory) need_value "$@"; judge_memory=$2; shift ;;
      --worker-memory-limit) need_number "$@"; worker_memory_limit=$2; shift ;;
      --build-dir) need_folder "$@"; build_dir=$2; shift ;;
      --bin-dir) need_folder "$@"; bin_dir=$2; shift ;;
      --no-build) build=0 ;;
      --logs) need_folder "$@"; logs=$2; shift ;;
      --cache-dir) need_folder "$@"; cache_dir=$2; shift ;;
      --clean-cache) clean_cache=1 ;;
      --maximum) print_maximum=1 ;;
      --secret-file) need_value "$@"; secret_file=$2; [[ $2 == /* ]] || secret_file=$PWD/$2; shift ;;
      --no-cache) use_cache=0 ;;
      --timeout) need_number "$@"; timeout_s=$2; shift ;;
      --time-limit) need_number "$@"; time_limit_s=$2; shift ;;
      --allow-every-gpu) allow_every_gpu=1 ;;
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

# one_of OPTION VALUE CHOICE...: a usage error unless VALUE is a CHOICE.
one_of() {
  local option=$1 value=$2 choice
  shift 2
  for choice in "$@"; do [ "$value" != "$choice" ] || return 0; done
  usage_error "$option: '$value' is not one of: $*"
}

# contract_defaults: what the options left unset, from the course's contract.
contract_defaults() {
  [ -n "$scenes" ] || scenes=$(contract_value '.scenes | join(",")')
  [ -n "$counts" ] || counts=$(contract_value '.counts | map(tostring) | join(",")')
  [ -n "$size" ] || size=$(contract_value .size)
  [ -n "$runs" ] || runs=$(contract_value .runs)
  [ -n "$saxpy_n" ] || saxpy_n=$(contract_value .saxpy_count)
}

validate_args() {
  # The contract is a JSON file.
  command -v jq >/dev/null || { warn "grade.sh reads the course's contract with jq, which is not installed (scripts/setup.sh installs it)"; exit 1; }
  contract_defaults
  case "$renderer" in cuda | cpu | student) ;; *) usage_error "--renderer: '$renderer' is not cuda, cpu or student" ;; esac
  [[ $scenes =~ ^[A-Za-z0-9_.-]+(,[A-Za-z0-9_.-]+)*$ ]] || usage_error "--scenes: '$scenes' is not a comma-separated list of scene names"
  [[ $counts =~ ^[0-9]+(,[0-9]+)*$ ]] || usage_error "--counts: '$counts' is not a comma-separated list of counts"
  local n
  for n in ${counts//,/ }; do within "$n" 1 999999999999 || usage_error "--counts: $n is not a positive count"; done
  within "$size" 1 16384 || usage_error "--size: '$size' is not a size from 1 to 16384"
  within "$runs" 1 100 || usage_error "--runs: '$runs' is not a number from 1 to 100"
  within "$timeout_s" 1 999999 || usage_error "--timeout: '$timeout_s' is not a positive number of seconds"
  [ -z "$time_limit_s" ] || within "$time_limit_s" 1 9999999 ||
    usage_error "--time-limit: '$time_limit_s' is not a positive number of seconds"
  # The judge's limit for --counts (2^31 - 1 elements).
  [ -z "$saxpy_n" ] || within "$saxpy_n" 1 2147483647 || usage_error "--saxpy-n: '$saxpy_n' is not a count from 1 to 2147483647"
  # render -S takes an unsigned 32-bit seed.
  case "$seed_mode" in
    auto | random) ;;
    *) within "$seed_mode" 0 4294967295 || usage_error "--seed: '$seed_mode' is not auto, random or a seed from 0 to 4294967295" ;;
  esac
  [[ $ref_renderer =~ ^[a-z]+$ ]] || usage_error "--ref-renderer: '$ref_renderer' is not a renderer name"
  # A handout first says that it holds none of the suite's rungs, which
  # the checks after it would not name there.
  if [ -f "$repo/.handout" ]; then
    [ -z "$algorithm" ] || [ "$algorithm" = student ] ||
      usage_error "--algorithm $algorithm: the suite's algorithms are not in a handout (only student)"
    [ "$ref_algorithm" = course ] ||
      usage_error "--ref-algorithm $ref_algorithm: the suite's algorithms are not in a handout (only course)"
    [ "$ladder" = 0 ] || usage_error "--ladder: the suite's rungs are not in a handout"
    [ -z "${given[--ref-mode]:-}" ] || usage_error "--ref-mode: the suite's CUDA modes are not in a handout"
    [ -z "$cuda_mode" ] || usage_error "--cuda-mode: the suite's CUDA modes are not in a handout (your renderer is graded)"
    [ "$renderer" != cpu ] || usage_error "--renderer cpu: the parallel CPU renderer is not in a handout"
  fi
  one_of --ref-mode "$ref_mode" course "${render_rungs[@]}"
  one_of --ref-algorithm "$ref_algorithm" course "${scan_rungs[@]}"
  [ -z "$algorithm" ] || one_of --algorithm "$algorithm" student "${scan_rungs[@]}"
  one_of --judge-memory "$judge_memory" device host
  [ -z "$worker_memory_limit" ] || [ "$worker_memory_limit" = 0 ] || within "$worker_memory_limit" 64 16777216 ||
    usage_error "--worker-memory-limit: '$worker_memory_limit' is not 0 (none) or a size from 64 to 16777216 MiB"
  [ -z "$cuda_mode" ] || one_of --cuda-mode "$cuda_mode" "${render_rungs[@]}"
  if [ "$renderer" != cuda ] && [ -n "$cuda_mode" ]; then usage_error "--cuda-mode is for --renderer cuda"; fi
  # A reference option that another one overrides would be ignored unsaid.
  [ "$(( ${given[--ref-mode]:-0} + ${given[--ref-render]:-0} + ${given[--ref-render-worker]:-0} ))" -le 1 ] ||
    usage_error "--ref-mode, --ref-render and --ref-render-worker each name the render reference: give one"
  [ "$(( ${given[--ref-algorithm]:-0} + ${given[--ref-scan]:-0} + ${given[--ref-worker]:-0} ))" -le 1 ] ||
    usage_error "--ref-algorithm, --ref-scan and --ref-worker each name the scan reference: give one"
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
  [ -z "$ref_worker" ] || ref_worker=$(absolute_program "$ref_worker")
  [ -z "$ref_render_worker" ] || ref_render_worker=$(absolute_program "$ref_render_worker")
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
  judge_secret
  scores_tsv=$logs/.scores.tsv
  not_graded_tsv=$logs/.not_graded.tsv
  results_part=$logs/.results.md
  : >"$logs/commands.txt"
  : >"$results_part"
  : >"$scores_tsv"
  : >"$not_graded_tsv"
}

# judge_secret: the secret the judge draws the inputs from, with the seed:
# --secret-file's, else one kept in the cache folder (made once, readable by
# the grader alone; the sandbox's view never shows it).
# A cache that cannot keep one gets one for this run alone, in the logs.
judge_secret() {
  if [ -n "$secret_file" ]; then
    if [ ! -r "$secret_file" ] || [ "$(wc -c <"$secret_file")" -lt 16 ]; then
      usage_error "--secret-file: '$secret_file' is not a readable file of at least 16 bytes"
    fi
    return
  fi
  secret_file=$cache_dir/judge-secret
  [ ! -s "$secret_file" ] || return 0
  new_secret "$secret_file" 2>/dev/null && return
  secret_file=$work_dir/judge-secret
  new_secret "$secret_file" || { echo "grade.sh: cannot make the judge's secret in $work_dir" >&2; exit 1; }
}

# new_secret FILE: 32 random bytes, readable by the grader alone.
new_secret() {
  mkdir -p -- "$(dirname -- "$1")" && (umask 077 && head -c 32 /dev/urandom >"$1.$$") &&
    mv -f -- "$1.$$" "$1"
}

# handout_references: in a handout (scripts/make_handout.sh) the reference
# programs of ref/ are the default references (the scan's is the judge's
# reference worker, built there), but only where the user named no
# reference (--ref-mode names one too), and never for the CPU renderer,
# whose reference is the serial time over the cores.
handout_references() {
  [ -f "$repo/.handout" ] || return 0
  if [ -z "${given[--ref-render]:-}${given[--ref-mode]:-}${given[--ref-render-worker]:-}" ] && [ "$renderer" != cpu ] &&
    [ -x "$repo/ref/.bin/judge_render_reference" ]; then
    ref_render_worker=$repo/ref/.bin/judge_render_reference
  fi
  if [ -z "${given[--ref-scan]:-}${given[--ref-worker]:-}" ] && [ -x "$repo/ref/.bin/judge_scan_reference" ]; then
    ref_worker=$repo/ref/.bin/judge_scan_reference
  fi
}

