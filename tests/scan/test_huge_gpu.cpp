// One run past 2^31 elements' worth of index arithmetic: 2^30 + 3 elements,
// so the Blelloch tree spans 2^31 and the look-back runs over 65537 tiles
// (scan) and 87382 (find_repeats). Values
// are 0 or 1, so the sum fits int32 and a wrong index cannot hide in a wrap.
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

class HugeGpu : public GpuTest {};

TEST_F(HugeGpu, EveryAlgorithmAt2To30Plus3) {
  const std::int64_t n = (std::int64_t{1} << 30) + 3;
  const auto count = static_cast<std::size_t>(n);
  // input, output, the composition's positions, and a margin for CUB and the runtime
  const std::size_t need = 3 * count * sizeof(int) + (std::size_t{1} << 30);
  std::size_t free = 0, total = 0;
  CUDA_CHECK(cudaMemGetInfo(&free, &total));
  if (free < need)
    GTEST_SKIP() << "needs " << need << " bytes of device memory, " << free << " free";
  SCOPED_TRACE(scan_test::seed_note());

  std::vector<int> input(count);
  std::mt19937 rng(scan_test::test_seed());
  for (std::size_t i = 0; i < count; i += 32) {
    const std::uint32_t bits = rng();
    for (std::size_t b = 0; b < 32 && i + b < count; ++b)
      input[i + b] = static_cast<int>((bits >> b) & 1u);
  }
  common::DeviceBuffer<int> d_in(count, "in"), d_out(count, "out");
  d_in.copy_from_host(input.data(), count);
  std::vector<int> want(count), got(count);
  scan::Workspace workspace;

  scan::exclusive_scan_serial(input.data(), want.data(), n);
  for (scan::Algorithm a : scan::all_algorithms()) {
    SCOPED_TRACE(std::string("exclusive_scan ") + scan::algorithm_name(a));
    CUDA_CHECK(cudaMemset(d_out.data(), 0xab, d_out.bytes()));
    scan::exclusive_scan(d_in.data(), d_out.data(), n, a, workspace);
    d_out.copy_to_host(got.data(), count);
    ASSERT_TRUE(scan_test::same_prefix(got, want, n));
  }

  const std::int64_t want_count = scan::find_repeats_serial(input.data(), n, want.data());
  for (scan::Algorithm a : scan::all_algorithms()) {
    SCOPED_TRACE(std::string("find_repeats ") + scan::algorithm_name(a));
    const std::int64_t got_count = scan::find_repeats(d_in.data(), n, d_out.data(), a, workspace);
    ASSERT_EQ(got_count, want_count);
    d_out.copy_to_host(got.data(), static_cast<std::size_t>(got_count));
    ASSERT_TRUE(scan_test::same_prefix(got, want, got_count));
  }
}

} // namespace
