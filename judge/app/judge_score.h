// `judge score`: one row's score by the course's contract
// (judge/contract.h), from the reference's time and the graded worker's.
// The grader's only arithmetic on a row is here.
#pragma once

#include <optional>
#include <string>

#include "judge/contract.h"
#include "judge_rows.h"

namespace judge_app {

// A row's times, ms, each where known: the reference's best and median, the
// graded worker's best and median (a median not known: its best).
struct RowTimes {
  std::optional<double> ref, ref_median, best, median;
};

// The score's fields (ref_ms, score, max_score, score_low, score_high,
// speedup; judge score --help says what each is). `ok` false: the row was
// rejected and scores 0.
Fields score_fields(const judge::ScoreRule& rule, bool ok, const RowTimes& times);

extern const char kScoreUsage[];

// `judge score ARGS...` (argv[0] is "score"): prints the row's score as one
// JSON object. Throws common::UsageError.
int run_score(int argc, char** argv);

} // namespace judge_app
