// GPU tests of find_repeats: every algorithm against the serial reference.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "common/cuda_check.h"
#include "common/device_buffer.h"
#include "gpu_test.h"
#include "scan/reference.h"
#include "scan/scan.h"
#include "scan_test_util.h"

namespace {

using scan_test::same_prefix;

class FindRepeatsGpu : public GpuTestWithParam<scan::Algorithm> {
protected:
  ::testing::AssertionResult matches_reference(const std::vector<int>& input) {
    const auto n = static_cast<std::int64_t>(input.size());
    std::vector<int> want(input.size());
    const std::int64_t want_count = scan::find_repeats_serial(input.data(), n, want.data());
    common::DeviceBuffer<int> d_in(input.size(), "in"), d_out(input.size(), "out");
    d_in.copy_from_host(input.data(), input.size());
    if (n) CUDA_CHECK(cudaMemset(d_out.data(), 0xab, d_out.bytes()));
    const std::int64_t count =
        scan::find_repeats(d_in.data(), n, d_out.data(), GetParam(), workspace_);
    if (count != want_count)
      return ::testing::AssertionFailure() << "count " << count << ", expected " << want_count;
    std::vector<int> got(input.size());
    d_out.copy_to_host(got.data(), got.size());
    const ::testing::AssertionResult indices = same_prefix(got, want, count);
    if (!indices) return indices;
    // Nothing may be written past the count.
    for (std::int64_t i = count; i < n; ++i)
      if (got[static_cast<std::size_t>(i)] != static_cast<int>(0xabababab))
        return ::testing::AssertionFailure() << "output " << i << " past the count was written";
    return ::testing::AssertionSuccess();
  }

  scan::Workspace workspace_;
  std::mt19937 rng_{scan_test::test_seed()};
};

TEST_P(FindRepeatsGpu, MatchesReferenceOnEveryPatternAndSize) {
  for (std::int64_t n : scan_test::awkward_sizes()) {
    SCOPED_TRACE("n = " + std::to_string(n) + ", " + scan_test::seed_note());
    std::vector<int> ascending(static_cast<std::size_t>(n)), ends(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < ascending.size(); ++i) ascending[i] = ends[i] = static_cast<int>(i);
    if (n >= 4) { // repeats at both ends only
      ends[1] = ends[0];
      ends[ends.size() - 1] = ends[ends.size() - 2];
    }
    std::vector<int> alternating(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < alternating.size(); ++i) alternating[i] = static_cast<int>(i & 1);
    const struct {
      const char* name;
      std::vector<int> values;
    } cases[] = {
        {"runs", scan_test::runs(n, rng_)},
        {"no repeats (ascending)", ascending},
        {"no repeats (alternating)", alternating},
        {"all repeats", scan_test::filled(n, 7)},
        {"repeats at both ends", ends},
        {"random 0..9", scan_test::uniform(n, 0, 9, rng_)},
        {"random over all of int32", scan_test::uniform(n, INT32_MIN, INT32_MAX, rng_)},
    };
    for (const auto& c : cases) {
      SCOPED_TRACE(c.name);
      ASSERT_TRUE(matches_reference(c.values));
    }
  }
}

TEST_P(FindRepeatsGpu, RepeatedRunsGiveIdenticalResults) {
  const std::int64_t n = 9999991;
  SCOPED_TRACE(scan_test::seed_note());
  const std::vector<int> input = scan_test::uniform(n, 0, 9, rng_);
  for (int run_index = 0; run_index < 5; ++run_index)
    ASSERT_TRUE(matches_reference(input)) << "run " << run_index;
}

// As for the scan: unaligned input, short and long enough to prefetch.
TEST_P(FindRepeatsGpu, UnalignedInput) {
  SCOPED_TRACE(scan_test::seed_note());
  for (std::int64_t n : {std::int64_t{100003}, (std::int64_t{1} << 24) + 5}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const std::vector<int> input = scan_test::runs(n, rng_);
    std::vector<int> want(input.size()), got(input.size());
    const std::int64_t want_count = scan::find_repeats_serial(input.data(), n, want.data());
    common::DeviceBuffer<int> d_in(input.size() + 1, "in"), d_out(input.size() + 1, "out");
    CUDA_CHECK(cudaMemcpy(d_in.data() + 1, input.data(), input.size() * sizeof(int),
                          cudaMemcpyHostToDevice));
    const std::int64_t count =
        scan::find_repeats(d_in.data() + 1, n, d_out.data() + 1, GetParam(), workspace_);
    ASSERT_EQ(count, want_count);
    CUDA_CHECK(cudaMemcpy(got.data(), d_out.data() + 1,
                          static_cast<std::size_t>(count) * sizeof(int), cudaMemcpyDeviceToHost));
    EXPECT_TRUE(same_prefix(got, want, count));
  }
}

// The blocking call's count slot is reused from call to call: each count,
// 0 for the calls with no pair to compare, must be this call's.
TEST_P(FindRepeatsGpu, CountSlotReusedAcrossSizes) {
  SCOPED_TRACE(scan_test::seed_note());
  const std::int64_t sizes[] = {1000, 0, 12289, 1, 2, 1000, 0, 393217, 1, 3072};
  for (int pass = 0; pass < 2; ++pass)
    for (std::int64_t n : sizes) {
      SCOPED_TRACE("pass " + std::to_string(pass) + ", n = " + std::to_string(n));
      ASSERT_TRUE(matches_reference(scan_test::filled(n, 7))); // n - 1 repeats
      ASSERT_TRUE(matches_reference(scan_test::runs(n, rng_)));
    }
}

TEST_P(FindRepeatsGpu, AsyncCountLandsInDeviceMemory) {
  const std::vector<int> input{3, 3, 1, 2, 2, 2, 9};
  common::DeviceBuffer<int> d_in(input.size(), "in"), d_out(input.size(), "out");
  common::DeviceBuffer<std::int64_t> d_count(1, "count");
  d_in.copy_from_host(input.data(), input.size());
  scan::find_repeats_async(d_in.data(), 7, d_out.data(), d_count.data(), GetParam(), workspace_);
  std::int64_t count = -1;
  d_count.copy_to_host(&count, 1);
  ASSERT_EQ(count, 3);
  std::vector<int> got(3);
  d_out.copy_to_host(got.data(), 3);
  EXPECT_EQ(got, (std::vector<int>{0, 3, 4}));
}

INSTANTIATE_TEST_SUITE_P(Algorithms, FindRepeatsGpu, ::testing::ValuesIn(scan::all_algorithms()),
                         scan_test::algorithm_param_name);

} // namespace
