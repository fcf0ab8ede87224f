#!/usr/bin/env bash
# End-to-end tests of scripts/grade.sh on the fake programs of fake/ (the
# real command lines, recorded output, times set per test): tables, scores,
# references and their fallbacks, the cache, failures, usage errors. Needs
# no GPU and no build.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
grade=$here/../../scripts/grade.sh
# shellcheck source=tests/grade/testing.sh
source "$here/testing.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=$tmp/bin
mkdir -p "$bin"
for program in render cudaScan cudaSaxpy; do ln -s "$here/fake/$program" "$bin/$program"; done
# The course's reference binaries: the same fakes under their names.
ln -s "$here/fake/render" "$bin/render_ref"
ln -s "$here/fake/cudaScan" "$bin/cudaScan_ref"

# grade NAME ARGS...: runs grade.sh on the fakes with its own logs and
# cache (cache NAME shared by runs of one test); sets OUT, ERR, STATUS,
# LOGS and CALLS (the fakes' calls).
grade() {
  local name=$1
  shift
  LOGS=$tmp/$name.logs CALLS=$tmp/$name.calls
  rm -rf "$LOGS"
  : >"$CALLS"
  OUT=$(FAKE_CALLS=$CALLS "$grade" --bin-dir "$bin" --logs "$LOGS" --cache-dir "$tmp/cache-${CACHE:-$name}" \
    --runs 2 "$@" 2>"$tmp/stderr")
  STATUS=$?
  ERR=$(cat "$tmp/stderr")
}

# row TABLE_TEXT ITEM: the table row of ITEM, cells trimmed, "|"-separated.
row() { grep -E "^\| $2 " <<<"$1" | sed -E 's/ +\|/|/g; s/\| +/|/g'; }

test_render_cpu_scores() {
  FAKE_MS=rgb=5,pattern=30,rand10k=200 FAKE_CPUREF_MS=rgb=10,pattern=10,rand10k=10 \
    grade render_cpu render --renderer cpu --scenes rgb,pattern,rand10k
  expect_eq "render cpu: exit status" 0 "$STATUS"
  expect_match "render cpu: course header" '^\| Scene Name +\| Ref Time \(T_ref\) \| Your Time \(T\) +\| Score' "$OUT"
  expect_eq "render cpu: rgb row" "|rgb|10.0000|5.0000|9|2.00x|render -r cpuref (serial)|" "$(row "$OUT" rgb)"
  expect_eq "render cpu: pattern row (3x slower)" "|pattern|10.0000|30.0000|5|0.33x|render -r cpuref (serial)|" "$(row "$OUT" pattern)"
  expect_eq "render cpu: rand10k row (20x slower)" "|rand10k|10.0000|200.0000|2|0.05x|render -r cpuref (serial)|" "$(row "$OUT" rand10k)"
  expect_match "render cpu: total" '\| Total score: +\| 16/27 +\|' "$OUT"
  expect_match "render cpu: progress names scene and run" '^\[ *[0-9]+s\] render pattern \(2/3\): cpu renderer: run 2/2$' "$ERR"
  expect_match "render cpu: the log folder is named last" "^Logs and results .*: $LOGS\$" "$(tail -n 1 <<<"$OUT")"
  expect_match "render cpu: csv row" '^render,pattern,[0-9]+,"render -r cpuref \(serial\)",10.0000,30.0000,0.33x,ok,5,9$' "$(cat "$LOGS/scores.csv")"
  expect_match "render cpu: markdown total" '\*\*16/27\*\*' "$(cat "$LOGS/results.md")"
  expect_match "render cpu: every run in commands.txt" '^render/rand10k.cpu.run2.log: .*/render -r cpu -s 1024 -b 0:4 -f '"''"' rand10k$' "$(cat "$LOGS/commands.txt")"
  expect_no_match "render cpu: no colour when not a terminal" $'\033' "$OUT"
}

test_render_wrong_scene() {
  FAKE_WRONG=pattern grade render_wrong render --renderer cpu --scenes rgb,pattern --seed 4242
  expect_eq "wrong scene: exit status" 1 "$STATUS"
  expect_eq "wrong scene: (F) and no points" "|pattern|100.0000|10.0000 (F)|0|10.00x|render -r cpuref (serial)|" "$(row "$OUT" pattern)"
  expect_match "wrong scene: the mismatch on stderr" '^grade.sh: render pattern, seed 4242: wrong result: Mismatch detected at pixel' "$ERR"
  expect_match "wrong scene: replay command" '^grade.sh: replay: .*render -r cpu -s 1024 -S 4242 -c pattern$' "$ERR"
  expect_match "wrong scene: the check ran with the seed" 'render -r cpu -s 1024 -S 4242 -c --check-against [^ ]+/pattern-1024px-seed4242-[0-9a-f]{16}\.rgbaf -f  pattern$' "$(cat "$CALLS")"
  expect_match "wrong scene: total" '\| Total score: +\| 9/18 +\|' "$OUT"
}

test_render_reference_program() {
  FAKE_REF_MS=rgb=4,pattern=10 FAKE_MS=rgb=4,pattern=25 \
    grade render_ref render --scenes rgb,pattern --ref-render "$bin/render_ref"
  expect_eq "reference program: exit status" 0 "$STATUS"
  expect_eq "reference program: rgb" "|rgb|4.0000|4.0000|9|1.00x|render_ref -r cuda|" "$(row "$OUT" rgb)"
  expect_eq "reference program: pattern" "|pattern|10.0000|25.0000|5|0.40x|render_ref -r cuda|" "$(row "$OUT" pattern)"
  expect_match "reference program: course's options" '^render_ref -r cuda -s 1024 -b 0:4 -f  pattern$' "$(cat "$CALLS")"
  expect_no_match "reference program: no serial timing" 'cpuref -s 1024 -b 0:4' "$(cat "$CALLS")"
}

test_reference_program_without_gpu() {
  FAKE_NO_GPU=1 grade ref_nogpu render --renderer cpu --scenes rgb,pattern --ref-render "$bin/render_ref"
  expect_eq "reference without GPU: still graded" 0 "$STATUS"
  expect_match "reference without GPU: said once" '^grade.sh: reference render_ref -r cuda \(rgb\).*: no GPU: CUDA Error: no CUDA-capable device' "$ERR"
  expect_eq "reference without GPU: tried once" 1 "$(grep -c '^render_ref' "$CALLS")"
  expect_eq "reference without GPU: serial instead" "|pattern|100.0000|10.0000|9|10.00x|render -r cpuref (serial)|" "$(row "$OUT" pattern)"
}

test_cuda_renderer_without_gpu() {
  FAKE_NO_GPU=1 grade cuda_nogpu render --scenes rgb,pattern
  expect_eq "no GPU: exit status" 1 "$STATUS"
  expect_match "no GPU: one clear line" '^grade.sh: render: not graded: the cuda renderer needs a GPU: render: error: .*CUDA driver version is insufficient.*--renderer cpu' "$ERR"
  expect_no_match "no GPU: no table" 'Score table|Total score' "$OUT"
  expect_eq "no GPU: stops at the first scene" 0 "$(grep -c 'pattern' "$CALLS")"
}

test_render_cache() {
  local seed1 seed2
  CACHE=shared grade cache1 render --renderer cpu --scenes rgb,pattern
  expect_eq "cache: first run passes" 0 "$STATUS"
  expect_eq "cache: first run renders serial images and times" 6 "$(grep -c -- '-r cpuref' "$CALLS")"
  expect_match "cache: the serial image as exact floats" "^render -r cpuref -s 1024 -S [0-9]+ -b 0:1 -f $LOGS/work/reference-rgb --format rgbaf rgb\$" "$(cat "$CALLS")"
  expect_match "cache: check against the stored image" "^render -r cpu -s 1024 -S [0-9]+ -c --check-against $tmp/cache-shared/render/rgb-1024px-seed[0-9]+-[0-9a-f]{16}\.rgbaf -f  rgb\$" "$(cat "$CALLS")"
  seed1=$(grep '^render,rgb' "$LOGS/scores.csv" | cut -d, -f3)
  CACHE=shared grade cache2 render --renderer cpu --scenes rgb,pattern
  expect_eq "cache: second run passes" 0 "$STATUS"
  expect_eq "cache: second run renders nothing serially" 0 "$(grep -c -- '-r cpuref' "$CALLS")"
  expect_eq "cache: second run checks both scenes against stored images" 2 "$(grep -c -- ' -c --check-against ' "$CALLS")"
  expect_match "cache: said so" '^\[ *[0-9]+s\] render rgb \(1/2\): serial reference image from the cache$' "$ERR"
  expect_match "cache: named as cached" '^\| rgb .*\| render -r cpuref \(serial, cached\) +\|$' "$OUT"
  seed2=$(grep '^render,rgb' "$LOGS/scores.csv" | cut -d, -f3)
  expect_eq "cache: the cached seed is reused" "$seed1" "$seed2"
  CACHE=shared grade cache3 render --renderer cpu --scenes rgb,pattern --no-cache
  expect_match "no cache: a fresh image in the log folder" "^render -r cpu -s 1024 -S [0-9]+ -c --check-against $LOGS/render/rgb-1024px-seed[0-9]+-[0-9a-f]{16}\.rgbaf -f  rgb\$" "$(cat "$CALLS")"
  expect_eq "no cache: serial images and timing again" 6 "$(grep -c -- '-r cpuref' "$CALLS")"
  expect_eq "no cache: the cache is not written" 4 "$(find "$tmp/cache-shared" -type f | wc -l)"
}

test_render_without_check_against() {
  CACHE=old FAKE_CHECK_AGAINST=0 grade old1 render --renderer cpu --scenes rgb,pattern
  expect_eq "older render: passes" 0 "$STATUS"
  expect_match "older render: plain -c" '^render -r cpu -s 1024 -S [0-9]+ -c -f  rgb$' "$(cat "$CALLS")"
  expect_eq "older render: no serial image" 0 "$(grep -c -- '--format' "$CALLS")"
  CACHE=old FAKE_CHECK_AGAINST=0 grade old2 render --renderer cpu --scenes rgb,pattern
  expect_eq "older render: serial times still cached" 0 "$(grep -c -- '-r cpuref' "$CALLS")"
}

test_render_cache_wrong_image() {
  CACHE=bad grade bad1 render --renderer cpu --scenes rgb --seed 7
  echo "something else" >"$(ls "$tmp"/cache-bad/render/rgb-1024px-seed7-*.rgbaf)"
  CACHE=bad grade bad2 render --renderer cpu --scenes rgb --seed 7
  expect_eq "a different stored image fails the check" 1 "$STATUS"
  expect_match "and is marked (F)" '^\| rgb +\| [0-9.]+ +\| [0-9.]+ \(F\) +\| 0 ' "$OUT"
}

test_scan_reference_program() {
  FAKE_SCAN_MS=2 FAKE_REF_MS=1 grade scan_ref scan --counts 1000000,2000000 --ref-scan "$bin/cudaScan_ref"
  expect_eq "scan: exit status" 0 "$STATUS"
  expect_match "scan: course header" '^\| Element Count +\| Ref Time +\| Student Time +\| Score' "$OUT"
  expect_eq "scan: 2x slower" "|2000000|2.000|4.000|0.625|0.50x|cudaScan_ref|" "$(row "$OUT" 2000000)"
  expect_match "scan: total" '\| Total score: +\| 1.25/2.5 +\|' "$OUT"
  expect_match "scan: course's options" '^cudaScan_ref -m scan -i random -n 1000000$' "$(cat "$CALLS")"
}

test_scan_library_reference() {
  FAKE_SCAN_MS=1 FAKE_LIB_MS=1 grade scan_lib scan find_repeats --counts 1000000
  expect_eq "library: exit status" 0 "$STATUS"
  expect_eq "library: scan with -t" "|1000000|1.000|1.000|1.25|1.00x|cudaScan -t (library)|" "$(row "$OUT" 1000000 | head -n 1)"
  expect_eq "library: find_repeats with -t too" "|1000000|1.000|1.000|1.25|1.00x|cudaScan -t (library)|" "$(row "$OUT" 1000000 | tail -n 1)"
  expect_eq "library: two tables" 2 "$(grep -c '^Score table: ' <<<"$OUT")"
}

test_scan_serial_and_no_reference() {
  FAKE_NO_LIBRARY=1 FAKE_SERIAL=1 grade scan_serial scan --counts 1000000
  expect_eq "serial reference" "|1000000|10.000|1.000|1.25|10.00x|serial (cudaScan's check)|" "$(row "$OUT" 1000000)"
  expect_match "library failure said" "^grade.sh: library reference cudaScan -t \(library\) \(scan 1000000\): rejected its command line" "$ERR"
  FAKE_NO_LIBRARY=1 grade scan_none scan --counts 1000000,2000000
  expect_eq "no reference: still correct" 0 "$STATUS"
  expect_eq "no reference: not scored" "|1000000|-|1.000|n/a|-|none available|" "$(row "$OUT" 1000000)"
  expect_match "no reference: total says so" '\| Total score: +\| 0/2.5 \(2 not scored\) +\|' "$OUT"
  expect_eq "no reference: library tried once" 1 "$(grep -c -- ' -t' "$CALLS")"
}

test_scan_wrong_and_no_gpu() {
  FAKE_WRONG=scan:2000000 grade scan_wrong scan --counts 1000000,2000000
  expect_eq "scan wrong: exit status" 1 "$STATUS"
  expect_eq "scan wrong: (F)" "|2000000|2.000|2.000 (F)|0|1.00x|cudaScan -t (library)|" "$(row "$OUT" 2000000)"
  expect_match "scan wrong: the error line" '^grade.sh: scan 2000000: wrong result: Error: Device exclusive_scan outputs incorrect!' "$ERR"
  FAKE_NO_GPU=1 grade scan_nogpu find_repeats --counts 1000000
  expect_eq "scan without GPU: exit status" 1 "$STATUS"
  expect_match "scan without GPU: clear line" '^grade.sh: find_repeats: not graded: cudaScan needs a GPU: cudaScan: error: no CUDA device available' "$ERR"
  expect_no_match "scan without GPU: no table" 'Total score' "$OUT"
}

test_saxpy() {
  grade saxpy saxpy --saxpy-n 1000
  expect_eq "saxpy: exit status" 0 "$STATUS"
  expect_eq "saxpy: course variant" "|course|113.474|9.849|0.390|2867.373|0.757|" "$(row "$OUT" course)"
  expect_eq "saxpy: tuned variant" "|tuned|15.732|71.039|0.291|3843.358|1.014|" "$(row "$OUT" tuned)"
  expect_match "saxpy: N in the title" '^Saxpy timing table \(N = 100000000, best of 2, not scored\):$' "$OUT"
  expect_match "saxpy: options passed" '^cudaSaxpy -r 2 -n 1000$' "$(cat "$CALLS")"
  expect_match "saxpy: csv" '^tuned,15.732,71.039,0.291,3843.358,1.014,ok$' "$(cat "$LOGS/saxpy.csv")"
  FAKE_WRONG=1 grade saxpy_wrong saxpy
  expect_eq "saxpy wrong: exit status" 1 "$STATUS"
  expect_match "saxpy wrong: (F)" '^\| tuned +\| 15.732 \(F\)' "$OUT"
  FAKE_NO_GPU=1 grade saxpy_nogpu saxpy
  expect_eq "saxpy without GPU: exit status" 1 "$STATUS"
  expect_match "saxpy without GPU: clear line" '^grade.sh: saxpy: not graded: cudaSaxpy needs a GPU' "$ERR"
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
  usage "missing value" "--size needs a value" render --size
  usage "bad renderer" "--renderer: 'gpu' is not cuda or cpu" --renderer gpu
  usage "bad runs" "--runs: '0' is not a number" --runs 0
  usage "bad counts" "--counts: '1e6' is not" --counts 1e6
  usage "saxpy count past cudaSaxpy's limit" "--saxpy-n: '99999999999' is not a count" saxpy --saxpy-n 99999999999
  usage "bad seed" "--seed: 'x' is not auto, random or a seed" --seed x
  usage "missing reference" "--ref-render: '/nonexistent/render_ref' is not an executable program" --ref-render /nonexistent/render_ref
  usage "unknown scene" "render does not know the scene 'rgbb'" render --scenes rgb,rgbb
  usage "option=value form" "--size: 'big' is not a size" --size=big
  OUT=$("$grade" --help)
  expect_eq "help: exit status" 0 "$?"
  expect_match "help: usage line" '^Usage: scripts/grade.sh \[saxpy\|scan\|find_repeats\|render\|all' "$OUT"
}

test_missing_program() {
  mkdir -p "$tmp/empty"
  OUT=$("$grade" saxpy --bin-dir "$tmp/empty" --logs "$tmp/missing.logs" --cache-dir "$tmp/cache-missing" 2>"$tmp/stderr")
  STATUS=$?
  expect_eq "missing program: exit status" 1 "$STATUS"
  expect_match "missing program: named" "^grade.sh: $tmp/empty/cudaSaxpy is missing" "$(cat "$tmp/stderr")"
  expect_match "missing program: part not graded" '^saxpy: not graded' "$OUT"
}

# A build folder whose cmake is a stand-in: shows when grade.sh builds.
test_build_when_stale() {
  local build=$tmp/build fakebin=$tmp/fakecmake
  mkdir -p "$build/bin" "$fakebin"
  touch "$build/CMakeCache.txt"
  printf '#!/usr/bin/env bash\nexec "%s" "$@"\n' "$here/fake/cudaSaxpy" >"$build/bin/cudaSaxpy"
  chmod +x "$build/bin/cudaSaxpy"
  printf '#!/usr/bin/env bash\necho "cmake $*" >>"%s"\ntouch "%s"\n' "$tmp/cmake.calls" "$build/bin/cudaSaxpy" >"$fakebin/cmake"
  chmod +x "$fakebin/cmake"
  : >"$tmp/cmake.calls"
  PATH=$fakebin:$PATH "$grade" saxpy --build-dir "$build" --logs "$tmp/b1" --quiet >/dev/null 2>&1
  expect_eq "up to date: nothing built" "" "$(cat "$tmp/cmake.calls")"
  touch -d '2000-01-01' "$build/bin/cudaSaxpy"
  PATH=$fakebin:$PATH "$grade" saxpy --build-dir "$build" --logs "$tmp/b2" --quiet >/dev/null 2>&1
  expect_match "stale: built" "^cmake --build $build --target cudaSaxpy -j [0-9]+\$" "$(cat "$tmp/cmake.calls")"
}

test_render_cpu_scores
test_render_wrong_scene
test_render_reference_program
test_reference_program_without_gpu
test_cuda_renderer_without_gpu
test_render_cache
test_render_without_check_against
test_render_cache_wrong_image
test_scan_reference_program
test_scan_library_reference
test_scan_serial_and_no_reference
test_scan_wrong_and_no_gpu
test_saxpy
test_all
test_usage_errors
test_missing_program
test_build_when_stale
finish
