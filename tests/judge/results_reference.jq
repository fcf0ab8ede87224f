# The jq program scripts/gradescope.sh wrote results.json with, before the
# judge did (`judge results`): kept here only as the reference that
# test_results_jq.cpp compares the judge's results.json with, byte for byte.
# Its inputs: $scores and $not_graded, the two tables' text; $execution_time,
# the seconds or "".
def rows: split("\n") | map(select(length > 0) | split("\t"))
  | .[0] as $header | .[1:] | map([$header, .] | transpose | map({(.[0]): (.[1] // "")}) | add);
def number: if test("^[0-9]+(\\.[0-9]+)?$") then tonumber else 0 end;
def test_of_row:
  {name: "\(.part) \(.item)", score: (.score | number), max_score: (.max_score | number),
   status: (if .verdict == "ok" then "passed" else "failed" end),
   output: ("verdict: \(.verdict)\nyour time: \(.your_ms) ms, reference time: \(.ref_ms) ms (\(.reference)), speedup \(.speedup)"
            + (if (.seed // "-") != "-" and .seed != "" then "\ncheck seed: \(.seed)" else "" end)
            + (if (.round_trip_ms // "-") != "-" then "\ntimed by the judge (its empty round trip: \(.round_trip_ms) ms)" else "" end)
            + (if (.note // "") != "" then "\nthe judge: \(.note)" else "" end))};
($not_graded | rows) as $skipped
| ([$scores | rows | .[] | test_of_row]
   + [$skipped[] | {name: "\(.part) (not graded)", score: 0, max_score: ((.max_score // "0") | number), status: "failed", output: .reason}]) as $tests
| {score: ([$tests[].score] | add // 0)}
+ (if $execution_time != "" then {execution_time: ($execution_time | tonumber)} else {} end)
+ {output: ([("Graded by scripts/grade.sh: one test per graded item.")]
            + [$skipped[] | "\(.part): not graded: \(.reason)"] | join("\n")),
   visibility: "visible", stdout_visibility: "hidden", tests: $tests}
