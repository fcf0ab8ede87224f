// `judge score`: one row's score by the course's contract
// (judge/contract.h), from the reference's time and the graded worker's.
// The grader's only arithmetic on a row is here.
#pragma once

namespace judge_app {

extern const char kScoreUsage[];

// `judge score ARGS...` (argv[0] is "score"): prints the row's score as one
// JSON object. Throws common::UsageError.
int run_score(int argc, char** argv);

} // namespace judge_app
