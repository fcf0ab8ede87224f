// Helpers for the scan suite: fresh random inputs with a reported seed, and
// comparisons that name the first differing index.
#pragma once

#include <gtest/gtest.h>

#include <climits>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "scan/algorithm.h"
#include "test_seed.h"

namespace scan_test {

// One seed per run of the test program (tests/test_seed.h);
// SCAN_TEST_SEED=<number> repeats a failing run.
inline unsigned test_seed() {
  static const unsigned seed = test_seed_from("SCAN_TEST_SEED");
  return seed;
}

inline std::string seed_note() {
  return "SCAN_TEST_SEED=" + std::to_string(test_seed());
}

// Uniform values in [lo, hi].
inline std::vector<int> uniform(std::int64_t n, int lo, int hi, std::mt19937& rng) {
  std::uniform_int_distribution<int> pick(lo, hi);
  std::vector<int> v(static_cast<std::size_t>(n));
  for (int& x : v) x = pick(rng);
  return v;
}

inline std::vector<int> filled(std::int64_t n, int value) {
  return std::vector<int>(static_cast<std::size_t>(n), value);
}

// Runs of equal values, each 1 to 6 long.
inline std::vector<int> runs(std::int64_t n, std::mt19937& rng) {
  std::vector<int> v(static_cast<std::size_t>(n));
  std::uniform_int_distribution<int> length(1, 6), value(0, 1000);
  for (std::size_t i = 0; i < v.size();) {
    const int x = value(rng);
    for (int k = length(rng); k > 0 && i < v.size(); --k) v[i++] = x;
  }
  return v;
}

// Compares the first `count` elements; names the first difference.
inline ::testing::AssertionResult same_prefix(const std::vector<int>& got,
                                              const std::vector<int>& want, std::int64_t count) {
  for (std::int64_t i = 0; i < count; ++i)
    if (got[static_cast<std::size_t>(i)] != want[static_cast<std::size_t>(i)])
      return ::testing::AssertionFailure()
             << "first mismatch at index " << i << ": got " << got[static_cast<std::size_t>(i)]
             << ", expected " << want[static_cast<std::size_t>(i)];
  return ::testing::AssertionSuccess();
}

// Sizes around every boundary the algorithms have: warps, blocks (Kogge-Stone's
// 512, and 512² where its block sums take a second level), the course's
// 3072, single-pass tiles (the scan's 16384 items, find_repeats' 12288, and
// 4096 from an earlier tiling) and look-back windows (32 tiles: 524288 and
// 393216 items), a prime near 10M and 2^24 + 1 (long enough to prefetch).
inline std::vector<std::int64_t> awkward_sizes() {
  return {
      0,      1,      2,      31,     32,     33,     511,    512,     513,
      262143, 262144, 262145, 1023,   1024,   1025,   3071,   3072,    3073,
      4095,   4096,   4097,   12287,  12288,  12289,  16383,  16384,   16385,
      131071, 131072, 131073, 393215, 393217, 524287, 524289, 9999991, (std::int64_t{1} << 24) + 1};
}

// Test names for parameterized suites: "single_pass" for single-pass.
inline std::string algorithm_param_name(const ::testing::TestParamInfo<scan::Algorithm>& param) {
  std::string name = scan::algorithm_name(param.param);
  for (char& c : name)
    if (c == '-') c = '_';
  return name;
}

} // namespace scan_test
