#!/usr/bin/env bash
# Grades the implementations as the course does: checks every result against
# our serial references, times it against a named reference, prints score
# tables. Scan, find_repeats and render are graded by the trusted judge
# (judge/): the code under test runs in a sandboxed worker, and every timed
# call gets fresh inputs and is checked, so nothing it prints counts.
#
# Usage: scripts/grade.sh [saxpy|scan|find_repeats|render|all ...] [options]
#   Parts (default all): saxpy (timing table, not scored), scan and
#   find_repeats (points per size), render (points per scene): the course's
#   contract, judge/contract/course.json, gives the sizes, scenes, points
#   and score rules, and the judge scores every row by it.
# Options (--opt VALUE or --opt=VALUE):
#   --renderer cuda|cpu|student  renderer to grade (default cuda: our CUDA
#                         renderer, in a handout yours; cpu needs no GPU;
#                         student: your render/student/student_renderer.cu)
#   --cuda-mode MODE      the CUDA mode graded (default auto): circles pixels
#                         tiles classic tiled binned auto
#   --algorithm ALGO      the scan graded: student (default: your
#                         scan/student/student_scan.cu) or one of ours:
#                         kogge-stone blelloch single-pass cub
#   --ladder              grade every design rung against the same reference:
#                         render's CUDA modes circles pixels tiles classic
#                         tiled binned auto, our scan algorithms
#                         kogge-stone blelloch single-pass cub (needs a GPU)
#   --scenes LIST         scenes, comma-separated (default: the contract's)
#   --size N              image size (default: the contract's)
#   --counts LIST         scan element counts (default: the contract's)
#   --saxpy-n N           saxpy elements (default: the contract's)
#   --runs N              timed runs per measurement, the best counts
#                         (default: the contract's)
#   --seed auto|random|N  the judge's seed for every part's inputs (N up to
#                         4294967295: with the same secret, the same inputs
#                         every run; auto and random, the default: drawn
#                         afresh)
#   --secret-file FILE    the secret the judge mixes with the seed, kept
#                         where no submission can read it (default: made
#                         once in the cache folder); a regrade with the same
#                         seed and secret gives the same inputs
#   --ref-mode MODE       the render reference, timed by the judge like the
#                         graded renderer: course (the default, the course's
#                         design in the slot's shape: judge_render_reference)
#                         or our CUDA mode MODE
#   --ref-render-worker PATH  a judge render worker as the reference instead
#   --ref-render PATH     a program with render's command line as the render
#                         reference instead, its own printed time (e.g. the
#                         course's render_ref)
#   --ref-renderer NAME   the -r value given to --ref-render (default cuda)
#   --ref-algorithm ALGO  the scan reference, timed by the judge like the
#                         graded scan: course (default: the course's
#                         up-sweep/down-sweep design) or one of ours
#   --ref-worker PATH     a judge worker as the scan reference instead
#   --ref-scan PATH       a program with cudaScan's command line as the scan
#                         reference instead, its own printed time (e.g. the
#                         course's cudaScan_ref)
#                         The CPU renderer's reference is the serial
#                         renderer's time divided by this machine's cores
#                         (perfect scaling). A reference that cannot run
#                         stops its part (exit 1).
#   --build-dir DIR       build there if programs are missing or stale (default
#                         build, preset "default"); programs in DIR/bin
#   --bin-dir DIR         use the programs in DIR as they are; build nothing
#   --no-build            never build
#   --logs DIR            folder for every log and the results (default: a new
#                         grade-results/DATE-TIME-XXXXXX)
#   --cache-dir DIR       the serial renderer's times, kept per scene, size,
#                         build and machine (default BUILD_DIR/grade-cache)
#   --clean-cache         empty the cache first (alone: empty it and stop)
#   --no-cache            always time the serial renderer afresh
#   --timeout SEC         limit for one program run (default 900)
#   --time-limit SEC      the whole grade's time: the judge ends each row it
#                         has not finished by then (rejected, "time limit",
#                         0 points) and the rows done keep their points
#                         (default: none; grade_class.sh sets it)
#   --allow-every-gpu     grade where the judge cannot bind its GPU alone,
#                         so a worker would see every GPU (your own machine
#                         only; a class never does)
#   --unsandboxed         the judge runs workers without its sandbox (your
#                         own work only; every row says "unsandboxed")
#   --judge-memory device|host  where the judge's arrays live (default
#                         device; host: workers built on host code, as the
#                         tests' stand-ins are)
#   --worker-memory-limit MIB  the worker's host data limit (the judge's
#                         default 16384; 0: none, for workers built with
#                         AddressSanitizer)
#   --quiet               no progress lines on stderr
#   --maximum             print each part's most points for these options
#                         (part, tab, points; saxpy scores none) and stop:
#                         the class grader's maximum for every student
#   --gradescope FILE     also write Gradescope's results.json to FILE (one test
#                         per graded row; the judge writes it: judge results)
#   -h, --help            this text
# Results: tables on stdout; in the log folder, named at the end: results.md,
# scores.tsv and not_graded.tsv (the rows as carried), scores.csv and
# saxpy.csv, and results.json (Gradescope's format, written by the judge).
# Exit status: 0 when every result is correct, 1 when any is wrong or could
# not be graded (no GPU, no sandbox, a program missing, a reference that
# cannot run), 2 on usage errors, 130, 143 or 129 when stopped by SIGINT,
# SIGTERM or SIGHUP (then no results are written). See docs/grading.md.
set -uo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$script_dir/.." && pwd)
# shellcheck source=scripts/grade_lib.sh
source "$script_dir/grade_lib.sh"
# shellcheck source=scripts/options_lib.sh
source "$script_dir/options_lib.sh"
# shellcheck source=scripts/run_lib.sh
source "$script_dir/run_lib.sh"

# The grader's jobs, one file each (scripts/grade/); the order matters: the
# options first (the settings the others read), the runs next (their traps).
# shellcheck source=scripts/grade/options.sh
source "$script_dir/grade/options.sh"
# shellcheck source=scripts/grade/run.sh
source "$script_dir/grade/run.sh"
# shellcheck source=scripts/grade/build.sh
source "$script_dir/grade/build.sh"
# shellcheck source=scripts/grade/output.sh
source "$script_dir/grade/output.sh"
# shellcheck source=scripts/grade/saxpy.sh
source "$script_dir/grade/saxpy.sh"
# shellcheck source=scripts/grade/judge.sh
source "$script_dir/grade/judge.sh"
# shellcheck source=scripts/grade/scan.sh
source "$script_dir/grade/scan.sh"
# shellcheck source=scripts/grade/cache.sh
source "$script_dir/grade/cache.sh"
# shellcheck source=scripts/grade/render.sh
source "$script_dir/grade/render.sh"

# ---------------------------------------------------------------- main

# prepare_programs: builds what the parts need before anything runs, and
# checks render's scenes, so a usage error comes before any long run.
prepare_programs() {
  local part program
  for part in "${parts[@]}"; do
    for program in $(programs_of "$part"); do ensure_program "$program"; done
  done
  if [[ " ${parts[*]} " == *" render "* ]] && [ "${program_state[judge]:-}" = ok ]; then
    mkdir -p "$logs/render"
    render_preflight
  fi
}

grade_part() {
  case "$1" in
    saxpy) grade_saxpy ;;
    scan | find_repeats) grade_scan "$1" ;;
    render) grade_render ;;
  esac
}

main() {
  parse_args "$@"
  handout_references
  validate_args
  if [ "$print_maximum" = 1 ]; then
    print_maximum_points
    exit 0
  fi
  setup_paths
  prepare_programs
  local part
  for part in "${parts[@]}"; do grade_part "$part"; done
  write_results
  if [ -n "$gradescope" ]; then
    write_gradescope "$gradescope" || exit_status=1
  fi
  exit "$exit_status"
}

main "$@"
