# shellcheck shell=bash disable=SC2154  # tmp, bin, here, grade: test_grade_e2e.sh's
# The end-to-end tests of grade.sh's scan, find_repeats and saxpy parts,
# and of its usage errors and builds, on the fakes: sourced by
# test_grade_e2e.sh, whose grade and row they use and whose groups run them.

# The judge times the student's worker and the reference worker, one size
# after the other; its round trip is shown beside each time.
test_scan_default_reference() {
  FAKE_WORKER_MS=scan_worker=2,judge_scan_reference=1 grade scan_course scan --counts 1000000,2000000
  expect_eq "course reference: exit status" 0 "$STATUS"
  expect_match "course reference: the header" '^\| Element Count +\| Ref Time +\| Student Time +\| Score +\| Speedup +\| Round trip +\| Reference' "$OUT"
  expect_eq "course reference: row" "|2000000|2.0000|4.0000|0.625|0.50x|0.0003|course design (judge_scan_reference)|" \
    "$(row "$OUT" 2000000)"
  # One judge run a size: the student's worker and the reference interleaved.
  expect_match "course reference: the judge on the student's worker and the reference" \
    "^judge --worker $bin/scan_worker --runs 2 --memory device --counts 2000000 --reference-worker $bin/judge_scan_reference --hide .* scan\$" \
    "$(cat "$CALLS")"
  expect_eq "course reference: one judge run a size" 2 "$(grep -c '^judge ' "$CALLS")"
  # A reference the judge rejects grades nothing: the part is not graded,
  # with its reason, and keeps its points for a retry.
  FAKE_REJECT=judge_scan_reference:scan:1000000 grade scan_ref_rejected scan --counts 1000000
  expect_eq "rejected reference: exit status" 1 "$STATUS"
  expect_match "rejected reference: not graded, why" \
    '^scan: not graded: the reference judge_scan_reference was rejected by the judge: output of timed call 1 differs' "$OUT"
  expect_eq "rejected reference: the part's points kept" "scan	the	1.25" \
    "$(awk -F '\t' 'NR == 2 { split($2, w, " "); print $1 "\t" w[1] "\t" $3 }' "$LOGS/not_graded.tsv")"
  expect_match "course reference: the logs and the programs hidden" \
    "^judge --worker $bin/scan_worker .*--hide $bin .*--hide $LOGS " "$(cat "$CALLS")"
  expect_eq "course reference: the worker's output not run through grade.sh" 0 "$(grep -c 'stand-in worker' <<<"$OUT$ERR")"
  FAKE_WORKER_MS=judge_scan_rung_cub=0.5 grade scan_cub find_repeats --counts 1000000 --ref-algorithm cub
  expect_eq "cub reference: row" "|1000000|0.5000|1.0000|0.625|0.50x|0.0003|cub (judge_scan_rung_cub)|" "$(row "$OUT" 1000000)"
  # Each row scores 1.25 * 3/4 = 0.9375 (shown 0.938); the total is 3.75, not 3.752.
  FAKE_WORKER_MS=scan_worker=4,judge_scan_reference=3 grade scan_exact scan --counts 1000000,2000000,3000000,4000000
  expect_eq "exact total: a row" "|1000000|3.0000|4.0000|0.938|0.75x|0.0003|course design (judge_scan_reference)|" \
    "$(row "$OUT" 1000000)"
  expect_match "exact total: the sum" '\| Total score: +\| 3.75/5 +\|' "$OUT"
  FAKE_WORKER_MS=scan_worker=1 grade scan_own_worker scan --counts 1000000 --ref-worker "$bin/judge_scan_rung_blelloch"
  expect_eq "--ref-worker: row" "|1000000|1.0000|1.0000|1.25|1.00x|0.0003|judge_scan_rung_blelloch|" "$(row "$OUT" 1000000)"
}

# A score the timing's spread could move across a threshold says so, with
# the range; one it cannot move says nothing. The score stays the best
# times' (the course's rule).
test_noise_note() {
  # 1.1 ms against 1 ms: 1.25 points; at its median (1.32 ms), 0.947.
  FAKE_WORKER_MS=scan_worker=1.1 FAKE_SPREAD=scan_worker=0.2 grade noise scan --counts 1000000
  expect_eq "near a threshold: the best times' score" "|1000000|1.0000|1.1000|1.25|0.91x|0.0003|course design (judge_scan_reference)|" \
    "$(row "$OUT" 1000000)"
  expect_match "near a threshold: the note, with the range" \
    '^  1000000: within the timing.s spread of a threshold: 0.946969697 to 1.25 at the medians. times \(reference 1.0000 to 1.0000 ms, yours 1.1000 to 1.3200 ms\)$' "$OUT"
  expect_match "near a threshold: in scores.tsv" $'\twithin the timing.s spread of a threshold' "$(cat "$LOGS/scores.tsv")"
  # Half the reference's time, the same spread: 1.25 either way.
  FAKE_WORKER_MS=scan_worker=0.5 FAKE_SPREAD=scan_worker=0.2 grade noise_far scan --counts 1000000
  expect_no_match "far from a threshold: no note" 'spread' "$OUT"
  # The reference's spread counts too: its median 1.5 ms against yours 2 ms.
  FAKE_WORKER_MS=scan_worker=2 FAKE_SPREAD=judge_scan_reference=0.5 grade noise_ref scan --counts 1000000
  expect_match "the reference's spread: the note" \
    '^  1000000: within the timing.s spread of a threshold: 0.625 to 0.9375 at the medians. times \(reference 1.0000 to 1.5000 ms, yours 2.0000 to 2.0000 ms\)$' "$OUT"
}

test_scan_reference_program() {
  FAKE_WORKER_MS=scan_worker=2 FAKE_REF_MS=1 grade scan_ref scan --counts 1000000,2000000 --ref-scan "$bin/cudaScan_ref"
  expect_eq "scan: exit status" 0 "$STATUS"
  expect_match "scan: course header" '^\| Element Count +\| Ref Time +\| Student Time +\| Score' "$OUT"
  expect_eq "scan: 2x slower" "|2000000|2.000|4.0000|0.625|0.50x|0.0003|cudaScan_ref (its own time)|" "$(row "$OUT" 2000000)"
  expect_match "scan: total" '\| Total score: +\| 1.25/2.5 +\|' "$OUT"
  expect_match "scan: course's options" '^cudaScan_ref -m scan -i random -n 1000000$' "$(cat "$CALLS")"
}

# --ladder: every rung against the same reference, measured once.
test_ladder() {
  FAKE_REJECT=judge_render_rung_circles:render:rgb,judge_render_rung_circles:render:pattern \
    FAKE_WORKER_MS=judge_render_rung_pixels=100,judge_render_rung_tiles=30,judge_render_rung_classic=10,judge_render_reference=10,judge_render_rung_tiled=5,judge_render_rung_binned=5,judge_render_rung_auto=4 \
    grade ladder render --ladder --scenes rgb,pattern
  expect_eq "ladder: exit status (circles is wrong on purpose)" 1 "$STATUS"
  expect_match "ladder: the table" '^Ladder: render 1024x1024, ms per frame per scene, best of 2, against course design \(judge_render_reference\):$' "$OUT"
  expect_eq "ladder: circles" "|circles|- (F)|- (F)|0/18|" "$(row "$OUT" circles | tail -n 1)"
  expect_eq "ladder: pixels" "|pixels|100.0000|100.0000|6/18|" "$(row "$OUT" pixels | tail -n 1)"
  expect_eq "ladder: classic" "|classic|10.0000|10.0000|18/18|" "$(row "$OUT" classic | tail -n 1)"
  expect_eq "ladder: auto" "|auto|4.0000|4.0000|18/18|" "$(row "$OUT" auto | tail -n 1)"
  expect_eq "ladder: a table per rung and the ladder" 8 "$(grep -c -E '^(Score table|Ladder): render' <<<"$OUT")"
  # Each rung timed interleaved with the reference: one judge run a rung.
  expect_eq "ladder: the reference beside each rung" 7 "$(grep -c -- '--scenes rgb .*--reference-worker .*judge_render_reference' "$CALLS")"
  expect_match "ladder: rows in the csv" '^render/tiles,pattern,' "$(cat "$LOGS/scores.csv")"
  FAKE_NO_GPU=1 grade ladder_nogpu render --ladder --scenes rgb
  expect_eq "ladder without GPU: exit status" 1 "$STATUS"
  expect_match "ladder without GPU: said" '^grade.sh: render/circles: not graded: --ladder: the judge needs a GPU' "$ERR"
  FAKE_WORKER_MS=judge_scan_rung_kogge-stone=4,judge_scan_rung_blelloch=2,judge_scan_rung_single-pass=1,judge_scan_rung_cub=1,judge_scan_reference=2 \
    grade scan_ladder scan --ladder --counts 1000000
  expect_eq "scan ladder: exit status" 0 "$STATUS"
  expect_eq "scan ladder: kogge-stone" "|kogge-stone|4.0000|0.625/1.25|" "$(row "$OUT" kogge-stone | tail -n 1)"
  expect_eq "scan ladder: cub" "|cub|1.0000|1.25/1.25|" "$(row "$OUT" cub | tail -n 1)"
  # Each rung timed interleaved with the reference: one judge run a rung.
  expect_eq "scan ladder: the reference beside each rung" 4 "$(grep -c -- '--reference-worker .*judge_scan_reference' "$CALLS")"
}

test_scan_wrong_and_no_gpu() {
  FAKE_REJECT=scan_worker:scan:2000000 grade scan_wrong scan --counts 1000000,2000000
  expect_eq "scan rejected: exit status" 1 "$STATUS"
  expect_eq "scan rejected: (F)" "|2000000|2.0000|- (F)|0|-|0.0003|course design (judge_scan_reference)|" "$(row "$OUT" 2000000)"
  expect_match "scan rejected: the judge's reason on stderr" \
    '^grade.sh: scan 2000000: rejected by the judge: output of timed call 1 differs from the reference at index 0 .*worker.s log: scan/2000000.worker/' "$ERR"
  expect_match "scan rejected: and under the table" '^  2000000: output of timed call 1 differs' "$OUT"
  expect_match "scan rejected: and in scores.csv" ',rejected,0,1.25,0.0003,"output of timed call 1 differs' "$(cat "$LOGS/scores.csv")"
  FAKE_NO_GPU=1 grade scan_nogpu find_repeats --counts 1000000
  expect_eq "scan without GPU: exit status" 1 "$STATUS"
  expect_match "scan without GPU: clear line" '^grade.sh: find_repeats: not graded: the judge needs a GPU: judge: error: no CUDA device available' "$ERR"
  expect_no_match "scan without GPU: no table" 'Total score' "$OUT"
  FAKE_NO_SANDBOX=1 grade scan_nosandbox scan --counts 1000000
  expect_eq "no sandbox: exit status" 1 "$STATUS"
  expect_match "no sandbox: refused, with what to do" \
    '^grade.sh: scan: not graded: judge: error: cannot make the sandbox .*installs bubblewrap; --unsandboxed grades your own work' "$ERR"
  FAKE_NO_SANDBOX=1 grade scan_unsandboxed scan --counts 1000000 --unsandboxed
  expect_eq "--unsandboxed: exit status" 0 "$STATUS"
  expect_match "--unsandboxed: the row says so" '^  1000000: unsandboxed$' "$OUT"
}

# Hostile (attack2): the message a worker answers with its failure is the
# student's (240 printable bytes): in results.md it is Markdown, raw, so the
# staff's viewer renders the student's HTML, links and headings after the
# real table. Checks named "HOLE" fail today.
test_hostile_worker_message() {
  local message='<img src=http://evil.example/t.png> [regrade approved](http://evil.example/) <h3>Total score: 5/5</h3> **full marks**'
  FAKE_REASON=$message FAKE_REJECT=scan_worker:scan:1000000 grade scan_hostile scan --counts 1000000
  expect_eq "hostile message: exit status" 1 "$STATUS"
  local notes
  notes=$(grep -- '^- 1000000:' "$LOGS/results.md")
  expect_match "hostile message: the note is in results.md" '^- 1000000: timed call 1 failed: ' "$notes"
  expect_no_match "HOLE hostile message: no HTML tag of the student's in results.md" '<[A-Za-z/!]' "$notes"
  expect_no_match "HOLE hostile message: no Markdown link of the student's in results.md" '\]\(' "$notes"
  expect_eq "hostile message: results.json is JSON, the text kept" yes \
    "$(jq -e --arg m "$message" '[.tests[].output | contains($m)] | any' "$LOGS/results.json" >/dev/null && echo yes || echo no)"
  expect_match "hostile message: scores.csv keeps it one quoted cell" \
    ',rejected,0,[0-9.]+,0.0003,"timed call 1 failed: <img' "$(cat "$LOGS/scores.csv")"
  expect_eq "hostile message: scores.csv rows" 2 "$(wc -l <"$LOGS/scores.csv")"
}

test_saxpy() {
  # 1000 elements: 12 kB a call. At 1 ms per million (the stand-in's
  # default) a call of 1000 takes 0.001 ms: 11.176 GB/s in the course's GB.
  # The judge's memcpy of 4000 bytes in 0.002 ms: 14.901 GB/s.
  FAKE_MEMCPY_MS=0.5 FAKE_WORKER_MS=judge_saxpy_rung_tuned=0.5 grade saxpy saxpy --saxpy-n 1000
  expect_eq "saxpy: exit status" 0 "$STATUS"
  expect_eq "saxpy: course variant" "|course|0.0010|11.176|0.0010|11.176|0.750|" "$(row "$OUT" course)"
  expect_eq "saxpy: tuned variant, twice as fast" "|tuned|0.0005|22.352|0.0005|22.352|1.500|" "$(row "$OUT" tuned)"
  expect_match "saxpy: the judge's memcpy" "^Device-to-device memcpy \(the judge's\): 14.901 GB/s\.$" "$OUT"
  expect_match "saxpy: N in the title" '^Saxpy timing table \(N = 1000, best of 2, the judge.s clock, not scored\):$' "$OUT"
  expect_match "saxpy: the judge runs each variant's worker" \
    "^judge --worker $bin/judge_saxpy_rung_course --runs 2 --memory device --counts 1000 .* saxpy\$" "$(cat "$CALLS")"
  expect_no_match "saxpy: cudaSaxpy never runs" '^cudaSaxpy' "$(cat "$CALLS")"
  expect_match "saxpy: csv" '^tuned,0.0005,22.352,0.0005,22.352,1.500,ok$' "$(cat "$LOGS/saxpy.csv")"
  grade saxpy_default saxpy
  expect_match "saxpy: the course's count by default" '^Saxpy timing table \(N = 100000000,' "$OUT"
  FAKE_REJECT=judge_saxpy_rung_tuned:saxpy:100000000 grade saxpy_wrong saxpy
  expect_eq "saxpy wrong: exit status" 1 "$STATUS"
  expect_match "saxpy wrong: (F)" '^\| tuned +\| - \(F\)' "$OUT"
  expect_match "saxpy wrong: the judge's reason, once" \
    '^grade.sh: saxpy tuned: rejected by the judge: result of trip 1 differs from the reference at index 999 ' "$ERR"
  expect_eq "saxpy wrong: one line for both rows" 1 "$(grep -c 'saxpy tuned: rejected' <<<"$ERR")"
  FAKE_NO_GPU=1 grade saxpy_nogpu saxpy
  expect_eq "saxpy without GPU: exit status" 1 "$STATUS"
  expect_match "saxpy without GPU: clear line" '^grade.sh: saxpy: not graded: the judge needs a GPU' "$ERR"
}

test_all() {
  grade all all --renderer cpu --scenes rgb --counts 1000000 --quiet
  expect_eq "all: exit status" 0 "$STATUS"
  expect_eq "all: four tables" 4 "$(grep -c -E '^(Score|Saxpy timing) table' <<<"$OUT")"
  expect_eq "all: quiet means no progress" "" "$ERR"
  expect_eq "all: four tables in results.md" 4 "$(grep -c '^### ' "$LOGS/results.md")"
}

# usage NAME MESSAGE_RE ARGS...: exit status 2 and one line on stderr.
usage() {
  local name=$1 re=$2
  shift 2
  grade usage "$@"
  expect_eq "usage, $name: exit status" 2 "$STATUS"
  expect_match "usage, $name: message" "$re" "$ERR"
  expect_eq "usage, $name: one line" 1 "$(wc -l <<<"$ERR")"
}

test_usage_errors() {
  usage "unknown part" "unknown part 'sort'" sort
  usage "unknown option" "unknown option '--fast'" --fast
  usage "missing value" "--size needs a number" render --size
  usage "an option for a value" "--size needs a number" --size --runs 3
  usage "an option for a name" "--scenes needs a value" --scenes --runs 3
  usage "seed past 2^32-1" "--seed: '4294967296' is not auto, random or a seed from 0 to 4294967295" --seed 4294967296
  usage "ladder of the CPU renderer" "--ladder grades the CUDA renderer's modes" --ladder --renderer cpu
  usage "bad renderer" "--renderer: 'gpu' is not cuda, cpu or student" --renderer gpu
  usage "two render references" "--ref-mode, --ref-render and --ref-render-worker each name the render reference: give one" \
    render --ref-mode tiled --ref-render render_ref
  usage "two scan references" "--ref-algorithm, --ref-scan and --ref-worker each name the scan reference: give one" \
    scan --ref-algorithm=cub --ref-scan cudaScan_ref
  usage "a -r for no reference program" "--ref-renderer is the -r of --ref-render: give --ref-render too" \
    render --ref-renderer cpu
  usage "a mode of the student renderer" "--cuda-mode is for --renderer cuda" --renderer student --cuda-mode tiled
  usage "bad runs" "--runs: '0' is not a number" --runs 0
  usage "bad counts" "--counts: '1e6' is not" --counts 1e6
  usage "saxpy count past cudaSaxpy's limit" "--saxpy-n: '99999999999' is not a count" saxpy --saxpy-n 99999999999
  usage "saxpy count past the judge's limit" "--saxpy-n: '2147483648' is not a count from 1 to 2147483647" saxpy --saxpy-n 2147483648
  usage "bad seed" "--seed: 'x' is not auto, random or a seed" --seed x
  usage "unknown scene" "the judge does not know the scene 'rgbb'" render --scenes rgb,rgbb
  expect_eq "unknown scene: the log folder it made is gone" no "$([ -e "$LOGS" ] && echo yes || echo no)"
  mkdir -p "$tmp/own-logs"
  "$grade" render --bin-dir "$bin" --logs "$tmp/own-logs" --scenes rgbb 2>/dev/null
  expect_eq "unknown scene: a log folder given that was there stays" yes "$([ -d "$tmp/own-logs" ] && echo yes || echo no)"
  # Without --logs: no new folder under grade-results (in a copy of the
  # scripts, so the repository's own grade-results is not touched).
  local copy=$tmp/copy
  mkdir -p "$copy/scripts"
  copy_grader "$copy/scripts"
  "$copy/scripts/grade.sh" render --bin-dir "$bin" --cache-dir "$tmp/cache-copy" --scenes rgbb 2>/dev/null
  expect_eq "unknown scene: no new folder in grade-results" "" "$(find "$copy/grade-results" -mindepth 1 2>/dev/null)"
  usage "option=value form" "--size: 'big' is not a size" --size=big
  usage "empty reference program" "--ref-render needs a value" render --ref-render=
  usage "empty saxpy count" "--saxpy-n needs a number" saxpy --saxpy-n=
  usage "empty saxpy count, apart" "--saxpy-n needs a number" saxpy --saxpy-n ""
  usage "empty log folder" "--logs needs a value" --logs ""
  # An option where a folder should be is refused, not made into a folder.
  local option
  for option in --logs --build-dir --bin-dir --cache-dir; do
    usage "$option -h" "$option needs a folder, not '-h'" $option -h
  done
  usage "gradescope file a folder" "--gradescope: '/tmp' is a folder, not a file" --gradescope /tmp
  usage "gradescope file in no folder" "--gradescope: no folder '/nonexistent'" --gradescope /nonexistent/results.json
  grade seed_max render --renderer cpu --scenes rgb --seed 4294967295
  expect_eq "the largest seed render takes" 0 "$STATUS"
  expect_match "the largest seed: passed on to the judge" ' --seed 4294967296 ' "$(cat "$CALLS")"
  OUT=$("$grade" --help)
  expect_eq "help: exit status" 0 "$?"
  expect_match "help: usage line" '^Usage: scripts/grade.sh \[saxpy\|scan\|find_repeats\|render\|all' "$OUT"
}

test_missing_program() {
  mkdir -p "$tmp/empty"
  OUT=$("$grade" saxpy --bin-dir "$tmp/empty" --logs "$tmp/missing.logs" --cache-dir "$tmp/cache-missing" 2>"$tmp/stderr")
  STATUS=$?
  expect_eq "missing program: exit status" 1 "$STATUS"
  expect_match "missing program: named" "^grade.sh: $tmp/empty/judge is missing" "$(cat "$tmp/stderr")"
  expect_match "missing program: part not graded" '^saxpy: not graded' "$OUT"
  # Its line once where both streams are one, once on each where they are not.
  "$grade" saxpy --bin-dir "$tmp/empty" --logs "$tmp/missing2.logs" --cache-dir "$tmp/cache-missing" >"$tmp/both" 2>&1
  expect_eq "missing program: one not-graded line in one stream" 1 "$(grep -c 'saxpy: not graded' "$tmp/both")"
  "$grade" saxpy --bin-dir "$tmp/empty" --logs "$tmp/missing3.logs" --cache-dir "$tmp/cache-missing" >"$tmp/out" 2>"$tmp/err"
  expect_eq "missing program: the line on each of two streams" 1:1 \
    "$(grep -c 'saxpy: not graded' "$tmp/out"):$(grep -c 'saxpy: not graded' "$tmp/err")"
}

# A build folder whose cmake is a stand-in: shows when grade.sh builds.
test_build_when_stale() {
  local build=$tmp/build fakebin=$tmp/fakecmake
  mkdir -p "$build/bin" "$fakebin"
  touch "$build/CMakeCache.txt"
  # saxpy runs its workers in the judge's sandbox: the judge is built too.
  printf '#!/usr/bin/env bash\nexec "%s" "$@"\n' "$here/fake/judge" >"$build/bin/judge"
  fake_judge_workers "$build/bin"
  # The build runs in the build box (scripts/build_box.sh): it may write the
  # build folder alone, and sees nothing of this test's folder beside it.
  echo "outside the build" >"$tmp/beside-the-build"
  # shellcheck disable=SC2016  # the stand-in's own $* and test
  printf '#!/usr/bin/env bash\necho "cmake $* $([ -e "%s" ] && echo sees-beside)" >>"%s"\ntouch "%s"\n' \
    "$tmp/beside-the-build" "$build/cmake.calls" "$build/bin/judge_saxpy_rung_course" >"$fakebin/cmake"
  chmod +x "$build/bin/judge" "$fakebin/cmake"
  : >"$build/cmake.calls"
  PATH=$fakebin:$PATH "$grade" saxpy --build-dir "$build" --logs "$tmp/b1" --quiet >/dev/null 2>&1
  expect_eq "up to date: nothing built" "" "$(cat "$build/cmake.calls")"
  touch -d '2000-01-01' "$build/bin/judge_saxpy_rung_course"
  PATH=$fakebin:$PATH "$grade" saxpy --build-dir "$build" --logs "$tmp/b2" --quiet >/dev/null 2>&1
  if bwrap --unshare-all --ro-bind / / true 2>/dev/null; then
    expect_match "stale: built in the box, blind beside the build" "^cmake --build $build --target judge_saxpy_rung_course -j [0-9]+ \$" "$(cat "$build/cmake.calls")"
  else
    skip_part "the build box (bubblewrap cannot make a sandbox here)"
  fi
  : >"$build/cmake.calls"
  touch -d '2000-01-01' "$build/bin/judge_saxpy_rung_course"
  PATH=$fakebin:$PATH "$grade" saxpy --build-dir "$build" --logs "$tmp/b3" --quiet --unsandboxed >/dev/null 2>&1
  expect_match "stale, --unsandboxed: built outside the box" "^cmake --build $build --target judge_saxpy_rung_course -j [0-9]+ sees-beside\$" "$(cat "$build/cmake.calls")"
}
