#!/usr/bin/env bash
# Profiles every rung of the renderer's design ladder (and, with --scan and
# --saxpy, cudaScan's algorithms and cudaSaxpy) with Nsight Compute, so each
# step's speed-up can be explained by counters: per rung and scene, the
# kernels' time, instructions executed, warp execution efficiency, branch
# uniformity, achieved occupancy, DRAM bytes and throughput, shared-memory
# wavefronts and the three reasons warps stalled most.
#
# Usage: scripts/profile.sh [options]
#        scripts/profile.sh --plot CSV [PNG]
# Options (--opt VALUE or --opt=VALUE):
#   --scenes LIST    scenes, comma-separated (default rgb,rand10k,rand100k,pattern,biglittle)
#   --rungs LIST     the renderers, comma-separated: student (render -r
#                    student: your renderer) and reference (ref/render_ref
#                    -r cuda, in a handout), the default in a handout
#                    (elsewhere render --cuda-mode values too, by default # suite-only
#                    circles,pixels,tiles,classic,tiled,binned,auto) # suite-only
#   --size N         image size (default 1024); one frame each (-b 0:1)
#   --scan           also cudaScan, scan and find_repeats: in a handout
#                    your scan (-a student) and ref/cudaScan_ref
#                    (elsewhere -a ALGO for kogge-stone, blelloch, # suite-only
#                    single-pass, cub) # suite-only
#   --counts LIST    scan element counts (default 1000000,40000000)
#   --saxpy          also cudaSaxpy -v course and -v tuned; in a handout
#                    your kernel (-v student)
#   --saxpy-count N  saxpy's element count (default 100000000)
#   --bin-dir DIR    where render and cudaScan are (default build/bin)
#   --out DIR        folder for profile.csv, ladder.png and the logs
#                    (default: a new profile-results/DATE-TIME-XXXXXX)
#   --timeout SEC    limit for one profiled run (default 1800)
#   --plot CSV [PNG] only draw the time per rung per scene of a CSV this
#                    script wrote, with gnuplot (PNG default: beside the CSV)
#   -h, --help       this text
# Environment: NCU, GNUPLOT name the programs (default ncu, gnuplot).
# Every kernel a run launches counts: times, instructions, bytes and
# wavefronts are sums; the percentages are averages weighted by kernel time.
# A render run's kernels are setup's (the animation kernel loaded, a warm-up
# clear and render; auto's timed trials) and the timed frame's, so a fixed
# rung's sums hold two renders. time_ms is in milliseconds. A percentage
# no kernel reported (no kernel ran a branch, for the uniform one) is left
# empty in the CSV and shown as n/a. top_stalls names the three stall
# reasons with the largest share of the warps' active cycles (ncu's
# smsp__warp_issue_stalled_REASON_per_warp_active.pct, weighted by time),
# "REASON PCT" separated by ";".
# Exit status: 0 when every run was profiled, 1 when ncu or gnuplot is
# missing or cannot read the counters (it says what to do) or a run
# failed, 2 on usage errors, 130, 143 or 129 by SIGINT, SIGTERM or SIGHUP.
# See docs/grading.md.
set -uo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$script_dir/.." && pwd)
# shellcheck source=scripts/options_lib.sh
source "$script_dir/options_lib.sh"
# shellcheck source=scripts/run_lib.sh
source "$script_dir/run_lib.sh"

scenes=rgb,rand10k,rand100k,pattern,biglittle
size=1024
scan=0
counts=1000000,40000000
saxpy=0
saxpy_count=100000000
bin_dir=$repo/build/bin
out=""
timeout_s=1800
ncu=${NCU:-ncu}
gnuplot=${GNUPLOT:-gnuplot}
status=0
# A handout (scripts/make_handout.sh) holds the student's code and the
# reference programs, not our rungs.
handout=0
[ -f "$repo/.handout" ] && handout=1
rungs=student,reference
scan_rungs=(student reference)
saxpy_rungs=(student)
# suite-only
if [ "$handout" = 0 ]; then
  rungs=circles,pixels,tiles,classic,tiled,binned,auto
  scan_rungs=(kogge-stone blelloch single-pass cub)
  saxpy_rungs=(course tuned)
fi
# /suite-only

# The counters, in the order of the CSV's columns.
metrics=(
  gpu__time_duration.sum
  smsp__inst_executed.sum
  smsp__thread_inst_executed_per_inst_executed.ratio
  smsp__sass_average_branch_targets_threads_uniform.pct
  sm__warps_active.avg.pct_of_peak_sustained_active
  dram__bytes.sum
  dram__throughput.avg.pct_of_peak_sustained_elapsed
  l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
)
# Every stall reason this GPU's ncu has, by pattern: the set differs
# between architectures, and one unknown name would fail the whole run.
stall_metrics='regex:smsp__warp_issue_stalled_.*_per_warp_active\.pct'
csv_header=part,item,rung,kernels,time_ms,inst_executed,warp_efficiency_pct,branch_uniform_pct,occupancy_pct,dram_bytes,dram_throughput_pct,shared_wavefronts,top_stalls

fatal() { echo "profile.sh: $1" >&2; exit 1; }

# This run's temporary files, removed however it ends. Ctrl-C and SIGTERM
# stop the profiled run at once (run_lib.sh) and exit 130 and 143.
temps=()
# shellcheck disable=SC2317  # run by the traps
remove_temps() { [ ${#temps[@]} -eq 0 ] || rm -f -- "${temps[@]}"; }
trap remove_temps EXIT
stop_tidy=remove_temps
stop_on_signals

# plot CSV PNG: time per rung (x) per scene (one bar each), log scale.
plot() {
  local csv=$1 png=$2 data
  command -v "$gnuplot" >/dev/null ||
    fatal "gnuplot is not installed (or GNUPLOT names no program): install it (e.g. the gnuplot package) to draw $png; the numbers are in $csv"
  [ -f "$csv" ] || fatal "--plot: no such file $csv"
  data=$(mktemp) || fatal "no temporary file"
  temps+=("$data" "$data.err")
  # One line per rung in the CSV's order, one column per scene; "-" where missing.
  awk -F, 'NR > 1 && $1 == "render" {
      if (!($3 in r)) { r[$3] = 1; rung[++nr] = $3 }
      if (!($2 in s)) { s[$2] = 1; scene[++ns] = $2 }
      t[$3, $2] = $5 }
    END {
      if (nr == 0) exit 1
      printf "rung"; for (j = 1; j <= ns; j++) printf " %s", scene[j]; print ""
      for (i = 1; i <= nr; i++) {
        printf "%s", rung[i]
        for (j = 1; j <= ns; j++) printf " %s", ((rung[i], scene[j]) in t && t[rung[i], scene[j]] != "") ? t[rung[i], scene[j]] : "-"
        print ""
      }
    }' "$csv" >"$data" || { rm -f "$data"; fatal "--plot: $csv has no render rows"; }
  if ! "$gnuplot" -e "datafile='$data'; outfile='$png'; columns=$(head -n 1 "$data" | wc -w)" \
    "$script_dir/plot_ladder.gp" 2>"$data.err"; then
    cat "$data.err" >&2
    rm -f "$data" "$data.err"
    fatal "gnuplot could not draw $png"
  fi
  rm -f "$data" "$data.err"
  echo "Chart: $png"
}

# summarize LOG: one CSV tail (kernels,time_ms,...) from ncu's CSV output in
# LOG; fails when LOG holds no metric rows.
summarize() {
  awk -v names="${metrics[*]}" -v logfile="$1" '
    function field(line, out,   n, i, c, q, f) {
      # Splits one CSV line with quoted fields into out[1..n].
      n = 0; f = ""; q = 0
      for (i = 1; i <= length(line); i++) {
        c = substr(line, i, 1)
        if (c == "\"") { q = !q; continue }
        if (c == "," && !q) { out[++n] = f; f = ""; continue }
        f = f c
      }
      out[++n] = f
      return n
    }
    function scale(unit) {  # to ms for times, to bytes for sizes, else 1
      # ncu 2025 writes "ns" with --print-units base; older ones "nsecond".
      if (unit == "ns" || unit == "nsecond") return 1e-6
      if (unit == "us" || unit == "usecond") return 1e-3
      if (unit == "ms" || unit == "msecond") return 1
      if (unit == "s" || unit == "second") return 1e3
      if (unit == "Kbyte") return 1e3; if (unit == "Mbyte") return 1e6
      if (unit == "Gbyte") return 1e9; if (unit == "Tbyte") return 1e12
      return 1
    }
    BEGIN { nm = split(names, metric, " ") }
    /^"ID","Process ID"/ {
      n = field($0, h)
      for (i = 1; i <= n; i++) col[h[i]] = i
      next
    }
    /^"/ && ("Metric Name" in col) {
      field($0, f)
      id = f[col["ID"]]; name = f[col["Metric Name"]]; v = f[col["Metric Value"]]
      gsub(/,/, "", v)  # thousands separators
      if (v !~ /^[-+0-9.eE]+$/) next
      unit = f[col["Metric Unit"]]
      # Every time must be in a unit scale() knows: a wrong unit would go
      # into time_ms unnoticed.
      if (name == metric[1] && scale(unit) == 1 && unit != "ms" && unit != "msecond") {
        print "profile.sh: unknown time unit \"" unit "\" in " logfile > "/dev/stderr"; bad = 1; exit 1
      }
      if (name ~ /^smsp__warp_issue_stalled_.*_per_warp_active\.pct$/) {
        reason = substr(name, 26, length(name) - 25 - 20)
        # "selected" is the cycles a warp issued: not a stall.
        if (reason != "selected") {
          stall[id, reason] = v
          if (!(reason in known)) { known[reason] = 1; reasons[++nr] = reason }
        }
      } else value[id, name] = v * scale(unit)
      if (!(id in seen)) { seen[id] = 1; ids[++k] = id }
    }
    END {
      if (bad || k == 0) exit 1
      for (j = 1; j <= k; j++) {
        id = ids[j]; t = value[id, metric[1]]
        time += t
        for (m = 2; m <= nm; m++) {
          if (!((id, metric[m]) in value)) continue
          x = value[id, metric[m]]
          # ncu gives 0% uniform branch targets for a kernel that ran no
          # branch at all (0 of 0): no value, not a fully divergent kernel.
          if (metric[m] ~ /branch_targets_threads_uniform/ && x == 0) continue
          if (metric[m] ~ /(ratio|pct)/) { wsum[m] += x * t; wt[m] += t } else sum[m] += x
        }
        for (r = 1; r <= nr; r++)
          if ((id, reasons[r]) in stall) { ssum[r] += stall[id, reasons[r]] * t; swt[r] += t }
      }
      printf "%d,%.4f", k, time
      for (m = 2; m <= nm; m++) {
        if (metric[m] ~ /(ratio|pct)/) {
          if (wt[m] == 0) { printf ","; continue }  # no kernel gave a value: empty, "n/a"
          x = wsum[m] / wt[m]
          if (metric[m] ~ /ratio/) x = 100 * x / 32  # threads per warp instruction, as a percentage
          printf ",%.1f", x
        } else printf ",%.0f", sum[m]
      }
      # The three largest stall shares, largest first.
      for (r = 1; r <= nr; r++) share[r] = swt[r] > 0 ? ssum[r] / swt[r] : -1
      top = ""
      for (n = 0; n < 3; n++) {
        best = 0
        for (r = 1; r <= nr; r++) if (share[r] >= 0 && (best == 0 || share[r] > share[best])) best = r
        if (best == 0) break
        top = top (top == "" ? "" : ";") sprintf("%s %.1f", reasons[best], share[best])
        share[best] = -1
      }
      print "," top
    }' "$1"
}

# profile PART ITEM RUNG LOG PROGRAM ARGS...: one profiled run, a CSV row.
profile() {
  local part=$1 item=$2 rung=$3 log=$4 row metric_list
  shift 4
  metric_list=$(IFS=,; echo "${metrics[*]},$stall_metrics")
  echo "[$SECONDS s] $part $item: $rung" >&2
  run_program_in . "$timeout_s" "$ncu" --clock-control none --csv --print-units base --metrics "$metric_list" "$@" \
    >"$log" 2>&1 </dev/null
  local run_status=$?
  if grep -q 'ERR_NVGPUCTRPERM' "$log"; then
    fatal "ncu may not read the GPU's performance counters here (ERR_NVGPUCTRPERM, see $log): run it as root (sudo -E scripts/profile.sh ...), or let every user read them: add 'options nvidia NVreg_RestrictProfilingToAdminUsers=0' to a file in /etc/modprobe.d and reload the driver or reboot"
  fi
  if ! row=$(summarize "$log"); then
    echo "profile.sh: $part $item $rung: no counters (status $run_status): $(grep -E -m 1 'ERROR|[Ee]rror|No kernels' "$log" || tail -n 1 "$log") (log: $log)" >&2
    status=1
    return
  fi
  [ "$run_status" = 0 ] || { echo "profile.sh: $part $item $rung: the run exited with $run_status (log: $log)" >&2; status=1; }
  echo "$part,$item,$rung,$row" >>"$out/profile.csv"
}

# render_command RUNG: sets `command` to the start of one render run's
# command line (the program and the renderer it draws with).
render_command() {
  case "$1" in
    student) command=("$bin_dir/render" -r student) ;;
    reference) command=("$repo/ref/render_ref" -r cuda) ;;
    *) command=("$bin_dir/render" -r cuda --cuda-mode "$1") ;;
  esac
}

# scan_command RUNG: the same for cudaScan.
scan_command() {
  case "$1" in
    reference) command=("$repo/ref/cudaScan_ref") ;;
    *) command=("$bin_dir/cudaScan" -a "$1") ;;
  esac
}

# saxpy_command RUNG: the same for cudaSaxpy.
saxpy_command() { command=("$bin_dir/cudaSaxpy" -v "$1" -r 1); }

# explain: which way each column is better and what usually makes a gap
# between two rows (hints: what to look at, not what to write).
explain() {
  cat <<'TEXT'
Reading the table (compare your row with the reference's on the same scene):
  time ms       lower is better: the kernels' time, summed.
  instructions  fewer is better; far more than the reference usually means
                work repeated per thread (each thread testing every circle,
                say) that could be done once and shared.
  warp eff      higher is better (100%: every thread of each warp active);
                low means threads of a warp take different paths or do
                unequal amounts of work.
  uniform       higher is better: the share of branches every thread of the
                warp took the same way.
  occupancy     higher usually hides memory latency better; low means each
                block asks for many registers or much shared memory, or
                there are too few blocks to fill the GPU.
  DRAM MB       less is better; far more than the reference usually means
                the same data read from device memory again and again
                instead of once into shared memory.
  DRAM %        near 100%: bound by memory bandwidth; low with a long time:
                waiting on something else (dependent loads, barriers, too
                little parallel work).
  shared wavef  shared-memory traffic; far more than the data needs points
                to bank conflicts.
  top stalls    what the warps waited on most, as a share of their cycles:
    long_scoreboard   a load from device memory (or from local memory:
                      spilled registers) whose latency nothing hid
    barrier           __syncthreads(), with the block's threads finishing
                      their work at different times
    mio_throttle, short_scoreboard   shared memory or atomics busy: bank
                      conflicts, or much shared-memory traffic
    lg_throttle       many small global loads or stores: fewer, wider ones
    membar            memory fences (atomics with ordering, __threadfence)
    wait, math_pipe_throttle   arithmetic: fine when the time is low
    not_selected      another warp was ready: more work than issue slots
                      (a good sign)
    branch_resolving, no_instruction   branches; a large kernel's jumps
For the lines behind a number, open the log's report in Nsight Compute
(device code builds with -lineinfo: ncu --set full shows the source view).
TEXT
}

# print_tables CSV: the CSV as one table per part and item.
print_tables() {
  awk -F, 'function pct(x) { return x == "" ? "n/a" : sprintf("%.1f%%", x) }
    NR > 1 {
      key = $1 " " $2
      if (key != last) {
        if (last != "") print ""
        print key ":"
        printf "%-12s %7s %10s %12s %8s %8s %9s %11s %7s %12s  %s\n", "rung", "kernels", "time ms", "instructions", "warp eff", "uniform", "occupancy", "DRAM MB", "DRAM %", "shared wavef", "top stalls"
        last = key
      }
      stalls = $13; gsub(/;/, ", ", stalls); gsub(/ [0-9.]+/, "&%", stalls)
      printf "%-12s %7d %10.4f %12.4g %8s %8s %9s %11.2f %7s %12.4g  %s\n", $3, $4, $5, $6, pct($7), pct($8), pct($9), $10 / 1e6, pct($11), $12, stalls == "" ? "n/a" : stalls
    }' "$1"
}

main() {
  local plot_csv="" plot_png=""
  while [ $# -gt 0 ]; do
    if [[ $1 == --*=* ]]; then set -- "${1%%=*}" "${1#*=}" "${@:2}"; fi
    case "$1" in
      --scenes) need_value "$@"; scenes=$2; shift ;;
      --rungs) need_value "$@"; rungs=$2; shift ;;
      --size) need_value "$@"; size=$2; shift ;;
      --scan) scan=1 ;;
      --counts) need_value "$@"; counts=$2; shift ;;
      --saxpy) saxpy=1 ;;
      --saxpy-count) need_value "$@"; saxpy_count=$2; shift ;;
      --bin-dir) need_value "$@"; bin_dir=$2; shift ;;
      --out) need_value "$@"; out=$2; shift ;;
      --timeout) need_value "$@"; timeout_s=$2; shift ;;
      --plot)
        need_value "$@"; plot_csv=$2; shift
        if [ $# -ge 2 ] && [[ $2 != -* ]]; then plot_png=$2; shift; fi ;;
      -h | --help) show_help; exit 0 ;;
      *) usage_error "unknown argument '$1'" ;;
    esac
    shift
  done
  if [ -n "$plot_csv" ]; then
    plot "$plot_csv" "${plot_png:-${plot_csv%.csv}.png}"
    exit
  fi
  [[ $scenes =~ ^[A-Za-z0-9_.-]+(,[A-Za-z0-9_.-]+)*$ ]] || usage_error "--scenes: '$scenes' is not a comma-separated list"
  [[ $rungs =~ ^[a-z-]+(,[a-z-]+)*$ ]] || usage_error "--rungs: '$rungs' is not a comma-separated list"
  if [ "$handout" = 1 ]; then
    local r
    for r in ${rungs//,/ }; do
      [ "$r" = student ] || [ "$r" = reference ] ||
        usage_error "--rungs: '$r' is one of the suite's renderers, which a handout does not hold (student, reference)"
    done
  fi
  [[ $counts =~ ^[0-9]+(,[0-9]+)*$ ]] || usage_error "--counts: '$counts' is not a comma-separated list of counts"
  # cudaSaxpy's own limit (its -n).
  if ! [[ $saxpy_count =~ ^[1-9][0-9]{0,9}$ ]] || [ "$saxpy_count" -gt 8589934592 ]; then
    usage_error "--saxpy-count: '$saxpy_count' is not a count from 1 to 8589934592"
  fi
  if ! [[ $size =~ ^[0-9]{1,5}$ ]] || [ "$size" -lt 1 ] || [ "$size" -gt 16384 ]; then
    usage_error "--size: '$size' is not a size from 1 to 16384"
  fi
  if ! [[ $timeout_s =~ ^[0-9]{1,6}$ ]] || [ "$timeout_s" -lt 1 ]; then
    usage_error "--timeout: '$timeout_s' is not a number of seconds"
  fi
  command -v "$ncu" >/dev/null ||
    fatal "ncu (Nsight Compute) is not installed or not on PATH: it comes with the CUDA Toolkit (e.g. /usr/local/cuda/bin/ncu: add that folder to PATH) or as NVIDIA's nsight-compute package"
  [ -x "$bin_dir/render" ] || fatal "$bin_dir/render is missing: build it (cmake --build --preset default) or give --bin-dir"
  if [[ ,$rungs, == *,reference,* ]] || { [ "$scan" = 1 ] && [ "$handout" = 1 ]; }; then
    [ -x "$repo/ref/render_ref" ] ||
      fatal "the reference programs are missing (ref/render_ref): the handout holds them when make_handout.sh built them, or leave out the reference rung"
  fi
  [ "$scan" = 0 ] || [ -x "$bin_dir/cudaScan" ] || fatal "$bin_dir/cudaScan is missing: build it or leave out --scan"
  [ "$saxpy" = 0 ] || [ -x "$bin_dir/cudaSaxpy" ] || fatal "$bin_dir/cudaSaxpy is missing: build it or leave out --saxpy"
  if [ -z "$out" ]; then
    if ! mkdir -p "$repo/profile-results" ||
      ! out=$(mktemp -d "$repo/profile-results/$(date +%Y%m%d-%H%M%S)-XXXXXX"); then
      fatal "cannot create a folder in $repo/profile-results (give one with --out)"
    fi
  fi
  mkdir -p "$out/logs" || fatal "cannot create $out"
  stop_note=": the results so far are in $out"
  echo "$csv_header" >"$out/profile.csv"
  local scene rung test n
  local -a command
  for scene in ${scenes//,/ }; do
    for rung in ${rungs//,/ }; do
      render_command "$rung"
      profile render "$scene" "$rung" "$out/logs/render-$scene-$rung.log" \
        "${command[@]}" -s "$size" -b 0:1 -f '' "$scene"
    done
  done
  if [ "$scan" = 1 ]; then
    for test in scan find_repeats; do
      for n in ${counts//,/ }; do
        for rung in "${scan_rungs[@]}"; do
          scan_command "$rung"
          profile "$test" "$n" "$rung" "$out/logs/$test-$n-$rung.log" \
            "${command[@]}" -m "$test" -i random -n "$n"
        done
      done
    done
  fi
  if [ "$saxpy" = 1 ]; then
    for rung in "${saxpy_rungs[@]}"; do
      saxpy_command "$rung"
      profile saxpy "$saxpy_count" "$rung" "$out/logs/saxpy-$saxpy_count-$rung.log" "${command[@]}" -n "$saxpy_count"
    done
  fi
  print_tables "$out/profile.csv"
  echo
  explain
  echo
  echo "CSV: $out/profile.csv"
  if command -v "$gnuplot" >/dev/null; then
    plot "$out/profile.csv" "$out/ladder.png"
  else
    echo "profile.sh: gnuplot is not installed: no chart (install gnuplot, then: scripts/profile.sh --plot $out/profile.csv)" >&2
  fi
  exit "$status"
}

main "$@"
