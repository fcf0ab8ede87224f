#include "bench.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "bench_harness.h"
#include "common/cuda_check.h"
#include "common/device.h"
#include "common/device_buffer.h"
#include "common/host_memory.h"
#include "common/stream.h"
#include "device_memory.h"
#include "empty_launch.h"
#include "scan/reference.h"
#include "scan/scan.h"
#include "verify.h"

namespace scan_app {
namespace {

constexpr double kTimedBudgetMs = 300; // per algorithm and size
// Runs of the course's host timing, for each call and for the empty launch
// it is compared with: the best of more runs than the course's 3, so that the
// ratio of the two is not one run's noise.
constexpr int kCourseRuns = 20;

struct Row {
  std::int64_t n = 0;
  std::string algorithm; // or "memcpy"
  double median_us = 0;
  double course_ms = 0; // the course's host timing, best of kCourseRuns
  double bytes = 0;     // read + written
};

// The most scratch any algorithm needs for one test at one size.
std::size_t largest_scratch(Test test, std::int64_t n) {
  std::size_t scratch = 0;
  for (scan::Algorithm a : scan::all_algorithms())
    scratch = std::max(scratch, test == Test::kScan ? scan::Workspace::scan_bytes(n, a)
                                                    : scan::Workspace::find_repeats_bytes(n, a));
  return scratch;
}

// Throws, naming the bytes, when one test at one size cannot fit: on the
// device its input, output and scratch; on the host the input, the reference
// and a result. Called before anything of that size is allocated.
void require_memory(Test test, std::int64_t n) {
  const std::size_t array_bytes =
      static_cast<std::size_t>(std::max<std::int64_t>(n, 1)) * sizeof(int);
  const std::string what = "--bench -n " + std::to_string(n);
  require_device_memory(2 * array_bytes + largest_scratch(test, n),
                        what + " (input, output and scratch)");
  common::require_host_memory(3 * array_bytes, what + " (input, reference and result)");
}

// Runs one test at one size: checks, then times every algorithm and memcpy.
// Returns false on a wrong result (after printing it).
bool bench_one(Test test, const std::vector<int>& input, std::size_t l2_bytes,
               std::vector<Row>& rows) {
  const auto n = static_cast<std::int64_t>(input.size());
  std::vector<int> expected(input.size());
  std::int64_t expected_count = 0;
  if (test == Test::kScan)
    scan::exclusive_scan_serial(input.data(), expected.data(), n);
  else
    expected_count = scan::find_repeats_serial(input.data(), n, expected.data());

  common::CudaStream stream;
  scan::Workspace workspace;
  for (scan::Algorithm a : scan::all_algorithms()) {
    if (test == Test::kScan)
      workspace.reserve_scan(n, a, stream.get());
    else
      workspace.reserve_find_repeats(n, a, stream.get());
  }
  BufferSets sets =
      make_buffer_sets(input, l2_bytes, largest_scratch(test, n) + (std::size_t{256} << 20));
  common::DeviceBuffer<std::int64_t> d_count(1, "count");

  std::vector<int> result(input.size());
  for (scan::Algorithm a : scan::all_algorithms()) {
    auto op = [&](int s) {
      if (test == Test::kScan)
        scan::exclusive_scan(sets.in[s].data(), sets.out[s].data(), n, a, workspace, stream.get());
      else
        scan::find_repeats_async(sets.in[s].data(), n, sets.out[s].data(), d_count.data(), a,
                                 workspace, stream.get());
    };
    // Check first, on a poisoned output.
    CUDA_CHECK(cudaMemsetAsync(sets.out[0].data(), 0xff, sets.out[0].bytes(), stream.get()));
    op(0);
    std::int64_t count = n;
    if (test == Test::kFindRepeats) d_count.copy_to_host_async(&count, 1, stream.get());
    stream.synchronize();
    if (!verify_output(test, sets.out[0], n, count, expected, expected_count, result,
                       std::string(" (") + scan::algorithm_name(a) + ", n = " + std::to_string(n) +
                           ")"))
      return false;
    Row row;
    row.n = n;
    row.algorithm = scan::algorithm_name(a);
    row.median_us = 1e3 * median_event_ms(op, sets.count(), stream.get(), kTimedBudgetMs);
    // The course's timing of the whole call (find_repeats reads its count back).
    row.course_ms = course_host_ms(
        kCourseRuns, [] {},
        [&] {
          if (test == Test::kScan)
            op(0);
          else
            scan::find_repeats(sets.in[0].data(), n, sets.out[0].data(), a, workspace,
                               stream.get());
        });
    row.bytes =
        4.0 * static_cast<double>(n) + 4.0 * static_cast<double>(test == Test::kScan ? n : count);
    rows.push_back(row);
  }

  // memcpy of the same bytes: a copy of half of them reads and writes them all.
  Row copy;
  copy.n = n;
  copy.algorithm = "memcpy";
  copy.bytes = rows.back().bytes;
  const auto copy_bytes = static_cast<std::size_t>(copy.bytes / 2);
  copy.median_us =
      1e3 * median_event_ms(
                [&](int s) {
                  CUDA_CHECK(cudaMemcpyAsync(sets.out[s].data(), sets.in[s].data(), copy_bytes,
                                             cudaMemcpyDeviceToDevice, stream.get()));
                },
                sets.count(), stream.get(), kTimedBudgetMs);
  rows.push_back(copy);
  std::fprintf(stderr, "  %s n = %lld: done (%d buffer sets)\n", test_name(test),
               static_cast<long long>(n), sets.count());
  return true;
}

// The floor of the course's timing: the same host clock around one launch of
// an empty kernel and cudaDeviceSynchronize, best of kCourseRuns (after one
// launch outside the clock, which loads the kernel).
double empty_launch_ms() {
  common::CudaStream stream;
  launch_empty_kernel(stream.get());
  CUDA_CHECK(cudaDeviceSynchronize());
  return course_host_ms(
      kCourseRuns, [] {}, [&] { launch_empty_kernel(stream.get()); });
}

void print_table(Test test, const Options& opt, const std::vector<Row>& rows, double floor_ms) {
  std::printf("\n%s, int32, input %s, seed %u: median of CUDA-event timings after %d warm-ups,\n"
              "buffers rotated over at least 3x L2; GB/s = (bytes read + written) / time;\n"
              "vs cub = cub time / time; of memcpy = memcpy time of the same bytes / time;\n"
              "course ms = host clock around the call + cudaDeviceSynchronize, best of %d;\n"
              "course/floor = course ms / the empty launch + synchronize below\n",
              test == Test::kScan ? "exclusive_scan" : "find_repeats", scan::input_name(opt.input),
              opt.seed, kWarmups, kCourseRuns);
  std::printf("empty launch + synchronize: %.4f ms (host clock, best of %d)\n", floor_ms,
              kCourseRuns);
  std::printf("%11s  %-12s %11s %9s %8s %11s %10s %10s %12s\n", "n", "algorithm", "time us", "GB/s",
              "vs cub", "memcpy us", "of memcpy", "course ms", "course/floor");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    if (r.algorithm == "memcpy") continue;
    double cub_us = 0, copy_us = 0;
    for (const Row& o : rows)
      if (o.n == r.n) {
        if (o.algorithm == "cub") cub_us = o.median_us;
        if (o.algorithm == "memcpy") copy_us = o.median_us;
      }
    const double gbs = r.median_us > 0 ? r.bytes / (r.median_us * 1e-6) / 1e9 : 0;
    std::printf("%11lld  %-12s %11.1f %9.1f %7.2fx %11.1f %9.1f%% %10.4f %11.1fx\n",
                static_cast<long long>(r.n), r.algorithm.c_str(), r.median_us, gbs,
                r.median_us > 0 ? cub_us / r.median_us : 0, copy_us,
                r.median_us > 0 ? 100.0 * copy_us / r.median_us : 0, r.course_ms,
                floor_ms > 0 ? r.course_ms / floor_ms : 0);
  }
  std::fflush(stdout);
}

} // namespace

int run_bench(const Options& opt) {
  const common::DeviceInfo device = common::query_devices().front();
  std::printf("cudaScan --bench on %s, L2 %zu MB\n", common::short_device_name().c_str(),
              device.l2_bytes >> 20);
  const std::vector<Test> tests = opt.test_given
                                      ? std::vector<Test>{opt.test}
                                      : std::vector<Test>{Test::kScan, Test::kFindRepeats};
  const std::vector<std::int64_t> sizes =
      opt.n_given ? std::vector<std::int64_t>{opt.n}
                  : std::vector<std::int64_t>{10'000'000, 40'000'000, std::int64_t{1} << 28};

  std::vector<std::vector<Row>> rows(tests.size());
  for (std::int64_t n : sizes) {
    for (std::size_t t = 0; t < tests.size(); ++t)
      if (tests[t] == Test::kScan || n <= scan::kMaxRepeatsElements) require_memory(tests[t], n);
    std::vector<int> input(static_cast<std::size_t>(n));
    scan::fill_input(opt.input, input.data(), n, opt.seed);
    for (std::size_t t = 0; t < tests.size(); ++t) {
      if (tests[t] == Test::kFindRepeats && n > scan::kMaxRepeatsElements) continue;
      if (!bench_one(tests[t], input, device.l2_bytes, rows[t])) return 1;
    }
  }
  // The floor is measured per table, after the timed runs (the GPU is busy
  // and clocked up, as it is for the calls it is compared with).
  for (std::size_t t = 0; t < tests.size(); ++t)
    print_table(tests[t], opt, rows[t], empty_launch_ms());
  return 0;
}

} // namespace scan_app
