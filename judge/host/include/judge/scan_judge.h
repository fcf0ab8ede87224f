// The trusted judge of exclusive_scan and find_repeats. It owns the input and
// output arrays, starts the worker (the code under test) in the sandbox,
// gives every timed call a fresh random input, times each call on its own
// clock from request to answer, and checks each call's output against the
// serial reference it computes itself. Nothing the worker prints or reports
// about itself counts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "judge/judge_options.h"
#include "judge/sandbox.h"
#include "judge/shared_array.h"

namespace judge {

enum class ScanTest { kScan, kFindRepeats };

const char* test_name(ScanTest test);

// Scan and find_repeats need nothing beyond what every judge is told.
struct ScanJudgeOptions : JudgeOptions {};

struct ScanRow {
  ScanTest test = ScanTest::kScan;
  std::int64_t n = 0;
  bool correct = false;
  std::vector<double> times_ms; // each timed call: request to answer, plus
                                // GPU work seen running after the answer
  double charged_ms = 0;        // the most such work added to one call
  double empty_ms = 0;          // the fastest round trip of an empty request
  std::string reason;           // why it is not correct; empty when it is
};

// Runs `calibration_worker` (the judge's own, judge_calibration_worker) and
// returns the median cost of a probe right after its kernels.
double measure_switch_ms(const std::string& calibration_worker, const JudgeOptions& options,
                         const SandboxPlan& plan);

// One worker, one size: `runs` timed calls. Failures of the worker are the
// row's reason; failures of the judge itself (no GPU, no memory) throw.
ScanRow judge_scan(ScanTest test, std::int64_t n, const ScanJudgeOptions& options,
                   const SandboxPlan& plan);

// The graded worker and the reference timed interleaved: both alive, each
// pair of calls on one fresh input, the order alternating, each worker held
// still while the other is timed. At least `runs` pairs; then more, up to
// the contract's kMaxRuns, until the row's score is the same at the
// medians' times as at the best ones (stable).
struct ScanPair {
  ScanRow reference, graded;
  bool stable = false;
};
ScanPair judge_scan_pair(ScanTest test, std::int64_t n, const ScanJudgeOptions& options,
                         const std::string& reference_worker, const SandboxPlan& plan);

} // namespace judge
