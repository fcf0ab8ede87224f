// `judge results`: Gradescope's results.json from a grade.sh log folder
// (results_json.h says what it holds), written whole or not at all.
#pragma once

namespace judge_app {

extern const char kResultsUsage[];

// `judge results ARGS...` (argv[0] is "results"). Throws
// common::UsageError, and std::runtime_error where it writes nothing.
int run_results(int argc, char** argv);

} // namespace judge_app
