#!/usr/bin/env bash
# On a GPU machine: builds the judge and its workers for this GPU (preset
# gpu), runs the judge's exploit suite (host memory, as CI does), then the GPU
# workers on device memory: the judge's reference (the course-style scan) as
# the honest control, our rungs, a worker whose kernel runs after it
# answered, one that keeps a kernel resident between calls, one that
# keeps the copy engines busy, one whose static object takes the GPU's
# memory (beside the reference: the graded rejected, the reference graded),
# and a GPU hang followed by the reference again; the render judge
# on our classic and auto modes, on a worker whose setup leaves a kernel
# running, and on the unfilled slot; then grade.sh
# --ladder through the judge for the scan and the renderer (the rungs'
# scores against the references; circles fails on purpose). Prints what the judge said; logs in the named folder.
#
# Usage: scripts/dev/gpu_judge.sh [--logs DIR] [--counts LIST]
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
logs=gpu-judge-logs
counts=1000000,10000000,20000000,40000000
while [ $# -gt 0 ]; do
  case $1 in
    --logs) logs=${2:?--logs needs a value}; shift 2 ;;
    --counts) counts=${2:?--counts needs a value}; shift 2 ;;
    -h | --help) sed -n '2,12s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) echo "gpu_judge.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
  esac
done
mkdir -p "$logs" || { echo "gpu_judge.sh: cannot create $logs" >&2; exit 1; }
logs=$(cd "$logs" && pwd)
failed=0
step() { echo "== $*"; }

step "build (preset gpu)"
if ! { cmake --preset gpu && cmake --build --preset gpu --target judge judge_workers judge_scan_rungs judge_render_rungs judge_render_reference render_worker cudaScan; } \
  >"$logs/build.log" 2>&1; then
  tail -20 "$logs/build.log"
  exit 1
fi
bin=$PWD/build-gpu/bin

step "exploit suite on host memory"
bash tests/judge/test_judge_exploits.sh "$bin/judge" "$bin" "$PWD/build-gpu/tests/judge/targets" \
  >"$logs/exploits.log" 2>&1 || failed=1
tail -3 "$logs/exploits.log"

# judge_on LABEL WORKER [ARGS...]: the judge's rows for one GPU worker (a
# program in the build's bin folder), shown and kept in LABEL.tsv, and as
# JSON lines in LABEL.rows.
judge_on() {
  local label=$1 worker=$2
  shift 2
  mkdir -p "$logs/$label"
  "$bin/judge" --worker "$bin/$worker" --log-dir "$logs/$label" --rows "$logs/$label.rows" "$@" 2>&1 |
    tee "$logs/$label.tsv"
}

step "the reference (course-style scan), sandboxed"
judge_on reference judge_scan_reference --counts "$counts" scan find_repeats || failed=1
step "the reference, unsandboxed (the sandbox's cost)"
judge_on reference_unsandboxed judge_scan_reference --unsandboxed --counts "$counts" scan find_repeats
for rung in kogge-stone blelloch single-pass cub; do
  step "our rung $rung"
  judge_on "rung_$rung" "judge_scan_rung_$rung" --counts "$counts" scan find_repeats || failed=1
done
step "late kernel (must be rejected)"
judge_on late_kernel judge_worker_late_kernel --counts 1000000 scan find_repeats && failed=1
# rejected LABEL PATTERN: every row of LABEL not the reference's was
# rejected, its reason matching PATTERN; every reference row (a pair's) ok.
rejected() {
  jq -se --arg re "$2" 'length > 0 and all(if .role == "reference" then .status == "ok"
      else .status == "rejected" and (.reason | test($re)) end)' "$logs/$1.rows" >/dev/null 2>&1 || {
    echo "gpu_judge.sh: $1: not every graded row rejected for '$2' with the reference's rows ok"
    failed=1
  }
}
step "a kernel resident between calls, launched after the answer (must be rejected)"
judge_on resident_kernel judge_worker_resident_kernel --counts 1000000 scan find_repeats
rejected resident_kernel 'GPU work'
step "the same beside the reference (grade.sh's pair): the graded rejected, the reference graded"
judge_on resident_pair judge_worker_resident_kernel --reference-worker "$bin/judge_scan_reference" \
  --counts 1000000 scan find_repeats
rejected resident_pair 'GPU work'
# Copies alone compute nothing; where the probe does not see them (another
# context's copies share the engines), the worker's next call waits for
# them: rejected, or charged (its best call at least 10 ms, the honest
# worker's well under 1 ms).
step "the copy engines kept busy after the answer, no kernel (must be rejected, or charged)"
judge_on copy_engine judge_worker_copy_engine --counts 1000000 scan find_repeats
jq -se 'length > 0 and all((.status == "rejected" and (.reason | test("GPU work"))) or .best_ms >= 10)' \
  "$logs/copy_engine.rows" >/dev/null 2>&1 || {
  echo "gpu_judge.sh: copy_engine: a row neither rejected nor charged"
  failed=1
}
step "a static object takes all but 48 MiB of the GPU, beside the reference (graded rejected, reference graded)"
judge_on memory_hog_pair judge_worker_gpu_memory_hog --reference-worker "$bin/judge_scan_reference" \
  --counts 1000000,10000000 scan find_repeats
rejected memory_hog_pair 'over its limit'
step "GPU hang (must be rejected), then the reference again"
judge_on gpu_hang judge_worker_gpu_hang --counts 1000 --call-timeout 5 scan && failed=1
judge_on reference_after_hang judge_scan_reference --counts 1000000 scan || failed=1

step "render judge: the reference (the course's design), classic and auto, every default scene"
judge_on render_reference judge_render_reference --trusted-untimed render || failed=1
judge_on render_classic judge_render_rung_classic render || failed=1
judge_on render_auto judge_render_rung_auto render || failed=1
step "render judge: the frames of the reference and classic are placed (the judge writes the scene)"
for label in render_reference render_classic; do
  for costs in "$logs/$label"/judge-render-*.tsv; do
    case $costs in *.empty.tsv) continue ;; esac
    head -1 "$costs" | grep -q '^# frames placed' || {
      echo "gpu_judge.sh: $label: not placed: $(head -1 "$costs")"
      failed=1
    }
  done
done
step "render judge: a renderer that draws in setup() what setup() saw (loaded, and charged)"
judge_on render_placed_precompute judge_render_worker_placed_precompute --scenes rgb,rand10k render || failed=1
for scene in rgb rand10k; do
  head -1 "$logs/render_placed_precompute/judge-render-$scene.tsv" |
    grep -q '^# frames loaded: the placed warm-up frame differs' || {
    echo "gpu_judge.sh: placed_precompute on $scene was not loaded"
    failed=1
  }
done
jq -se '[.[] | select(.test == "render" and .status == "ok")] | length == 2' \
  "$logs/render_placed_precompute.rows" >/dev/null 2>&1 || {
  echo "gpu_judge.sh: placed_precompute's rows are not both ok (loaded frames draw correctly)"
  failed=1
}
# On loaded frames setup() is on the clock: the kernel it leaves running is
# rejected or charged. On placed frames setup() runs once, untimed, on the
# decoy: its kernel ends before the first timed frame and can have seen no
# frame's data, so an ok row is right there (the probe after every frame
# still rejects work left running into the rows).
step "render judge: GPU work a setup leaves running (rejected or charged when loaded; placed: off the rows)"
judge_on render_setup_leftover judge_render_worker_setup_leftover --scenes rgb,rand10k render
for scene in rgb rand10k; do
  costs="$logs/render_setup_leftover/judge-render-$scene.tsv"
  placed=false
  head -1 "$costs" 2>/dev/null | grep -q '^# frames placed' && placed=true
  jq -se --arg scene "$scene" --argjson placed "$placed" '[.[] | select(.test == "render" and .item == $scene)]
    | length == 1 and all((.status == "rejected" and (.reason | test("GPU work still running")))
      or (.status == "ok" and (.charged_ms >= 40 or $placed)))' \
    "$logs/render_setup_leftover.rows" >/dev/null 2>&1 || {
    echo "gpu_judge.sh: $scene: the setup's leftover GPU work was neither rejected nor charged, nor off placed rows"
    failed=1
  }
done
step "render judge: the unfilled student slot (the course's first attempt: must be rejected)"
judge_on render_slot render_worker --scenes rgb,rand10k render && failed=1

step "grade.sh on the judge: our rungs against the course-design reference"
scripts/grade.sh scan find_repeats --ladder --bin-dir "$bin" --counts "$counts" --logs "$logs/grade" --quiet \
  >"$logs/grade.out" 2>&1 || failed=1
grep -E '^(Ladder|\| (Rung|kogge|blelloch|single|cub))' "$logs/grade.out"
awk -F '\t' '$4 ~ /judge_scan_reference/ { split($1, p, "/"); print "reference", p[1], $2, $5 " ms" }' "$logs/grade/scores.tsv" |
  sort -u | tee "$logs/reference.txt"

step "grade.sh render --ladder through the judge (the rungs against the course-design reference)"
scripts/grade.sh render --ladder --bin-dir "$bin" --logs "$logs/grade-render" --quiet \
  >"$logs/grade-render.out" 2>&1
grep -E '^(Ladder|\| (Rung|circles|pixels|tiles|classic|tiled|binned|auto) )' "$logs/grade-render.out"

step "our cudaScan -a blelloch, its own line (best of 3)"
for test in scan find_repeats; do
  for n in ${counts//,/ }; do
    printf '%s\t%s\t' "$test" "$n"
    "$bin/cudaScan" -a blelloch -m "$test" -i random -n "$n" | sed -n 's/^Student GPU time: //p'
  done
done | tee "$logs/blelloch.tsv"
[ "$failed" = 0 ] && echo "gpu_judge.sh: all steps passed" || echo "gpu_judge.sh: some steps failed"
exit "$failed"
