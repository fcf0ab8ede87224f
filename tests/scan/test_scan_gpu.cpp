// GPU tests of exclusive_scan: every algorithm against the serial reference.
#include <climits>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "common/cuda_check.h"
#include "common/device_buffer.h"
#include "common/stream.h"
#include "gpu_test.h"
#include "scan/reference.h"
#include "scan/scan.h"
#include "scan_test_util.h"

namespace {

using scan_test::same_prefix;

class ScanGpu : public GpuTestWithParam<scan::Algorithm> {
protected:
  scan::Algorithm algorithm() const { return GetParam(); }

  // Scans `input` on the device (out-of-place into a poisoned output) and
  // returns the result.
  std::vector<int> run(const std::vector<int>& input) {
    const auto n = static_cast<std::int64_t>(input.size());
    common::DeviceBuffer<int> d_in(input.size(), "in"), d_out(input.size(), "out");
    d_in.copy_from_host(input.data(), input.size());
    if (n) CUDA_CHECK(cudaMemset(d_out.data(), 0xab, d_out.bytes()));
    scan::exclusive_scan(d_in.data(), d_out.data(), n, algorithm(), workspace_);
    std::vector<int> out(input.size());
    d_out.copy_to_host(out.data(), out.size());
    return out;
  }

  ::testing::AssertionResult matches_reference(const std::vector<int>& input) {
    std::vector<int> want(input.size());
    scan::exclusive_scan_serial(input.data(), want.data(), static_cast<std::int64_t>(input.size()));
    return same_prefix(run(input), want, static_cast<std::int64_t>(input.size()));
  }

  scan::Workspace workspace_; // reused across calls, as a program would
  std::mt19937 rng_{scan_test::test_seed()};
};

TEST_P(ScanGpu, MatchesReferenceAtAwkwardSizes) {
  for (std::int64_t n : scan_test::awkward_sizes()) {
    SCOPED_TRACE("n = " + std::to_string(n) + ", " + scan_test::seed_note());
    {
      SCOPED_TRACE("ones");
      ASSERT_TRUE(matches_reference(scan_test::filled(n, 1)));
    }
    {
      SCOPED_TRACE("zeros");
      ASSERT_TRUE(matches_reference(scan_test::filled(n, 0)));
    }
    {
      SCOPED_TRACE("random 0..9");
      ASSERT_TRUE(matches_reference(scan_test::uniform(n, 0, 9, rng_)));
    }
    {
      SCOPED_TRACE("random over all of int32 (sums wrap)");
      ASSERT_TRUE(matches_reference(scan_test::uniform(n, INT_MIN, INT_MAX, rng_)));
    }
  }
}

TEST_P(ScanGpu, WrapsModulo2To32LikeTheReference) {
  EXPECT_EQ(run({INT_MAX, 1, 1, INT_MIN}), (std::vector<int>{0, INT_MAX, INT_MIN, INT_MIN + 1}));
  std::vector<int> ascending(300000);
  for (std::size_t i = 0; i < ascending.size(); ++i) ascending[i] = static_cast<int>(i);
  EXPECT_TRUE(matches_reference(ascending)); // the sum passes 2^31 after 65536 elements
}

TEST_P(ScanGpu, InPlace) {
  for (std::int64_t n :
       {std::int64_t{1}, std::int64_t{1000}, std::int64_t{4097}, std::int64_t{1000003}}) {
    SCOPED_TRACE("n = " + std::to_string(n) + ", " + scan_test::seed_note());
    const std::vector<int> input = scan_test::uniform(n, -100, 100, rng_);
    std::vector<int> want(input.size()), got(input.size());
    scan::exclusive_scan_serial(input.data(), want.data(), n);
    common::DeviceBuffer<int> d(input.size(), "data");
    d.copy_from_host(input.data(), input.size());
    scan::exclusive_scan(d.data(), d.data(), n, algorithm(), workspace_);
    d.copy_to_host(got.data(), got.size());
    ASSERT_TRUE(same_prefix(got, want, n));
  }
}

// Pointers 4 bytes past a 16-byte boundary, input, output or both: the
// vector paths (both arrays aligned) and the L2 prefetch (an aligned input of
// 2^24 items or more) must each step aside on their own condition.
TEST_P(ScanGpu, UnalignedArrays) {
  SCOPED_TRACE(scan_test::seed_note());
  for (std::int64_t n : {std::int64_t{100003}, (std::int64_t{1} << 24) + 5}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const std::vector<int> input = scan_test::uniform(n, 0, 9, rng_);
    std::vector<int> want(input.size()), got(input.size());
    scan::exclusive_scan_serial(input.data(), want.data(), n);
    common::DeviceBuffer<int> d_in(input.size() + 1, "in"), d_out(input.size() + 1, "out");
    for (const auto& [in_offset, out_offset] :
         {std::pair{1, 0}, std::pair{1, 1}, std::pair{0, 1}}) {
      CUDA_CHECK(cudaMemcpy(d_in.data() + in_offset, input.data(), input.size() * sizeof(int),
                            cudaMemcpyHostToDevice));
      CUDA_CHECK(cudaMemset(d_out.data(), 0xab, d_out.bytes()));
      scan::exclusive_scan(d_in.data() + in_offset, d_out.data() + out_offset, n, algorithm(),
                           workspace_);
      CUDA_CHECK(cudaMemcpy(got.data(), d_out.data() + out_offset, got.size() * sizeof(int),
                            cudaMemcpyDeviceToHost));
      ASSERT_TRUE(same_prefix(got, want, n))
          << "input offset " << in_offset << ", output offset " << out_offset;
    }
  }
}

// A race shows as an answer that changes between runs on the same input.
TEST_P(ScanGpu, RepeatedRunsGiveIdenticalResults) {
  const std::int64_t n = 9999991;
  SCOPED_TRACE(scan_test::seed_note());
  const std::vector<int> input = scan_test::uniform(n, 0, 9, rng_);
  std::vector<int> want(input.size());
  scan::exclusive_scan_serial(input.data(), want.data(), n);
  for (int run_index = 0; run_index < 5; ++run_index)
    ASSERT_TRUE(same_prefix(run(input), want, n)) << "run " << run_index;
}

TEST_P(ScanGpu, StreamAndOwnWorkspaceOverloads) {
  const std::int64_t n = 50000;
  const std::vector<int> input = scan_test::uniform(n, 0, 9, rng_);
  std::vector<int> want(input.size()), got(input.size());
  scan::exclusive_scan_serial(input.data(), want.data(), n);
  common::DeviceBuffer<int> d_in(input.size(), "in"), d_out(input.size(), "out");
  d_in.copy_from_host(input.data(), input.size());
  const common::CudaStream stream;
  scan::exclusive_scan(d_in.data(), d_out.data(), n, algorithm(), stream.get());
  stream.synchronize();
  d_out.copy_to_host(got.data(), got.size());
  EXPECT_TRUE(same_prefix(got, want, n));
}

INSTANTIATE_TEST_SUITE_P(Algorithms, ScanGpu, ::testing::ValuesIn(scan::all_algorithms()),
                         scan_test::algorithm_param_name);

} // namespace
