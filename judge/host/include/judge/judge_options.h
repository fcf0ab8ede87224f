// What every judge (scan, saxpy, render) is told: the worker, where its
// arrays live, its logs, the timed calls, the limits of its waits, the
// seeds and the sandbox.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "judge/contract.h"
#include "judge/sandbox.h"
#include "judge/shared_array.h"

namespace judge {

struct JudgeOptions {
  std::string worker; // absolute path of the worker program
  MemoryKind memory = MemoryKind::kDevice;
  std::string log_dir;        // the worker's output: one log per row in it
  int runs = contract::kRuns; // timed calls, each on fresh inputs and checked
  double call_timeout_s = 10;
  double start_timeout_s = 60;
  std::uint64_t seed = 0; // 0: drawn from the system's entropy
  std::string secret;     // the grader's (seeds.h); with `seed`, the inputs
  // Device memory: what the judge's probe of the GPU costs right after an
  // honest worker's kernel (measure_switch_ms). A probe slower than that
  // means the worker's GPU work outlived its answer: the excess is added to
  // the call's time, and a large excess rejects the row.
  double switch_ms = 0;
  // Device memory: the most of the GPU's memory (MiB) a graded worker beside
  // a reference may hold, counted from what was free when it started
  // (looked at once it is ready and after each call); 0: no bound.
  std::int64_t gpu_memory_limit_mib = 16384;
  // When the judge's time is up (--time-limit): a row not done by then is
  // rejected ("time limit"), as is every row after it; the rows done keep
  // their grades.
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  SandboxOptions sandbox;
};

// Seconds left before `options`' deadline (a day and more when none).
double seconds_left(const JudgeOptions& options);
// The reason of a row the time limit ended or never started.
std::string time_limit_reason(bool started);

} // namespace judge
