// CPU tests: the serial references, the inputs, the names, and the argument
// checks that happen before any CUDA call.
#include <gtest/gtest.h>

#include <climits>
#include <cstdlib>
#include <stdexcept>
#include <vector>

#include "scan/inputs.h"
#include "scan/reference.h"
#include "scan/scan.h"

namespace {

std::vector<int> serial_scan(std::vector<int> in) {
  std::vector<int> out(in.size());
  scan::exclusive_scan_serial(in.data(), out.data(), static_cast<std::int64_t>(in.size()));
  return out;
}

std::vector<int> serial_repeats(const std::vector<int>& in) {
  std::vector<int> out(in.size());
  out.resize(static_cast<std::size_t>(
      scan::find_repeats_serial(in.data(), static_cast<std::int64_t>(in.size()), out.data())));
  return out;
}

TEST(ScanReference, ExclusiveSums) {
  EXPECT_EQ(serial_scan({}), std::vector<int>{});
  EXPECT_EQ(serial_scan({5}), std::vector<int>{0});
  EXPECT_EQ(serial_scan({1, 2, 3, 4}), (std::vector<int>{0, 1, 3, 6}));
  EXPECT_EQ(serial_scan({-3, 3, -3}), (std::vector<int>{0, -3, 0}));
}

TEST(ScanReference, WrapsModulo2To32) {
  EXPECT_EQ(serial_scan({INT_MAX, 1, 1}), (std::vector<int>{0, INT_MAX, INT_MIN}));
  EXPECT_EQ(serial_scan({INT_MIN, INT_MIN, 5}), (std::vector<int>{0, INT_MIN, 0}));
}

TEST(ScanReference, InPlace) {
  std::vector<int> v{2, 4, 6, 8};
  scan::exclusive_scan_serial(v.data(), v.data(), 4);
  EXPECT_EQ(v, (std::vector<int>{0, 2, 6, 12}));
}

TEST(FindRepeatsReference, Patterns) {
  EXPECT_EQ(serial_repeats({}), std::vector<int>{});
  EXPECT_EQ(serial_repeats({7}), std::vector<int>{});
  EXPECT_EQ(serial_repeats({7, 7}), std::vector<int>{0});
  EXPECT_EQ(serial_repeats({1, 1, 2, 2, 2, 3}), (std::vector<int>{0, 2, 3}));
  EXPECT_EQ(serial_repeats({1, 2, 3, 4}), std::vector<int>{});
  EXPECT_EQ(serial_repeats({4, 4, 4, 4}), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(serial_repeats({9, 9, 1, 2, 5, 5}), (std::vector<int>{0, 4}));
}

TEST(ScanReference, FirstMismatch) {
  const std::vector<int> a{1, 2, 3}, b{1, 5, 3};
  EXPECT_EQ(scan::first_mismatch(a.data(), b.data(), 3), 1);
  EXPECT_EQ(scan::first_mismatch(a.data(), a.data(), 3), 3);
  EXPECT_EQ(scan::first_mismatch(a.data(), b.data(), 0), 0);
}

TEST(ScanInputs, FixedKinds) {
  std::vector<int> v(6);
  scan::fill_input(scan::InputKind::kOnes, v.data(), 6, 1);
  EXPECT_EQ(v, std::vector<int>(6, 1));
  scan::fill_input(scan::InputKind::kZeros, v.data(), 6, 1);
  EXPECT_EQ(v, std::vector<int>(6, 0));
  scan::fill_input(scan::InputKind::kEqual, v.data(), 6, 1);
  EXPECT_EQ(v, std::vector<int>(6, 7));
  scan::fill_input(scan::InputKind::kAlternating, v.data(), 6, 1);
  EXPECT_EQ(v, (std::vector<int>{0, 1, 0, 1, 0, 1}));
  scan::fill_input(scan::InputKind::kAscending, v.data(), 6, 1);
  EXPECT_EQ(v, (std::vector<int>{0, 1, 2, 3, 4, 5}));
}

TEST(ScanInputs, RandomIsTheCoursesRandModTenForTheSeed) {
  std::vector<int> v(1000), again(1000), other(1000);
  scan::fill_input(scan::InputKind::kRandom, v.data(), 1000, 42);
  std::srand(42);
  for (int x : v) EXPECT_EQ(x, std::rand() % 10);
  scan::fill_input(scan::InputKind::kRandom, again.data(), 1000, 42);
  EXPECT_EQ(v, again);
  scan::fill_input(scan::InputKind::kRandom, other.data(), 1000, 43);
  EXPECT_NE(v, other);
}

TEST(ScanInputs, WideValuesMakeSumsWrap) {
  std::vector<int> v(100);
  scan::fill_input(scan::InputKind::kWide, v.data(), 100, 3);
  long long sum = 0;
  for (int x : v) {
    EXPECT_GE(x, 0);
    sum += x;
  }
  EXPECT_GT(sum, INT_MAX);
}

TEST(ScanNames, RoundTrip) {
  for (scan::Algorithm a : scan::all_algorithms())
    EXPECT_EQ(scan::find_algorithm(scan::algorithm_name(a)), a);
  for (scan::InputKind k : scan::all_inputs()) EXPECT_EQ(scan::find_input(scan::input_name(k)), k);
  EXPECT_FALSE(scan::find_algorithm("quick"));
  EXPECT_FALSE(scan::find_input("many"));
  // The ladder order: the textbook's first scan to the library.
  EXPECT_EQ(scan::algorithm_names(), "kogge-stone, blelloch, single-pass, cub");
}

// These throw before touching the device, so the pointers need not be real.
TEST(ScanArguments, RejectedBeforeAnyCudaCall) {
  int* fake = reinterpret_cast<int*>(std::uintptr_t{1} << 20);
  std::int64_t* count = reinterpret_cast<std::int64_t*>(std::uintptr_t{1} << 24);
  scan::Workspace ws;
  for (scan::Algorithm a : scan::all_algorithms()) {
    EXPECT_THROW(scan::exclusive_scan(fake, fake, -1, a, ws), std::invalid_argument);
    EXPECT_THROW(scan::exclusive_scan(fake, fake, scan::kMaxScanElements + 1, a, ws),
                 std::invalid_argument);
    EXPECT_THROW(scan::exclusive_scan(fake, fake + 1, 10, a, ws), std::invalid_argument);
    EXPECT_THROW(scan::exclusive_scan(fake + 9, fake, 10, a, ws), std::invalid_argument);
    EXPECT_THROW(scan::exclusive_scan(nullptr, fake, 10, a, ws), std::invalid_argument);
    EXPECT_THROW(scan::find_repeats_async(fake, 10, fake, count, a, ws), std::invalid_argument);
    EXPECT_THROW(scan::find_repeats_async(fake, 10, fake + 5, count, a, ws), std::invalid_argument);
    EXPECT_THROW(scan::find_repeats_async(fake, -2, fake + 100, count, a, ws),
                 std::invalid_argument);
    EXPECT_THROW(
        scan::find_repeats_async(fake, scan::kMaxRepeatsElements + 1, fake + 100, count, a, ws),
        std::invalid_argument);
    EXPECT_THROW(scan::find_repeats_async(fake, 10, fake + 100, nullptr, a, ws),
                 std::invalid_argument);
    EXPECT_THROW(scan::find_repeats(fake, 10, fake + 3, a, ws), std::invalid_argument);
  }
  EXPECT_EQ(ws.capacity_bytes(), 0u); // nothing was allocated
}

} // namespace
