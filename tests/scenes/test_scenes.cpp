// Each scene against docs/scenes.md: counts, exact first and last circles (values
// recomputed here from the specification's formulas and the generator), order
// of depths, ranges, determinism.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>
#include <string>

#include "scene_compare.h"
#include "scenes/course_rand.h"
#include "scenes/scene.h"

namespace {

using scenes::Animation;
using scenes::CourseRand;
using scenes::Scene;

struct Circle {
  float x, y, z, radius, r, g, b;
};

void expect_circle(const Scene& s, std::size_t i, const Circle& c) {
  SCOPED_TRACE("circle " + std::to_string(i) + " of " + s.name);
  ASSERT_LT(i, s.size());
  EXPECT_EQ(s.x[i], c.x);
  EXPECT_EQ(s.y[i], c.y);
  EXPECT_EQ(s.z[i], c.z);
  EXPECT_EQ(s.radius[i], c.radius);
  EXPECT_EQ(s.r[i], c.r);
  EXPECT_EQ(s.g[i], c.g);
  EXPECT_EQ(s.b[i], c.b);
}

void expect_static_velocity(const Scene& s) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    ASSERT_EQ(s.vx[i], 0.0f);
    ASSERT_EQ(s.vy[i], 0.0f);
    ASSERT_EQ(s.vz[i], 0.0f);
  }
}

void expect_depths_descending(const Scene& s) {
  for (std::size_t i = 1; i < s.size(); ++i) ASSERT_GE(s.z[i - 1], s.z[i]) << "circle " << i;
}

void expect_in_range(const std::vector<float>& values, float low, float high, const char* what) {
  const auto [min_it, max_it] = std::minmax_element(values.begin(), values.end());
  EXPECT_GE(*min_it, low) << what;
  EXPECT_LE(*max_it, high) << what;
}

// The generator positioned after `skip` draws from a fresh seed.
CourseRand rng_after(std::uint32_t seed, std::size_t skip) {
  CourseRand rng(seed);
  for (std::size_t i = 0; i < skip; ++i) rng.next();
  return rng;
}

// The largest and smallest of the first n draws: the depths of the first and
// last circles of a random or sized scene.
std::pair<float, float> depth_extremes(std::uint32_t seed, std::size_t n) {
  CourseRand rng(seed);
  float high = -1.0f;
  float low = 2.0f;
  for (std::size_t i = 0; i < n; ++i) {
    const float u = rng.rand01();
    high = std::max(high, u);
    low = std::min(low, u);
  }
  return {high, low};
}

TEST(Scenes, CatalogListsEveryScene) {
  const std::vector<std::string> expected = {
      "rgb",     "rgby",    "rand10k",       "rand100k",  "rand1M",   "biglittle", "littlebig",
      "pattern", "micro2M", "bouncingballs", "fireworks", "hypnosis", "snow",      "snowsingle"};
  EXPECT_EQ(scenes::scene_names(), expected);
  ASSERT_EQ(scenes::scene_catalog().size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(scenes::scene_catalog()[i].name, expected[i]);
    EXPECT_FALSE(scenes::scene_catalog()[i].description.empty());
  }
}

TEST(Scenes, CatalogCountsMatchGeneratedScenes) {
  for (const scenes::SceneInfo& info : scenes::scene_catalog()) {
    const Scene s = scenes::load_scene(info.name);
    EXPECT_EQ(s.size(), info.circles) << info.name;
    EXPECT_EQ(s.name, info.name);
    for (const std::vector<float>* array :
         {&s.y, &s.z, &s.vx, &s.vy, &s.vz, &s.r, &s.g, &s.b, &s.radius}) {
      EXPECT_EQ(array->size(), s.size()) << info.name;
    }
    EXPECT_NO_THROW(scenes::validate_scene(s)) << info.name;
  }
}

TEST(Scenes, UnknownNameListsTheValidOnes) {
  try {
    scenes::load_scene("rand10K");
    FAIL() << "no exception";
  } catch (const std::invalid_argument& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("'rand10K'"), std::string::npos) << message;
    for (const std::string& name : scenes::scene_names()) {
      EXPECT_NE(message.find(name), std::string::npos) << name << " missing from: " << message;
    }
  }
  EXPECT_THROW(scenes::load_scene(""), std::invalid_argument);
}

TEST(Scenes, RgbIsTheSpecification) {
  const Scene s = scenes::load_scene("rgb");
  ASSERT_EQ(s.size(), 3u);
  expect_circle(s, 0, {0.4f, 0.5f, 0.75f, 0.3f, 1, 0, 0});
  expect_circle(s, 1, {0.5f, 0.5f, 0.5f, 0.3f, 0, 1, 0});
  expect_circle(s, 2, {0.6f, 0.5f, 0.25f, 0.3f, 0, 0, 1});
  expect_static_velocity(s);
  EXPECT_FALSE(s.snow);
  EXPECT_EQ(s.animation, Animation::None);
}

TEST(Scenes, RgbyIsTheSpecification) {
  const Scene s = scenes::load_scene("rgby");
  ASSERT_EQ(s.size(), 4u);
  expect_circle(s, 0, {0.25f, 0.25f, 0.75f, 0.19f, 1, 0, 0});
  expect_circle(s, 1, {0.3f, 0.3f, 0.5f, 0.19f, 0, 1, 0});
  expect_circle(s, 2, {0.5f, 0.5f, 0.25f, 0.25f, 0, 0, 1});
  expect_circle(s, 3, {0.2f, 0.2f, 0.9f, 0.1f, 1, 1, 0});
  expect_static_velocity(s);
}

TEST(Scenes, PatternIsTwoGridsWithDepthsFromTheLoadSeed) {
  constexpr std::uint32_t kSeed = 5;
  const Scene s = scenes::load_scene("pattern", kSeed);
  ASSERT_EQ(s.size(), 256u + 961u);
  CourseRand rng(kSeed);
  const float r = 1.0f / 32.0f;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const bool first_grid = i < 256;
    const std::size_t k = first_grid ? i : i - 256;
    const std::size_t side = first_grid ? 16 : 31;
    const float offset = first_grid ? r : 0.0f;
    const Circle expected{offset + static_cast<float>(k % side) / 16.0f,
                          offset + static_cast<float>(k / side) / 16.0f,
                          rng.rand01(),
                          r,
                          1.0f,
                          first_grid ? 0.0f : 1.0f,
                          0.0f};
    expect_circle(s, i, expected);
    if (HasFailure()) return;
  }
  expect_static_velocity(s);
}

// Random circles(n): per circle radius, x, y, then three colour draws.
struct RandomBand {
  const char* scene;
  std::size_t n;
  float radius_base, radius_scale;
  float color[3][2]; // base, scale for r, g, b
};

void PrintTo(const RandomBand& band, std::ostream* out) {
  *out << band.scene;
}

class RandomCircles : public testing::TestWithParam<RandomBand> {};

TEST_P(RandomCircles, FirstAndLastCirclesFollowTheDraws) {
  const RandomBand& band = GetParam();
  for (std::uint32_t seed : {0u, 77u}) {
    const Scene s = scenes::load_scene(band.scene, seed);
    ASSERT_EQ(s.size(), band.n);
    const auto [far_depth, near_depth] = depth_extremes(seed, band.n);
    for (const std::size_t i : {std::size_t{0}, band.n - 1}) {
      CourseRand rng = rng_after(seed, band.n + 6 * i);
      Circle c{};
      c.radius = band.radius_base + band.radius_scale * rng.rand01();
      c.x = rng.rand01();
      c.y = rng.rand01();
      c.z = i == 0 ? far_depth : near_depth;
      c.r = band.color[0][0] + band.color[0][1] * rng.rand01();
      c.g = band.color[1][0] + band.color[1][1] * rng.rand01();
      c.b = band.color[2][0] + band.color[2][1] * rng.rand01();
      expect_circle(s, i, c);
    }
    expect_depths_descending(s);
    expect_in_range(s.radius, band.radius_base, band.radius_base + band.radius_scale, "radius");
    expect_in_range(s.x, 0.0f, 1.0f, "x");
    expect_in_range(s.y, 0.0f, 1.0f, "y");
    expect_in_range(s.z, 0.0f, 1.0f, "z");
    expect_in_range(s.r, band.color[0][0], band.color[0][0] + band.color[0][1], "r");
    expect_in_range(s.g, band.color[1][0], band.color[1][0] + band.color[1][1], "g");
    expect_in_range(s.b, band.color[2][0], band.color[2][0] + band.color[2][1], "b");
    expect_static_velocity(s);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Scenes, RandomCircles,
    testing::Values(
        RandomBand{"rand10k", 10000, 0.02f, 0.06f, {{0.1f, 0.9f}, {0.2f, 0.5f}, {0.5f, 0.5f}}},
        RandomBand{"rand100k", 100000, 0.02f, 0.06f, {{0.3f, 0.9f}, {0.1f, 0.9f}, {0.1f, 0.4f}}},
        RandomBand{"rand1M", 1000000, 0.009f, 0.005f, {{0.2f, 0.5f}, {0.5f, 0.5f}, {0.1f, 0.4f}}}),
    [](const testing::TestParamInfo<RandomBand>& param) { return std::string(param.param.scene); });

TEST(Scenes, Micro2MIsSizedCirclesWithTheLargeColors) {
  const Scene s = scenes::load_scene("micro2M");
  constexpr std::size_t kN = 2000000;
  ASSERT_EQ(s.size(), kN);
  const auto [far_depth, near_depth] = depth_extremes(0, kN);
  for (const std::size_t i : {std::size_t{0}, kN - 1}) {
    CourseRand rng = rng_after(0, kN + 5 * i);
    Circle c{};
    c.radius = 0.001f;
    c.x = rng.rand01();
    c.y = rng.rand01();
    c.z = i == 0 ? far_depth : near_depth;
    c.r = 0.3f + 0.9f * rng.rand01();
    c.g = 0.1f + 0.3f * rng.rand01();
    c.b = 0.2f + 0.2f * rng.rand01();
    expect_circle(s, i, c);
  }
  expect_depths_descending(s);
  expect_in_range(s.radius, 0.001f, 0.001f, "radius");
}

// biglittle and littlebig: sized circles(10000, 0.25), then 1000 moved.
void check_big_and_little(const char* name, float c) {
  constexpr std::size_t kN = 10000;
  constexpr std::uint32_t kSeed = 3;
  const Scene s = scenes::load_scene(name, kSeed);
  ASSERT_EQ(s.size(), kN);
  const auto [far_depth, near_depth] = depth_extremes(kSeed, kN);
  CourseRand rng = rng_after(kSeed, kN);
  Circle first{};
  first.radius = 0.25f;
  first.x = rng.rand01();
  first.y = rng.rand01();
  first.z = far_depth;
  first.r = 0.1f + 0.9f * rng.rand01();
  first.g = 0.2f + 0.5f * rng.rand01();
  first.b = 0.5f + 0.5f * rng.rand01();
  expect_circle(s, 0, first);
  // The moves draw after all 10000 sized circles (5 draws each).
  CourseRand moves = rng_after(kSeed, kN + 5 * kN);
  for (std::size_t i = 9000; i < kN; ++i) {
    const float x = (0.9f - c) + 0.1f * moves.rand01();
    const float y = c + 0.1f * moves.rand01();
    ASSERT_EQ(s.x[i], x) << name << " circle " << i;
    ASSERT_EQ(s.y[i], y) << name << " circle " << i;
    ASSERT_EQ(s.radius[i], 0.05f);
  }
  EXPECT_EQ(s.z[kN - 1], near_depth);
  for (std::size_t i = 0; i < 9000; ++i) ASSERT_EQ(s.radius[i], 0.25f);
  expect_depths_descending(s);
}

TEST(Scenes, BigLittleMovesTheNearestThousand) {
  check_big_and_little("biglittle", 0.85f);
}
TEST(Scenes, LittleBigMovesTheNearestThousand) {
  check_big_and_little("littlebig", 0.05f);
}

TEST(Scenes, BouncingBallsDrawPositionThenVelocity) {
  const Scene s = scenes::load_scene("bouncingballs", 9);
  ASSERT_EQ(s.size(), 10u);
  EXPECT_EQ(s.animation, Animation::BouncingBalls);
  CourseRand rng(9);
  for (std::size_t i = 0; i < 10; ++i) {
    const float x = rng.rand01();
    const float y = rng.rand01();
    const float z = rng.rand01();
    expect_circle(s, i,
                  {x, y, z, 0.05f, i % 3 == 0 ? 1.0f : 0.0f, i % 3 == 1 ? 1.0f : 0.0f,
                   i % 3 == 2 ? 1.0f : 0.0f});
    EXPECT_EQ(s.vx[i], 0.0f);
    EXPECT_EQ(s.vy[i], rng.rand01());
    EXPECT_EQ(s.vz[i], 0.0f);
  }
}

TEST(Scenes, HypnosisRingsGrowOutward) {
  const Scene s = scenes::load_scene("hypnosis");
  ASSERT_EQ(s.size(), 25u);
  EXPECT_EQ(s.animation, Animation::Hypnosis);
  CourseRand rng(0);
  for (std::size_t i = 0; i < 25; ++i) {
    const float r = rng.rand01();
    const float g = rng.rand01();
    const float b = rng.rand01();
    expect_circle(s, i, {0.5f, 0.5f, 0.0f, 0.02f + static_cast<float>(i) * 0.02f, r, g, b});
  }
}

TEST(Scenes, KeepFirstCutsEveryArrayAlike) {
  const Scene full = scenes::load_scene("bouncingballs");
  Scene s = full;
  scenes::keep_first(s, 7);
  ASSERT_EQ(s.size(), 7u);
  EXPECT_NO_THROW(scenes::validate_scene(s));
  for (std::size_t i = 0; i < 7; ++i) {
    EXPECT_EQ(s.x[i], full.x[i]);
    EXPECT_EQ(s.vy[i], full.vy[i]);
    EXPECT_EQ(s.radius[i], full.radius[i]);
    EXPECT_EQ(s.b[i], full.b[i]);
  }
  scenes::keep_first(s, 100); // more than it holds: unchanged
  EXPECT_EQ(s.size(), 7u);
  scenes::keep_first(s, 0);
  EXPECT_EQ(s.size(), 0u);
  EXPECT_NO_THROW(scenes::validate_scene(s));
}

TEST(Scenes, FireworksSparksStartOnTheirShellsRim) {
  const Scene s = scenes::load_scene("fireworks", 4);
  ASSERT_EQ(s.size(), 15u + 15u * 20u);
  EXPECT_EQ(s.animation, Animation::Fireworks);
  CourseRand rng(4);
  for (std::size_t shell = 0; shell < 15; ++shell) {
    const float x = rng.rand01();
    const float y = rng.rand01();
    expect_circle(s, shell, {x, y, 0.0f, 0.005f, 1, 1, 1});
    for (int j = 0; j < 20; ++j) {
      const std::size_t i = 15 + shell * 20 + j;
      const float angle = (static_cast<float>(j) * 2.0f * 3.14159f) / 20.0f;
      const float c = std::cos(angle);
      const float sn = std::sin(angle);
      expect_circle(s, i,
                    {x + c * 0.005f, y + sn * 0.005f, 0.0f, 0.01f, shell % 3 == 0 ? 1.0f : 0.0f,
                     shell % 3 == 1 ? 1.0f : 0.0f, shell % 3 == 2 ? 1.0f : 0.0f});
      EXPECT_EQ(s.vx[i], c / 5.0f);
      EXPECT_EQ(s.vy[i], sn / 5.0f);
    }
  }
}

TEST(Scenes, SnowFallsFarthestFirstWithRadiiShrinkingWithDepth) {
  for (const char* name : {"snow", "snowsingle"}) {
    SCOPED_TRACE(name);
    const Scene s = scenes::load_scene(name);
    ASSERT_EQ(s.size(), 100000u);
    EXPECT_TRUE(s.snow);
    expect_depths_descending(s);
    for (std::size_t i = 1; i < s.size(); ++i) ASSERT_LE(s.radius[i - 1], s.radius[i]);
    expect_in_range(s.radius, 0.001f, 0.04f, "radius");
    EXPECT_LT(s.radius.front(), s.radius.back() / 20);
    expect_in_range(s.z, 0.0f, 1.0f, "z");
    for (std::size_t i = 0; i < s.size(); ++i) {
      ASSERT_GE(s.x[i], -s.radius[i]);
      ASSERT_LE(s.x[i], 1.0f + s.radius[i]);
      ASSERT_GE(s.y[i], -s.radius[i]);
      ASSERT_LE(s.y[i], 1.0f + s.radius[i]);
      ASSERT_LT(s.vy[i], 0.0f) << "flake " << i << " is not falling";
    }
  }
  EXPECT_EQ(scenes::load_scene("snow").animation, Animation::Snow);
  EXPECT_EQ(scenes::load_scene("snowsingle").animation, Animation::None);
}

// Distinct flakes rather than a frosted texture: the discs together cover the
// screen only a couple of times over (an even layer of 100,000 flakes of the
// old radii covered it 28 times), most flakes are far specks, and a few
// hundred near ones stand out large.
TEST(Scenes, SnowIsMostlyFarSpecksWithAFewLargeNearFlakes) {
  const Scene s = scenes::load_scene("snow");
  double area = 0;
  std::size_t large = 0, specks = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    area += 3.14159 * s.radius[i] * s.radius[i];
    if (s.radius[i] > 0.013f) ++large;
    if (s.radius[i] < 0.004f) ++specks;
  }
  EXPECT_LT(area, 2.5);
  EXPECT_GT(large, 100u);
  EXPECT_LT(large, 1000u);
  EXPECT_GT(specks, s.size() / 2);
}

// Parallax: over a second the nearest flakes fall much farther than the
// farthest, and every flake falls.
TEST(Scenes, NearSnowFallsFasterThanFar) {
  const Scene start = scenes::load_scene("snow", 5);
  Scene s = start;
  for (int frame = 0; frame < 60; ++frame) scenes::advance(s);
  const auto fallen = [&](std::size_t i) {
    const float dy = start.y[i] - s.y[i];
    return dy < 0 ? dy + 1.0f + 2 * s.radius[i] : dy; // wrapped around
  };
  double far = 0, near = 0;
  constexpr std::size_t kCount = 100;
  for (std::size_t i = 0; i < kCount; ++i) {
    EXPECT_GT(fallen(i), 0.f) << "far flake " << i;
    EXPECT_GT(fallen(s.size() - 1 - i), 0.f) << "near flake " << s.size() - 1 - i;
    far += fallen(i);
    near += fallen(s.size() - 1 - i);
  }
  EXPECT_GT(near, 5 * far);
}

TEST(Scenes, SnowSingleIsSnowAdvancedSixtyFrames) {
  Scene snow = scenes::load_scene("snow", 11);
  for (int frame = 0; frame < 60; ++frame) scenes::advance(snow);
  const Scene single = scenes::load_scene("snowsingle", 11);
  snow.name = single.name;
  snow.animation = Animation::None;
  EXPECT_TRUE(scenes_test::scenes_identical(snow, single));
}

TEST(Scenes, SameSeedSameSceneDifferentSeedDifferentScene) {
  for (const std::string& name : scenes::scene_names()) {
    if (name == "rand1M" || name == "micro2M") continue; // covered by their own tests
    SCOPED_TRACE(name);
    const Scene a = scenes::load_scene(name, 21);
    EXPECT_TRUE(scenes_test::scenes_identical(a, scenes::load_scene(name, 21)));
    const Scene other = scenes::load_scene(name, 22);
    if (name == "rgb" || name == "rgby") {
      EXPECT_TRUE(scenes_test::scenes_identical(a, other)); // no random draws
    } else {
      EXPECT_FALSE(scenes_test::scenes_identical(a, other));
    }
  }
}

TEST(Scenes, SeedZeroIsSeedOne) {
  for (const char* name : {"rand10k", "pattern", "fireworks", "snow"}) {
    EXPECT_TRUE(
        scenes_test::scenes_identical(scenes::load_scene(name, 0), scenes::load_scene(name, 1)))
        << name;
  }
}

} // namespace
