#!/usr/bin/env bash
# scripts/gradescope.sh and grade.sh --gradescope: the results.json they
# write follows Gradescope's documented format (checked with jq), one test
# per graded row, the rows' scores summed, parts that were not graded shown
# with their reason. Runs grade.sh on the grading tests' fake programs: no
# GPU, no build. The judge writes it (judge results; JUDGE_PROGRAM, the
# build's): the parts that need it skip without it. Skips (77) without jq,
# which checks the results here.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=tests/grade/testing.sh
source "$repo/tests/grade/testing.sh"
command -v jq >/dev/null || { echo "jq is not installed: skipped"; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# valid_results FILE: "ok", or what breaks Gradescope's format
# (Autograder Specifications, "Output format").
valid_results() {
  jq -r '
    def num: type == "number";
    def str: type == "string";
    def vis: . == null or IN("hidden", "after_due_date", "after_published", "visible");
    if type != "object" then "not an object"
    elif (.tests | type) != "array" then "no tests array"
    elif (.score != null and (.score | num | not)) then "score is not a number"
    elif (.execution_time != null and (.execution_time | num | not)) then "execution_time is not a number"
    elif (.output != null and (.output | str | not)) then "output is not a string"
    elif (.visibility | vis | not) or (.stdout_visibility | vis | not) then "bad visibility"
    elif ([.tests[] | select((.name | str) and (.score | num) and (.max_score | num)
                              and ((.output // "") | str) and (.visibility | vis)
                              and (.status == null or .status == "passed" or .status == "failed"))]
          | length) != (.tests | length) then "a test lacks name, score or max_score, or has a bad field"
    elif (.score != null and .score != ([.tests[].score] | add // 0)) then "score is not the sum of the tests"
    else "ok" end' "$1" 2>&1
}

# expect_results LABEL FILE NAMES SCORES: FILE is valid, with these test
# names and [score, max_score] pairs (compact JSON).
expect_results() {
  expect_eq "$1: valid results.json" ok "$(valid_results "$2")"
  expect_eq "$1: test names" "$3" "$(jq -c '[.tests[].name]' "$2")"
  expect_eq "$1: scores and maxima" "$4" "$(jq -c '[.tests[] | [.score, .max_score]]' "$2")"
}

# run_gradescope ARGS...: scripts/gradescope.sh on the build's judge.
run_gradescope() { "$repo/scripts/gradescope.sh" --bin-dir "$(dirname -- "${JUDGE_PROGRAM:-/nowhere/judge}")" "$@"; }

# have_judge WHAT: whether the judge is built; skips WHAT, saying so, if not.
have_judge() {
  [ -x "${JUDGE_PROGRAM:-}" ] && return 0
  skip_part "$1: the judge is not built (JUDGE_PROGRAM), which writes results.json"
  return 1
}

test_converter_on_a_log_folder() {
  have_judge "gradescope.sh on a log folder" || return
  local logs=$tmp/logs
  mkdir -p "$logs"
  {
    printf 'part\titem\tseed\treference\tref_ms\tyour_ms\tspeedup\tverdict\tscore\tmax_score\n'
    printf 'scan\t1000000\t-\tcudaScan_ref -a blelloch\t1.0000\t0.5000\t2.00x\tok\t1.25\t1.25\n'
    printf 'render\trgb\t42\trender_ref -r cuda, classic\t10.0000\t20.0000\t0.50x\twrong\t0\t9\n'
  } >"$logs/scores.tsv"
  printf 'part\treason\nrender\tthe "cuda" renderer needs a GPU\n' >"$logs/not_graded.tsv"
  run_gradescope --execution-time 12 "$logs" "$tmp/results.json" >/dev/null
  expect_eq "converter: exit status" 0 "$?"
  expect_results converter "$tmp/results.json" '["scan 1000000","render rgb","render (not graded)"]' \
    '[[1.25,1.25],[0,9],[0,0]]'
  expect_eq "converter: total" 1.25 "$(jq '.score' "$tmp/results.json")"
  expect_eq "converter: status" '["passed","failed","failed"]' "$(jq -c '[.tests[].status]' "$tmp/results.json")"
  expect_match "converter: quoted reference with a comma" 'render_ref -r cuda, classic' \
    "$(jq -r '.tests[1].output' "$tmp/results.json")"
  expect_match "converter: the seed to replay" '^check seed: 42$' "$(jq -r '.tests[1].output' "$tmp/results.json")"
  expect_eq "converter: reason of a part not graded" 'the "cuda" renderer needs a GPU' \
    "$(jq -r '.tests[2].output' "$tmp/results.json")"
  expect_eq "converter: execution time" 12 "$(jq '.execution_time' "$tmp/results.json")"
}

test_converter_errors() {
  local out status
  out=$(run_gradescope "$tmp/nowhere" "$tmp/r.json" 2>&1)
  status=$?
  expect_eq "no scores.tsv: exit status" 1 "$status"
  expect_match "no scores.tsv: one line" 'holds no scores.tsv' "$out"
  expect_eq "no scores.tsv: nothing written" no "$([ -e "$tmp/r.json" ] && echo yes || echo no)"
  # FILE a folder: refused, nothing moved into it.
  mkdir -p "$tmp/logs-ok" "$tmp/a-folder"
  printf 'part\titem\tscore\tmax_score\n' >"$tmp/logs-ok/scores.tsv"
  out=$(run_gradescope "$tmp/logs-ok" "$tmp/a-folder" 2>&1)
  status=$?
  expect_eq "FILE a folder: exit status" 1 "$status"
  expect_eq "FILE a folder: one line" "gradescope.sh: '$tmp/a-folder' is a folder, not a file" "$out"
  expect_eq "FILE a folder: nothing put in it" "" "$(ls -A "$tmp/a-folder")"
  "$repo/scripts/gradescope.sh" only-one >/dev/null 2>&1
  expect_eq "usage: exit status" 2 "$?"
  # No judge: says where it looked and how to build it.
  out=$("$repo/scripts/gradescope.sh" --bin-dir "$tmp/no-bin" "$tmp/logs-ok" "$tmp/r.json" 2>&1)
  status=$?
  expect_eq "no judge: exit status" 1 "$status"
  expect_match "no judge: one line" "^gradescope.sh: needs the judge, which is not built: no $tmp/no-bin/judge" "$out"
  expect_eq "no judge: nothing written" no "$([ -e "$tmp/r.json" ] && echo yes || echo no)"
}

test_grade_sh_writes_it() {
  local bin=$tmp/bin status scores
  mkdir -p "$bin"
  [ -x "${JUDGE_PROGRAM:-}" ] || { skip_part "grade.sh --gradescope: the judge is not built (JUDGE_PROGRAM), which scores every row"; return; }
  for program in render cudaScan; do ln -s "$repo/tests/grade/fake/$program" "$bin/$program"; done
  fake_judge "$bin"
  # The CPU renderer's reference is the serial time over the cores: 10 ms per
  # core on any machine.
  local serial=$((10 * $(nproc 2>/dev/null || echo 1)))
  FAKE_CALLS=$tmp/calls FAKE_WORKER_MS=judge_render_cpu/rgb=5,judge_render_cpu/pattern=30,judge_render_serial=$serial \
    "$repo/scripts/grade.sh" render --renderer cpu --scenes rgb,pattern --runs 1 --bin-dir "$bin" \
    --logs "$tmp/grade-logs" --cache-dir "$tmp/cache" --quiet --gradescope "$tmp/grade.json" >/dev/null 2>&1
  status=$?
  expect_eq "grade.sh --gradescope: exit status" 0 "$status"
  # The scores are grade.sh's own, as scores.csv has them (columns 9 and 10):
  # rgb 2x faster than the 10 ms reference scores 9, pattern 3x slower 5.
  scores=$(awk -F, 'NR > 1 { printf "%s[%s,%s]", sep, $9, $10; sep = "," }' "$tmp/grade-logs/scores.csv")
  expect_eq "grade.sh --gradescope: scores.csv's scores" "[9,9],[5,9]" "$scores"
  expect_results "grade.sh --gradescope (one test per scene, the table's scores)" "$tmp/grade.json" \
    '["render rgb","render pattern"]' '[[9,9],[5,9]]'
}

# Whatever bytes a log holds (an escape sequence, a byte that is not UTF-8,
# quotes, backslashes, a carriage return), results.json stays valid JSON.
test_converter_on_any_bytes() {
  have_judge "gradescope.sh on any bytes" || return
  local logs=$tmp/logs-bytes reason
  mkdir -p "$logs"
  printf 'part\titem\tseed\treference\tref_ms\tyour_ms\tspeedup\tverdict\tscore\tmax_score\n' >"$logs/scores.tsv"
  reason=$'build failed: \e[31merror\e[0m: "x\\y" \xff\xfe\r \x01 end'
  printf 'part\treason\nscan\t%s\n' "$reason" >"$logs/not_graded.tsv"
  run_gradescope "$logs" "$tmp/bytes.json" >/dev/null
  expect_eq "any bytes: exit status" 0 "$?"
  expect_results "any bytes" "$tmp/bytes.json" '["scan (not graded)"]' '[[0,0]]'
  expect_match "any bytes: the escape kept as an escape" 'u001b\[31merror' "$(cat "$tmp/bytes.json")"
  expect_match "any bytes: the reason's end kept" ' end$' "$(jq -r '.tests[0].output' "$tmp/bytes.json")"
}

# grade.sh on a judge whose output holds an escape sequence and a byte that
# is not UTF-8 (it grades nothing, as without a GPU; it writes results.json
# as the real judge does): results.json is valid, results.md and the
# not-graded row hold no control characters.
test_grade_sh_on_any_output() {
  have_judge "grade.sh on any output" || return
  local bin=$tmp/bin-bytes logs=$tmp/logs-any status
  mkdir -p "$bin"
  fake_judge_workers "$bin"
  cat >"$bin/judge" <<'SH'
#!/usr/bin/env bash
[ "$1" != results ] || exec "$JUDGE_PROGRAM" "$@"
printf '\e[31mno CUDA device\e[0m here \xff\t"quoted" \\ end\r\n' >&2
exit 1
SH
  chmod +x "$bin/judge"
  "$repo/scripts/grade.sh" saxpy --runs 1 --bin-dir "$bin" --logs "$logs" --quiet >/dev/null 2>&1
  status=$?
  expect_eq "grade.sh on any output: exit status" 1 "$status"
  expect_results "grade.sh on any output" "$logs/results.json" '["saxpy (not graded)"]' '[[0,0]]'
  expect_match "grade.sh on any output: the reason" 'needs a GPU: no CUDA device' \
    "$(jq -r '.tests[0].output' "$logs/results.json")"
  expect_eq "grade.sh on any output: no control characters in results.md" 0 \
    "$(LC_ALL=C grep -c $'[\x01-\x08\x0b-\x1f\x7f]' "$logs/results.md")"
  expect_eq "grade.sh on any output: one not-graded row of three fields" 3 \
    "$(awk -F '\t' 'NR == 2 { print NF }' "$logs/not_graded.tsv")"
}

# grade.sh where there is no judge: every part not graded, and no
# results.json (the judge writes it), saying why; the other results are.
test_grade_sh_without_judge() {
  local bin=$tmp/bin-none logs=$tmp/logs-none err status
  mkdir -p "$bin"
  ln -s "$repo/tests/grade/fake/cudaSaxpy" "$bin/cudaSaxpy"
  err=$("$repo/scripts/grade.sh" saxpy --bin-dir "$bin" --logs "$logs" --quiet 2>&1 >/dev/null)
  status=$?
  expect_eq "grade.sh without a judge: exit status" 1 "$status"
  expect_match "grade.sh without a judge: says why there is no results.json" \
    "^grade.sh: results.json is not written: it is the judge's to write, and judge is not available: it is not in $bin" "$err"
  expect_eq "grade.sh without a judge: no results.json, the rest written" "no yes" \
    "$([ -e "$logs/results.json" ] && echo yes || echo no) $([ -f "$logs/results.md" ] && echo yes || echo no)"
}

test_converter_on_a_log_folder
test_grade_sh_without_judge
test_converter_on_any_bytes
test_grade_sh_on_any_output
test_converter_errors
test_grade_sh_writes_it
finish
