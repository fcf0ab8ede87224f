#include "run_check.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <vector>

#include "bench_harness.h"
#include "common/cuda_check.h"
#include "common/device.h"
#include "common/device_buffer.h"
#include "common/host_memory.h"
#include "common/timer.h"
#include "device_memory.h"
#include "scan/reference.h"
#include "scan/scan.h"
#include "verify.h"

namespace scan_app {
namespace {

std::size_t workspace_bytes(Test test, std::int64_t n, scan::Algorithm algorithm) {
  return test == Test::kScan ? scan::Workspace::scan_bytes(n, algorithm)
                             : scan::Workspace::find_repeats_bytes(n, algorithm);
}

} // namespace

int run_check(const Options& opt) {
  common::print_device_banner(std::cout);
  const std::int64_t n = opt.n;
  // The course's lines first, in its order; ours (the serial time) after them.
  std::printf("Array size: %lld\n", static_cast<long long>(n));
  const std::vector<scan::Algorithm> algorithms =
      opt.all_algorithms ? scan::all_algorithms() : std::vector<scan::Algorithm>{opt.algorithm};

  std::size_t scratch = 0;
  for (scan::Algorithm a : algorithms) scratch = std::max(scratch, workspace_bytes(opt.test, n, a));
  const std::size_t array_bytes =
      static_cast<std::size_t>(std::max<std::int64_t>(n, 1)) * sizeof(int);
  require_device_memory(2 * array_bytes + scratch,
                        "-n " + std::to_string(n) + " (input, output and scratch)");
  common::require_host_memory(3 * array_bytes,
                              "-n " + std::to_string(n) + " (input, reference and result)");

  std::vector<int> input(static_cast<std::size_t>(n));
  std::vector<int> expected(static_cast<std::size_t>(n)), result(static_cast<std::size_t>(n));
  scan::fill_input(opt.input, input.data(), n, opt.seed);
  std::int64_t expected_count = 0;
  // The serial reference is timed too: the last-resort peer of the grading
  // script when no GPU reference is at hand.
  const common::Stopwatch serial_clock;
  if (opt.test == Test::kScan)
    scan::exclusive_scan_serial(input.data(), expected.data(), n);
  else
    expected_count = scan::find_repeats_serial(input.data(), n, expected.data());
  const double serial_ms = serial_clock.elapsed_ms();

  common::DeviceBuffer<int> d_in(static_cast<std::size_t>(n), "input");
  common::DeviceBuffer<int> d_out(static_cast<std::size_t>(std::max<std::int64_t>(n, 1)), "output");
  d_in.copy_from_host(input.data(), input.size());
  scan::Workspace workspace;

  // Poisoned before each run, so that an unwritten element cannot pass the check.
  const auto poison = [&] { CUDA_CHECK(cudaMemset(d_out.data(), 0xff, d_out.bytes())); };
  bool all_correct = true;
  for (scan::Algorithm algorithm : algorithms) {
    const std::string label =
        opt.all_algorithms ? std::string(" (") + scan::algorithm_name(algorithm) + ")" : "";
    std::int64_t count = 0;
    double ms;
    if (opt.test == Test::kScan) {
      workspace.reserve_scan(n, algorithm);
      ms = course_host_ms(opt.runs, poison, [&] {
        scan::exclusive_scan(d_in.data(), d_out.data(), n, algorithm, workspace);
      });
    } else {
      workspace.reserve_find_repeats(n, algorithm);
      ms = course_host_ms(opt.runs, poison, [&] {
        count = scan::find_repeats(d_in.data(), n, d_out.data(), algorithm, workspace);
      });
    }
    std::printf("%s GPU time: %.3f ms%s\n", opt.thrust ? "Thrust" : "Student", ms, label.c_str());

    if (!verify_output(opt.test, d_out, n, count, expected, expected_count, result, label)) {
      all_correct = false;
    } else {
      std::printf("%s outputs are correct!%s\n", opt.test == Test::kScan ? "Scan" : "Find_repeats",
                  label.c_str());
    }
    std::fflush(stdout);
  }
  std::printf("Serial CPU time: %.3f ms\n", serial_ms);
  return all_correct ? 0 : 1;
}

} // namespace scan_app
