#!/usr/bin/env bash
# Unit tests of scripts/grade_lib.sh: parsing recorded program output (ours
# and the course's formats, passes and failures), verdicts, the course's
# contract as read, seeds, cache names and the tables.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/grade_lib.sh
source "$here/../../scripts/grade_lib.sh"
# shellcheck source=tests/grade/testing.sh
source "$here/testing.sh"
fx=$here/fixtures
course=$fx/course  # the course's programs' real output
tmp_log=$(mktemp)
tmp_dir=$(mktemp -d)
trap 'rm -rf "$tmp_log" "$tmp_dir"' EXIT

test_render_parsing() {
  expect_eq "Total of our benchmark" 1.7926 "$(parse_render_total "$fx/render_bench.txt")"
  expect_eq "Total of the course's benchmark" 0.1177 "$(parse_render_total "$course/render_ref_cuda_bench_rgb.txt")"
  expect_eq "Total of the course's benchmark writing files" 0.5151 "$(parse_render_total "$course/render_ref_cuda_bench_file_rand10k.txt")"
  expect_eq "Total of the course's check run" 0.0868 "$(parse_render_total "$course/render_ref_cuda_check_rgb.txt")"
  expect_eq "no Total in the course's usage error" "" "$(parse_render_total "$course/render_ref_bad_scene.txt")"
  expect_eq "Total next to File IO lines" 0.0479 "$(parse_render_total "$fx/render_bench_write.txt")"
  expect_eq "no Total in a usage error" "" "$(parse_render_total "$fx/render_usage.txt")"
  expect_eq "Total of a failed check" "" "$(parse_render_total "$fx/render_check_fail.txt")"
  printf 'Total:    1.5000 ms\nTotal:    2.5000 ms\n' >"$tmp_log"
  expect_eq "the first Total of a log, as the course reads it" 1.5000 "$(parse_render_total "$tmp_log")"
  expect_eq "written frame" refimg_0000.ppm "$(parse_written_file "$fx/render_bench_write.txt")"
  expect_eq "nothing written" "" "$(parse_written_file "$fx/render_bench.txt")"
  if help_lists "$fx/render_help_check_against.txt" --check-against; then pass; else fail "help lists --check-against"; fi
  if help_lists "$fx/render_help.txt" --check-against; then fail "plain help has no --check-against"; else pass; fi
}

test_scan_parsing() {
  expect_eq "student time" 0.412 "$(parse_scan_time "$fx/scan_ok.txt")"
  expect_eq "thrust time" 0.287 "$(parse_scan_time "$fx/scan_thrust_ok.txt")"
  expect_eq "the course's scan" 0.363 "$(parse_scan_time "$course/cudaScan_ref_scan_random_1M.txt")"
  expect_eq "the course's thrust scan" 0.126 "$(parse_scan_time "$course/cudaScan_ref_scan_random_1M_thrust.txt")"
  expect_eq "the course's find_repeats" 0.454 "$(parse_scan_time "$course/cudaScan_ref_find_repeats_random_1M.txt")"
  printf 'Student GPU time: 2.931 ms\nStudent GPU time: 2.874 ms\n' >"$tmp_log"
  expect_eq "the first time line of a run, as the course reads it" 2.931 "$(parse_scan_time "$tmp_log")"
  expect_eq "find_repeats time" 0.233 "$(parse_scan_time "$fx/find_repeats_ok.txt")"
  expect_eq "time of a wrong run" 0.143 "$(parse_scan_time "$fx/scan_wrong.txt")"
  expect_eq "no time without a GPU" "" "$(parse_scan_time "$fx/scan_no_gpu.txt")"
}

# verdict NAME WANT STATUS FIXTURE PASS_RE
verdict() { expect_eq "$1" "$2" "$(classify_run "$3" "$fx/$4" "$5")"; }

test_verdicts() {
  verdict "render check passed" ok 0 render_check_pass.txt "$GRADE_RENDER_PASS_RE"
  verdict "render check failed" wrong 1 render_check_fail.txt "$GRADE_RENDER_PASS_RE"
  verdict "course check failed" wrong 1 render_course_check_fail.txt "$GRADE_RENDER_PASS_RE"
  verdict "a mismatch line even with status 0" wrong 0 render_course_check_fail.txt "$GRADE_RENDER_PASS_RE"
  verdict "benchmark without a check line" unverified 0 render_bench.txt "$GRADE_RENDER_PASS_RE"
  verdict "benchmark, Total needed" ok 0 render_bench.txt '^Total:'
  verdict "course benchmark" ok 0 course/render_ref_cuda_bench_rgb.txt '^Total:'
  verdict "course check passed" ok 0 course/render_ref_cuda_check_rgb.txt "$GRADE_RENDER_PASS_RE"
  verdict "course scan correct" ok 0 course/cudaScan_ref_scan_random_1M.txt "$GRADE_SCAN_PASS_RE"
  verdict "course find_repeats correct" ok 0 course/cudaScan_ref_find_repeats_random_1M.txt "$GRADE_SCAN_PASS_RE"
  verdict "course usage error" error 1 course/render_ref_bad_scene.txt ""
  printf '%s\n' "render: error while loading shared libraries: libcudart.so.12: cannot open shared object file" >"$tmp_log"
  expect_eq "a missing shared library" cannotrun "$(classify_run 127 "$tmp_log" "")"
  expect_eq "its reason" "$(cat "$tmp_log")" "$(first_failure_line "$tmp_log")"
  expect_eq "not executable" cannotrun "$(classify_run 126 "$tmp_log" "")"
  verdict "our program without a GPU" nogpu 1 render_no_gpu.txt ""
  verdict "course binary without a GPU" nogpu 1 render_course_no_gpu.txt ""
  verdict "CUDA renderer not in the build" error 1 render_cuda_stub.txt "$GRADE_RENDER_PASS_RE"
  verdict "usage error" usage 2 render_usage.txt ""
  verdict "time limit" timeout 124 render_bench.txt ""
  verdict "killed by a signal" crash 139 render_bench.txt ""
  verdict "scan correct" ok 0 scan_ok.txt "$GRADE_SCAN_PASS_RE"
  verdict "scan incorrect" wrong 1 scan_wrong.txt "$GRADE_SCAN_PASS_RE"
  verdict "find_repeats correct" ok 0 find_repeats_ok.txt "$GRADE_SCAN_PASS_RE"
  verdict "find_repeats incorrect" wrong 1 find_repeats_wrong.txt "$GRADE_SCAN_PASS_RE"
  verdict "scan without a GPU" nogpu 1 scan_no_gpu.txt "$GRADE_SCAN_PASS_RE"
  verdict "scan option unknown" usage 2 scan_usage.txt "$GRADE_SCAN_PASS_RE"
  expect_eq "failure line of a mismatch" \
    "Mismatch detected at pixel [17][203], value = 0.541176, expected 0.545098" \
    "$(first_failure_line "$fx/render_check_fail.txt")"
  expect_eq "failure line without a GPU" "$(cat "$fx/saxpy_no_gpu.txt")" "$(first_failure_line "$fx/saxpy_no_gpu.txt")"
  expect_eq "failure line of the stub" "render: error: the CUDA renderer is not available in this build yet" \
    "$(first_failure_line "$fx/render_cuda_stub.txt")"
  printf 'ok\n\033[1;31merror:\033[0m\tbad\001 "x" \377\r\n' >"$tmp_log"
  expect_eq "failure line of a coloured log: one line, no control characters" $'error: bad "x" \377 ' \
    "$(first_failure_line "$tmp_log")"
  expect_eq "one line of many" "a b c" "$(one_line $'a\nb\tc')"
}

test_totals_and_numbers() {
  expect_eq "render total" 23/27 "$(printf '9 9\n5 9\n9 9\n' | score_total)"
  expect_eq "scan total" 4.292/5 "$(printf '1.25 1.25\n0.625 1.25\n1.25 1.25\n1.166666667 1.25\n' | score_total)"
  # Four rows of 0.9375 (shown 0.938) make 3.75, not 3.752.
  expect_eq "scan total from exact scores" 3.75/5 "$(for _ in 1 2 3 4; do echo 0.9375 1.25; done | score_total)"
  expect_eq "a score as shown" 0.938 "$(round_score 0.9375)"
  expect_eq "a whole score as shown" 9 "$(round_score 9)"
  expect_eq "total with an unscored row" "2.5/3.75 (1 not scored)" "$(printf '1.25 1.25\nn/a 1.25\n1.25 1.25\n' | score_total)"
  expect_eq "smallest number" 0.5 "$(printf '2\n0.5\n10\n' | min_number)"
  expect_eq "smallest of none" "" "$(printf '' | min_number)"
}

test_references() {
  expect_eq "a missing program" "no such file" "$(program_problem "$tmp_dir/nothing")"
  echo data >"$tmp_dir/plain"
  expect_eq "a file that is not executable" "not executable (chmod +x it)" "$(program_problem "$tmp_dir/plain")"
  expect_eq "a folder" "not a regular file" "$(program_problem "$tmp_dir")"
  expect_eq "a program that runs" "" "$(program_problem "$(readlink -f "$BASH")")"
  # /bin/sh would run a program built for another machine as a script:
  # the ELF header tells first.
  foreign_program "$tmp_dir/foreign"
  expect_match "another architecture" '^exec format error: built for (aarch64|x86-64), this machine is ' \
    "$(program_problem "$tmp_dir/foreign")"
  expect_eq "a script is no ELF program" "" "$(elf_machine "$here/fake/render")"
}

test_load_and_cache_entries() {
  if is_busy 1 2; then pass; else fail "another task on 2 cores is busy"; fi
  if is_busy 0 2; then fail "no other task on 2 cores is not busy"; else pass; fi
  if is_busy 1 4; then fail "one other task on 4 cores is not busy"; else pass; fi
  if is_busy 2 4; then pass; else fail "two other tasks on 4 cores are busy"; fi
  if is_busy "" 2; then fail "an unknown load is not busy"; else pass; fi
  echo "96.7 0" >"$tmp_dir/quiet.ms"
  expect_eq "a quiet entry is used" 96.7 "$(cached_time "$tmp_dir/quiet.ms" 2)"
  echo "251.5 3.90" >"$tmp_dir/busy.ms"
  if cached_time "$tmp_dir/busy.ms" 2 >/dev/null; then fail "an entry measured under load is not used"; else pass; fi
  echo "garbage" >"$tmp_dir/bad.ms"
  if cached_time "$tmp_dir/bad.ms" 2 >/dev/null; then fail "a damaged entry is not used"; else pass; fi
  # The reader itself is one of the running tasks; a 1-minute load of 7
  # (the grader's own recent work) counts for nothing.
  echo "7.00 1.00 1.00 3/100 1" >"$tmp_dir/loadavg"
  expect_eq "other tasks running" 2 "$(GRADE_LOADAVG_FILE=$tmp_dir/loadavg other_runnable)"
  echo "7.00 1.00 1.00 1/100 1" >"$tmp_dir/loadavg"
  expect_eq "no other task running" 0 "$(GRADE_LOADAVG_FILE=$tmp_dir/loadavg other_runnable)"
  echo "garbage" >"$tmp_dir/loadavg"
  expect_eq "unknown: nothing" "" "$(GRADE_LOADAVG_FILE=$tmp_dir/loadavg other_runnable)"
}

# The course's contract as the grader reads it (the judge's own reading
# and its scores are judge_contract_tests').
test_contract() {
  expect_eq "the graded scenes" rgb,rand10k,rand100k,pattern,snowsingle,biglittle,rand1M,micro2M \
    "$(contract_value '.scenes | join(",")')"
  expect_eq "render's maximum over 8 scenes" 72 "$(contract_maximum render 8)"
  expect_eq "scan's maximum over 4 sizes" 5 "$(contract_maximum scan 4)"
  expect_eq "find_repeats' maximum over 3 sizes" 3.75 "$(contract_maximum find_repeats 3)"
  expect_eq "saxpy scores nothing" "" "$(contract_maximum saxpy 1)"
  expect_eq "a note where a median's score differs" \
    "within the timing's spread of a threshold: 0.9 to 1.25 at the medians' times (reference 1.0000 to 1.0000 ms, yours 1.1000 to 1.3 ms)" \
    "$(noise_note ok 1.25 0.9 1.25 1.0000 - 1.1000 1.3)"
  expect_eq "no note where none differs" "" "$(noise_note ok 1.25 1.25 1.25 1.0000 1.1 1.1000 1.3)"
  expect_eq "no note on a rejected row" "" "$(noise_note rejected 0 0.9 1.25 1.0000 1.1 1.1000 1.3)"
}

test_tables() {
  local tsv box md
  tsv=$'Scene Name\tRef Time (T_ref)\tYour Time (T)\tScore\tSpeedup\tReference\nrgb\t0.2500\t0.2000\t9\t1.25x\trender_ref -r cuda\nrand10k\t1.0000\t3.0000 (F)\t0\t0.33x\trender_ref -r cuda\nTOTAL\t9/18'
  box=$(printf '%s\n' "$tsv" | format_box_table "Score table" 4)
  expect_match "course header" '^\| Scene Name +\| Ref Time \(T_ref\) \| Your Time \(T\) +\| Score +\| Speedup +\| Reference +\|$' "$box"
  expect_match "row with (F)" '^\| rand10k +\| 1\.0000 +\| 3\.0000 \(F\) +\| 0 +\|' "$box"
  expect_match "total row" '^\| +\| Total score: +\| 9/18 +\|' "$box"
  expect_eq "every line of the box as wide" 1 "$(printf '%s\n' "$box" | sed -n '4,$p' | awk '{ print length($0) }' | sort -u | wc -l)"
  md=$(printf '%s\n' "$tsv" | format_markdown_table "Score table" 4)
  expect_match "markdown header" '^\| Scene Name \| Ref Time \(T_ref\) \| Your Time \(T\) \| Score \| Speedup \| Reference \|$' "$md"
  expect_match "markdown rule" '^\|---\|---\|---\|---\|---\|---\|$' "$md"
  expect_match "markdown total" '^\|  \|  \| \*\*Total score:\*\* \| \*\*9/18\*\* \|  \|  \|$' "$md"
  expect_eq "csv quoting" $'a,"b c","say ""hi"""\n1,2,3' "$(printf 'a\tb c\tsay "hi"\n1\t2\t3\n' | tsv_to_csv)"
}

test_render_parsing
test_scan_parsing
test_verdicts
test_totals_and_numbers
test_contract
test_references
test_load_and_cache_entries
test_tables
finish
