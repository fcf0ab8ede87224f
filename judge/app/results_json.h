// Gradescope's results.json (its "Autograder Specifications", section
// "Output format") from a grade.sh log folder's rows: one test per row of
// scores.tsv (name, score, max_score, status, output), and one test
// scoring 0 per row of not_graded.tsv (a part that could not be graded, out
// of the points it could still have scored, its reason as the output), so
// the student sees why and the total's maximum is the assignment's.
//
// Byte for byte what the jq program that wrote it before wrote (jq 1.6,
// kept as the reference in tests/judge/results_reference.jq): its keys in
// its order, its two-space layout, its numbers and its string escapes.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "log_tables.h"

namespace judge_app {

// A number as jq 1.6 prints one: the shortest digits that read back as
// `v`, in an exponent form below 1e-4 and past 15 zeros of padding.
std::string jq_number(double v);

// A cell read as a score: its number where it is digits with at most one
// point inside (5, 2.5, 0.001), else 0 ("-", "", 1e5, -1).
double score_number(const std::string& text);

// The results.json text, a line break at its end. `execution_time`: the
// grade's seconds, where known. Throws std::runtime_error for a scores.tsv
// row with no score or max_score column (as jq failed on one).
std::string gradescope_results(const std::vector<ScoreRow>& scores,
                               const std::vector<NotGradedRow>& not_graded,
                               std::optional<long> execution_time);

} // namespace judge_app
