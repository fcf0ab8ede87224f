#!/usr/bin/env bash
# End-to-end tests of scripts/grade.sh on the fake programs of fake/ (the
# real command lines, recorded output, times set per test): tables, scores,
# the named references and their failures, the ladder, the cache, failures,
# usage errors. Needs no GPU and no build.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
grade=$here/../../scripts/grade.sh
# shellcheck source=tests/grade/testing.sh
source "$here/testing.sh"

use_temp_folder
bin=$tmp/bin
fake_programs "$bin" render cudaScan
fake_judge "$bin"
# The course's reference binaries: the same fakes under their names.
ln -s "$here/fake/render" "$bin/render_ref"
ln -s "$here/fake/cudaScan" "$bin/cudaScan_ref"
cores=$(nproc)
quiet_machine  # unless a test says otherwise
echo "1.00 1.00 1.00 $((cores + 6))/100 1" >"$tmp/busy-load"

# grade NAME ARGS...: runs grade.sh on the fakes with its own logs and
# cache (cache NAME shared by runs of one test); sets OUT, ERR, STATUS,
# LOGS and CALLS (the fakes' calls).
grade() {
  local name=$1
  shift
  LOGS=$tmp/$name.logs CALLS=$tmp/$name.calls
  rm -rf "$LOGS"
  : >"$CALLS"
  OUT=$(FAKE_CALLS=$CALLS GRADE_LOADAVG_FILE=${LOADAVG:-$GRADE_LOADAVG_FILE} "$grade" --bin-dir "$bin" --logs "$LOGS" --cache-dir "$tmp/cache-${CACHE:-$name}" \
    --runs 2 "$@" 2>"$tmp/stderr")
  STATUS=$?
  ERR=$(cat "$tmp/stderr")
}

# row TABLE_TEXT ITEM: the table row of ITEM, cells trimmed, "|"-separated.
row() { grep -E "^\| $2 " <<<"$1" | sed -E 's/ +\|/|/g; s/\| +/|/g'; }

# The CPU renderer's reference: the serial worker's time over this machine's
# cores, both timed by the judge on host memory.
test_render_cpu_scores() {
  local serial=$((10 * cores)) per_core="serial / $cores cores (perfect scaling)"
  FAKE_WORKER_MS=judge_render_cpu/rgb=5,judge_render_cpu/pattern=30,judge_render_cpu/rand10k=200,judge_render_serial=$serial \
    grade render_cpu render --renderer cpu --scenes rgb,pattern,rand10k
  expect_eq "render cpu: exit status" 0 "$STATUS"
  expect_match "render cpu: course header" '^\| Scene Name +\| Ref Time \(T_ref\) \| Your Time \(T\) +\| Score' "$OUT"
  expect_eq "render cpu: rgb row" "|rgb|10.0000|5.0000|9|2.00x|0.0003|$per_core|" "$(row "$OUT" rgb)"
  expect_eq "render cpu: pattern row (3x slower)" "|pattern|10.0000|30.0000|5|0.33x|0.0003|$per_core|" "$(row "$OUT" pattern)"
  expect_eq "render cpu: rand10k row (20x slower)" "|rand10k|10.0000|200.0000|2|0.05x|0.0003|$per_core|" "$(row "$OUT" rand10k)"
  expect_match "render cpu: total" '\| Total score: +\| 16/27 +\|' "$OUT"
  expect_match "render cpu: progress names scene and the judge" '^\[ *[0-9]+s\] render pattern \(2/3\): the judge, 2 timed calls$' "$ERR"
  expect_match "render cpu: the log folder is named last" "^Logs and results .*: $LOGS\$" "$(tail -n 1 <<<"$OUT")"
  expect_match "render cpu: csv row" "^render,pattern,-,\"serial / $cores cores \\(perfect scaling\\)\",10.0000,30.0000,0.33x,ok,5,9,0.0003,\$" "$(cat "$LOGS/scores.csv")"
  expect_eq "render cpu: no partial files left" "" "$(find "$LOGS" -name '.*' -o -name work)"
  expect_match "render cpu: markdown total" '\*\*16/27\*\*' "$(cat "$LOGS/results.md")"
  expect_match "render cpu: every judge run in commands.txt" \
    '^render/rand10k.judge_render_cpu.judge.log: .*/judge --worker .*/judge_render_cpu --runs 2 --memory host --scenes rand10k --size 1024 ' \
    "$(cat "$LOGS/commands.txt")"
  expect_match "render cpu: the serial worker on host memory too" \
    "^judge --worker $bin/judge_render_serial --runs 2 --memory host --scenes rgb " "$(cat "$CALLS")"
  expect_no_match "render cpu: no colour when not a terminal" $'\033' "$OUT"
}

test_render_wrong_scene() {
  FAKE_REJECT=judge_render_cpu:render:pattern FAKE_WORKER_MS=judge_render_serial=$((100 * cores)),judge_render_cpu=10 \
    grade render_wrong render --renderer cpu --scenes rgb,pattern --seed 4242
  expect_eq "rejected scene: exit status" 1 "$STATUS"
  expect_eq "rejected scene: (F) and no points" "|pattern|100.0000|- (F)|0|-|0.0003|serial / $cores cores (perfect scaling)|" \
    "$(row "$OUT" pattern)"
  expect_match "rejected scene: the judge's reason on stderr" \
    '^grade.sh: render pattern: rejected by the judge: image of timed frame 1 differs from the reference at pixel' "$ERR"
  expect_match "rejected scene: the judge's seed from --seed" ' --seed 4243 ' "$(cat "$CALLS")"
  expect_match "rejected scene: the seed in the row" '^render,pattern,4242,' "$(cat "$LOGS/scores.csv")"
  expect_match "rejected scene: total" '\| Total score: +\| 9/18 +\|' "$OUT"
}

test_render_reference_program() {
  FAKE_REF_MS=rgb=4,pattern=10 FAKE_WORKER_MS=judge_render_rung_auto/rgb=4,judge_render_rung_auto/pattern=25 \
    grade render_ref render --scenes rgb,pattern --ref-render "$bin/render_ref"
  expect_eq "reference program: exit status" 0 "$STATUS"
  expect_eq "reference program: rgb" "|rgb|4.0000|4.0000|9|1.00x|0.0003|render_ref -r cuda (its own time)|" "$(row "$OUT" rgb)"
  expect_eq "reference program: pattern" "|pattern|10.0000|25.0000|5|0.40x|0.0003|render_ref -r cuda (its own time)|" \
    "$(row "$OUT" pattern)"
  expect_match "reference program: course's options" '^render_ref -r cuda -s 1024 -b 0:4 -f  pattern$' "$(cat "$CALLS")"
  expect_no_match "reference program: no reference worker" 'judge_render_reference' "$(cat "$CALLS")"
}

# The course's design in the slot's shape (judge_render_reference) is the
# CUDA renderer's reference unless told otherwise, timed by the judge like
# the graded renderer.
test_render_default_reference() {
  FAKE_WORKER_MS=judge_render_reference=4,judge_render_rung_auto/rgb=4,judge_render_rung_auto/pattern=25 \
    grade render_course render --scenes rgb,pattern
  expect_eq "course reference: exit status" 0 "$STATUS"
  expect_eq "course reference: rgb" "|rgb|4.0000|4.0000|9|1.00x|0.0003|course design (judge_render_reference)|" "$(row "$OUT" rgb)"
  expect_eq "course reference: pattern" "|pattern|4.0000|25.0000|4|0.16x|0.0003|course design (judge_render_reference)|" \
    "$(row "$OUT" pattern)"
  # One judge run a scene: the graded renderer and the reference interleaved.
  expect_match "course reference: the graded renderer, auto, the reference beside it" \
    "^judge --worker $bin/judge_render_rung_auto --runs 2 --memory device --scenes pattern --size 1024 --reference-worker $bin/judge_render_reference " \
    "$(cat "$CALLS")"
  expect_eq "course reference: one judge run a scene" 2 "$(grep -c '^judge --worker' "$CALLS")"
  expect_no_match "course reference: no allowance taken from the reference's costs" \
    "--untimed-costs" "$(cat "$CALLS")"
  # The judge times the reference's frame alone (trusted) and charges the
  # graded renderer's untimed calls: --trusted-untimed is never asked.
  expect_no_match "course reference: the graded renderer's untimed calls charged" \
    "--trusted-untimed" "$(cat "$CALLS")"
  expect_match "course reference: the programs and logs hidden" \
    "^judge --worker $bin/judge_render_rung_auto .*--hide $bin .*--hide $LOGS " "$(cat "$CALLS")"
  FAKE_WORKER_MS=judge_render_rung_tiled=2,judge_render_rung_pixels=10 grade render_mode render --scenes rgb --cuda-mode tiled --ref-mode pixels
  expect_eq "one mode against another: row" "|rgb|10.0000|2.0000|9|5.00x|0.0003|pixels (judge_render_rung_pixels)|" "$(row "$OUT" rgb)"
  # The student's renderer, against the same course-level reference.
  FAKE_WORKER_MS=judge_render_reference=4,render_worker=8 grade render_student render --scenes rgb --renderer student
  expect_eq "student renderer: exit status" 0 "$STATUS"
  expect_match "student renderer: its worker judged" "^judge --worker $bin/render_worker " "$(cat "$CALLS")"
  expect_eq "student renderer: row" "|rgb|4.0000|8.0000|6|0.50x|0.0003|course design (judge_render_reference)|" "$(row "$OUT" rgb)"
  FAKE_WORKER_MS=render_worker=1 grade render_own_ref render --scenes rgb --renderer student \
    --ref-render-worker "$bin/judge_render_rung_binned"
  expect_eq "--ref-render-worker: row" "|rgb|1.0000|1.0000|9|1.00x|0.0003|judge_render_rung_binned|" "$(row "$OUT" rgb)"
}

# A reference the user named that cannot run stops its part with the
# reason, never another reference instead.
test_reference_program_without_gpu() {
  FAKE_NO_GPU=1 grade ref_nogpu render --renderer cpu --scenes rgb,pattern --ref-render "$bin/render_ref"
  expect_eq "reference without GPU: exit status" 1 "$STATUS"
  expect_match "reference without GPU: the reason" '^grade.sh: render: not graded: the reference render_ref -r cuda \(its own time\) no GPU: CUDA Error: no CUDA-capable device' "$ERR"
  expect_eq "reference without GPU: tried once" 1 "$(grep -c '^render_ref' "$CALLS")"
  expect_no_match "reference without GPU: no serial instead" 'judge_render_serial' "$(cat "$CALLS")"
  expect_no_match "reference without GPU: no table" 'Total score' "$OUT"
}

# bad_reference NAME REASON_RE PROGRAM [PART]: --ref-render (or --ref-scan
# for a scan PART) PROGRAM makes the part exit 1 with REASON_RE.
bad_reference() {
  local name=$1 re=$2 program=$3 part=${4:-render} option=--ref-render
  [ "$part" = render ] || option=--ref-scan
  grade "badref_$name" "$part" --renderer cpu --scenes rgb --counts 1000000 "$option" "$program"
  expect_eq "reference $name: exit status" 1 "$STATUS"
  expect_match "reference $name: the reason" "^grade.sh: $part: not graded: the reference .*$re" "$ERR"
  expect_no_match "reference $name: no table" 'Total score' "$OUT"
}

test_bad_references() {
  local dir=$tmp/refs
  mkdir -p "$dir"
  printf '#!/bin/sh\nkill -SEGV $$\n' >"$dir/render_crash"
  printf '#!/bin/sh\ncat "%s"\n' "$here/fixtures/render_course_check_fail.txt" >"$dir/render_wrong"
  printf '#!/bin/sh\ncat "%s"\nexit 1\n' "$here/fixtures/scan_wrong.txt" >"$dir/cudaScan_wrong"
  chmod +x "$dir/render_crash" "$dir/render_wrong" "$dir/cudaScan_wrong"
  cp "$here/fake/render" "$dir/render_plain"
  chmod -x "$dir/render_plain"
  foreign_program "$dir/render_arm"
  bad_reference crash "crashed" "$dir/render_crash"
  bad_reference "wrong result" "wrong result: Mismatch detected at pixel" "$dir/render_wrong"
  bad_reference "not executable" "cannot run: $dir/render_plain: not executable" "$dir/render_plain"
  bad_reference "missing" "cannot run: $dir/nothing: no such file" "$dir/nothing"
  bad_reference "another architecture" "cannot run: .*exec format error: built for" "$dir/render_arm"
  bad_reference "scan wrong result" "wrong result: Error: Device exclusive_scan outputs incorrect" "$dir/cudaScan_wrong" scan
  # A program whose shared library is gone, as a course binary without
  # libcudart: the loader's own line.
  if command -v cc >/dev/null; then
    echo 'int gone(void) { return 0; }' >"$dir/gone.c"
    echo 'int gone(void); int main(void) { return gone(); }' >"$dir/main.c"
    if cc -shared -fPIC -o "$dir/libgone.so" "$dir/gone.c" 2>/dev/null &&
      cc -o "$dir/render_nolib" "$dir/main.c" -L"$dir" -lgone 2>/dev/null; then
      rm -f "$dir/libgone.so"
      bad_reference "missing library" "cannot run: .*error while loading shared libraries: libgone.so" "$dir/render_nolib"
    else
      skip_part "a reference whose library is gone (cc cannot build the stand-in)"
    fi
  else
    skip_part "a reference whose library is gone (no cc to build the stand-in)"
  fi
}

# A handout (a .handout file and ref/ programs beside scripts/): ref/ is the
# default reference, but a reference option given, and the CPU renderer's
# serial reference, win over it.
test_handout_references() {
  local handout=$tmp/handout grade=$tmp/handout/scripts/grade.sh
  mkdir -p "$handout/scripts" "$handout/ref"
  copy_grader "$handout/scripts"
  touch "$handout/.handout"
  mkdir -p "$handout/ref/.bin"
  cp "$bin/judge_scan_reference" "$handout/ref/.bin/judge_scan_reference"
  cp "$bin/judge_render_reference" "$handout/ref/.bin/judge_render_reference"
  FAKE_WORKER_MS=judge_render_reference=4,render_worker=10 grade handout_default render --scenes rgb
  expect_eq "handout: exit status" 0 "$STATUS"
  expect_eq "handout: ref/'s reference worker by default" "|rgb|4.0000|10.0000|5|0.40x|0.0003|judge_render_reference|" "$(row "$OUT" rgb)"
  expect_match "handout: the student's renderer graded" "^judge --worker $bin/render_worker " "$(cat "$CALLS")"
  grade handout_ref_mode render --scenes rgb --ref-mode pixels
  expect_eq "handout, --ref-mode: a usage error" 2 "$STATUS"
  expect_match "handout, --ref-mode: why" "the suite's CUDA modes are not in a handout" "$ERR"
  FAKE_NO_GPU=1 grade handout_cpu render --renderer cpu --scenes rgb
  expect_eq "handout, --renderer cpu: a usage error" 2 "$STATUS"
  expect_match "handout, --renderer cpu: why" "the parallel CPU renderer is not in a handout" "$ERR"
  FAKE_WORKER_MS=judge_scan_reference=2 grade handout_scan scan --counts 1000000
  expect_eq "handout: ref/'s reference worker by default" "|1000000|2.0000|1.0000|1.25|2.00x|0.0003|judge_scan_reference|" \
    "$(row "$OUT" 1000000)"
  expect_match "handout: the judge runs it beside the student's worker" \
    "^judge --worker $bin/scan_worker .*--reference-worker $handout/ref/.bin/judge_scan_reference " "$(cat "$CALLS")"
  # A handout made with --no-refs: no reference worker in ref/.bin, none
  # in its build either.
  rm "$handout/ref/.bin/judge_scan_reference"
  mkdir -p "$tmp/handout-bin"
  for program in judge scan_worker judge_calibration_worker; do cp -P "$bin/$program" "$tmp/handout-bin/"; done
  grade handout_no_refs scan --counts 1000000 --bin-dir "$tmp/handout-bin"
  expect_match "handout without reference workers: says what to do" \
    'scan: not graded: judge_scan_reference is not available: this handout has no reference workers in ref/.bin \(make_handout.sh builds them' "$ERR"
  rm -f "$handout/ref/.bin/judge_render_reference"
  cp -P "$bin/render_worker" "$bin/judge_render_empty" "$tmp/handout-bin/"
  grade handout_no_render_refs render --scenes rgb --bin-dir "$tmp/handout-bin"
  expect_match "handout without reference workers: says what to do for render too" \
    'render: not graded: judge_render_reference is not available: this handout has no reference workers in ref/.bin \(make_handout.sh builds them' "$ERR"
  grade handout_ref_algorithm scan --counts 1000000 --ref-algorithm cub
  expect_eq "handout, --ref-algorithm cub: a usage error" 2 "$STATUS"
  expect_match "handout, --ref-algorithm cub: why" "the suite's algorithms are not in a handout" "$ERR"
}

test_cuda_renderer_without_gpu() {
  FAKE_NO_GPU=1 grade cuda_nogpu render --scenes rgb,pattern
  expect_eq "no GPU: exit status" 1 "$STATUS"
  expect_match "no GPU: one clear line" '^grade.sh: render: not graded: the judge needs a GPU: judge: error: no CUDA device available' "$ERR"
  expect_no_match "no GPU: no table" 'Score table|Total score' "$OUT"
  expect_eq "no GPU: stops at the first scene" 0 "$(grep -c 'pattern' "$CALLS")"
  # The part not graded still counts its points in the maximum.
  expect_eq "no GPU: not_graded.tsv carries the part's points" $'render\t18' \
    "$(awk -F '\t' 'NR > 1 { print $1 "\t" $3 }' "$LOGS/not_graded.tsv")"
  expect_eq "no GPU: results.json's maximum is the assignment's" "0 of 18" \
    "$(jq -r '"\(.score) of \([.tests[].max_score] | add)"' "$LOGS/results.json")"
}

# The serial worker's time is cached per scene, size, build and machine.
test_render_cache() {
  CACHE=shared FAKE_WORKER_MS=judge_render_serial=$((10 * cores)) grade cache1 render --renderer cpu --scenes rgb,pattern
  expect_eq "cache: first run passes" 0 "$STATUS"
  expect_eq "cache: first run times the serial worker per scene" 2 "$(grep -c 'judge_render_serial' "$CALLS")"
  CACHE=shared grade cache2 render --renderer cpu --scenes rgb,pattern
  expect_eq "cache: second run passes" 0 "$STATUS"
  expect_eq "cache: second run times no serial worker" 0 "$(grep -c 'judge_render_serial' "$CALLS")"
  expect_match "cache: said so" '^\[ *[0-9]+s\] render rgb \(1/2\): serial reference time from the cache$' "$ERR"
  expect_match "cache: named as cached" "^\\| rgb .*\\| serial / $cores cores \\(perfect scaling, cached\\) +\\|\$" "$OUT"
  expect_eq "cache: the cached time" "|rgb|10.0000|1.0000|9|10.00x|0.0003|serial / $cores cores (perfect scaling, cached)|" "$(row "$OUT" rgb)"
  CACHE=shared grade cache3 render --renderer cpu --scenes rgb,pattern --no-cache
  expect_eq "no cache: the serial worker again" 2 "$(grep -c 'judge_render_serial' "$CALLS")"
  # A serial time measured on a busy machine is never kept.
  LOADAVG=$tmp/busy-load grade busy1 render --renderer cpu --scenes rgb
  expect_match "busy: said" "^grade.sh: render rgb: the machine was busy \\($((cores + 5)) other tasks running on $cores cores\\)" "$ERR"
  expect_eq "busy: not cached" 0 "$(find "$tmp/cache-busy1" -name '*.ms' | wc -l)"
  # Busy when the timing starts, quiet when it ends: still not kept.
  cp "$tmp/busy-load" "$tmp/changing-load"
  FAKE_QUIET_AFTER=$tmp/changing-load LOADAVG=$tmp/changing-load grade busy_before render --renderer cpu --scenes rgb
  expect_match "busy before the timing: said" "^grade.sh: render rgb: the machine was busy" "$ERR"
  expect_eq "busy before the timing: not cached" 0 "$(find "$tmp/cache-busy_before" -name '*.ms' | wc -l)"
  grade busy2 render --renderer cpu --scenes rgb --cache-dir "$tmp/cache-busy1"
  expect_eq "busy: measured again later" 1 "$(grep -c 'judge_render_serial' "$CALLS")"
  # An entry that says it was measured under load is not used either.
  local entry
  entry=$(find "$tmp/cache-busy1" -name '*.ms')
  echo "999.0 $((cores + 5))" >"$entry"
  grade busy3 render --renderer cpu --scenes rgb --cache-dir "$tmp/cache-busy1"
  expect_eq "busy entry: measured again" 1 "$(grep -c 'judge_render_serial' "$CALLS")"
  expect_no_match "busy entry: its time not used" '999' "$OUT"
}

test_cache_folder_problems() {
  echo "a file" >"$tmp/not-a-folder"
  grade rocache render --renderer cpu --scenes rgb,pattern --cache-dir "$tmp/not-a-folder/cache"
  expect_eq "unwritable cache: still graded" 0 "$STATUS"
  expect_eq "unwritable cache: one line" 1 "$(grep -c '^grade.sh: ' <<<"$ERR")"
  expect_match "unwritable cache: the line" "^grade.sh: the cache folder $tmp/not-a-folder/cache cannot be written: grading without the cache\$" "$ERR"
  # A temporary entry of a run killed outright goes at the next run.
  mkdir -p "$tmp/cache-stale/render"
  : >"$tmp/cache-stale/render/.tmp-rgb-1024px-abc-host.ms.999999999"
  grade stale render --renderer cpu --scenes rgb
  expect_eq "stale temporary entry: removed" "" "$(find "$tmp/cache-stale" -name '.tmp-*')"
  OUT=$("$grade" --clean-cache --cache-dir "$tmp/cache-stale" 2>&1)
  expect_eq "clean cache: exit status" 0 "$?"
  expect_match "clean cache: said" "^Emptied the cache $tmp/cache-stale" "$OUT"
  expect_eq "clean cache: nothing left" "" "$(find "$tmp/cache-stale" -type f)"
}

# A cache folder without write permission: a test of its own (ctest
# grade_end_to_end_fakes_readonly), skipped as root, who writes anywhere.
test_cache_read_only() {
  if [ "$(id -u)" = 0 ]; then
    skip_part "a read-only cache folder (root writes anywhere)"
    return
  fi
  mkdir -p "$tmp/ro-cache/render"
  chmod 555 "$tmp/ro-cache/render" "$tmp/ro-cache"
  grade rocache2 render --renderer cpu --scenes rgb --cache-dir "$tmp/ro-cache"
  expect_eq "read-only cache: still graded" 0 "$STATUS"
  expect_match "read-only cache: the line" "cache folder $tmp/ro-cache cannot be written" "$ERR"
  chmod 755 "$tmp/ro-cache/render" "$tmp/ro-cache"
}

# A serial time that cannot go into the cache is still used: an mv that
# cannot write the cached time (*.ms) stands in for a failing cache.
test_serial_time_not_cached() {
  local fakebin=$tmp/failing-mv
  mkdir -p "$fakebin"
  # shellcheck disable=SC2016  # expanded by the fake mv
  printf '#!/usr/bin/env bash\ncase "${*: -1}" in *.ms) exit 1 ;; esac\nexec "%s" "$@"\n' "$(command -v mv)" >"$fakebin/mv"
  chmod +x "$fakebin/mv"
  PATH=$fakebin:$PATH FAKE_WORKER_MS=judge_render_serial=$((10 * cores)),judge_render_cpu=10 grade uncached render --renderer cpu --scenes rgb
  expect_eq "uncached serial time: exit status" 0 "$STATUS"
  expect_eq "uncached serial time: the row" "|rgb|10.0000|10.0000|9|1.00x|0.0003|serial / $cores cores (perfect scaling)|" "$(row "$OUT" rgb)"
  expect_eq "uncached serial time: one line" "grade.sh: render rgb: could not cache the serial time" "$(grep '^grade.sh: ' <<<"$ERR")"
  expect_eq "uncached serial time: not in the cache" "" "$(find "$tmp/cache-uncached" -name '*.ms*')"
}

# The scan, find_repeats and saxpy parts, usage errors and builds.
# shellcheck source=tests/grade/e2e_scan_saxpy.sh
source "$here/e2e_scan_saxpy.sh"

# The tests in groups, so ctest can run them side by side: give group
# names (default: all of them).
declare -A groups=(
  [render]="test_render_cpu_scores test_render_wrong_scene test_render_reference_program test_render_default_reference test_reference_program_without_gpu test_cuda_renderer_without_gpu test_ladder"
  [references]="test_handout_references test_bad_references test_serial_time_not_cached"
  [cache]="test_render_cache test_cache_folder_problems"
  [readonly]="test_cache_read_only"
  [other]="test_scan_default_reference test_noise_note test_scan_reference_program test_scan_wrong_and_no_gpu test_hostile_worker_message test_saxpy test_all test_usage_errors test_missing_program test_build_when_stale"
)
[ $# -gt 0 ] || set -- render references cache readonly other
for group in "$@"; do
  [ -n "${groups[$group]:-}" ] || { echo "unknown group '$group' (${!groups[*]})" >&2; exit 2; }
  for test in ${groups[$group]}; do "$test"; done
done
finish
