// The course generator against glibc's published first outputs and its rules.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "scenes/course_rand.h"

namespace {

using scenes::CourseRand;

std::vector<std::uint32_t> first_outputs(std::uint32_t seed, int count) {
  CourseRand rng(seed);
  std::vector<std::uint32_t> values;
  for (int i = 0; i < count; ++i) values.push_back(rng.next());
  return values;
}

TEST(CourseRand, MatchesKnownValuesForSeedOne) {
  const std::vector<std::uint32_t> expected = {1804289383u, 846930886u, 1681692777u, 1714636915u,
                                               1957747793u};
  EXPECT_EQ(first_outputs(1, 5), expected);
}

TEST(CourseRand, SeedZeroIsSeedOne) {
  EXPECT_EQ(first_outputs(0, 1000), first_outputs(1, 1000));
}

TEST(CourseRand, ReseedRestartsTheSequence) {
  CourseRand rng(7);
  const std::uint32_t first = rng.next();
  for (int i = 0; i < 100; ++i) rng.next();
  rng.reseed(7);
  EXPECT_EQ(rng.next(), first);
}

TEST(CourseRand, DifferentSeedsDiffer) {
  EXPECT_NE(first_outputs(1, 8), first_outputs(2, 8));
}

TEST(CourseRand, StaysInRangeForLargeSeeds) {
  // Seeds above 2^31 - 1 take the negative path of the Schrage steps.
  for (std::uint32_t seed : {2147483647u, 2147483648u, 4294967295u}) {
    CourseRand rng(seed);
    for (int i = 0; i < 10000; ++i) {
      const std::uint32_t value = rng.next();
      ASSERT_LE(value, CourseRand::kRandMax);
    }
  }
  EXPECT_NE(first_outputs(2147483648u, 8), first_outputs(2147483647u, 8));
}

TEST(CourseRand, Rand01IsValueOverTwoToThe31) {
  CourseRand values(12345);
  CourseRand floats(12345);
  for (int i = 0; i < 1000; ++i) {
    const float expected = static_cast<float>(values.next()) / 2147483648.0f;
    const float u = floats.rand01();
    ASSERT_EQ(u, expected);
    ASSERT_GE(u, 0.0f);
    ASSERT_LE(u, 1.0f);
  }
}

} // namespace

#if defined(__GLIBC__)
#include <cstdlib>

namespace {
// Where the C library is glibc, its own rand() is a second, independent
// reference for any seed.
TEST(CourseRand, MatchesThisGlibcRand) {
  for (unsigned seed : {0u, 1u, 2u, 42u, 12345u, 2147483647u, 2147483648u, 4294967295u}) {
    std::srand(seed);
    CourseRand rng(seed);
    for (int i = 0; i < 20000; ++i) {
      ASSERT_EQ(rng.next(), static_cast<std::uint32_t>(std::rand()))
          << "seed " << seed << " output " << i;
    }
  }
}
} // namespace
#endif
