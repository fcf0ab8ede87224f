// The trusted judge of saxpy (result = a * x + y over n floats). It owns
// the arrays, starts the worker in the sandbox and times two kinds of call
// on its own clock, each on fresh random inputs and a fresh a, each checked
// bit for bit against the serial reference it computes itself: the course's
// whole trip (host arrays in, host result out) and the kernel alone (device
// arrays in, device result out, both the judge's, so nothing is read back).
// GPU work left running after an answer is charged to the call, as for
// scan. Nothing the worker prints or reports about itself counts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "judge/sandbox.h"
#include "judge/scan_judge.h"

namespace judge {

struct SaxpyRow {
  std::string test; // "saxpy_trip" or "saxpy_kernel"
  std::int64_t n = 0;
  bool correct = false;
  std::vector<double> times_ms; // each timed call, with what was charged to it
  double charged_ms = 0;        // the most GPU work seen after one answer
  double empty_ms = 0;          // the fastest round trip of an empty request
  std::string reason;           // why it is not correct; empty when it is
};

// One worker, one size: `options.runs` trips, then as many kernel calls
// (options as for scan; the arrays of the kernel calls live in
// options.memory, those of the trip in host memory). Failures of the worker
// are the rows' reason (a failed trip rejects both rows); failures of the
// judge itself throw.
std::vector<SaxpyRow> judge_saxpy(std::int64_t n, const JudgeOptions& options,
                                  const SandboxPlan& plan);

// The judge's own device-to-device copy of `bytes` (median of a few, after a
// warm-up), in ms: the ceiling the kernel's rate is compared with.
double device_copy_ms(std::size_t bytes);

} // namespace judge
