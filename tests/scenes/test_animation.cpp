// The animation steps against the rules of docs/scenes.md, worked by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "scene_compare.h"
#include "scenes/animation.h"
#include "scenes/scene.h"

namespace {

using scenes::Animation;
using scenes::Scene;

constexpr float kDt = 1.0f / 60.0f;

TEST(BouncingBalls, FallsUnderGravityFrameByFrame) {
  float y = 0.5f;
  float vy = 0.25f;
  float expected_y = 0.5f;
  float expected_vy = 0.25f;
  for (int frame = 0; frame < 8; ++frame) {
    scenes::bouncing_ball_step(y, vy);
    expected_vy = expected_vy + (-2.8f * kDt);
    expected_y = expected_y + expected_vy * kDt;
    ASSERT_EQ(vy, expected_vy) << "frame " << frame;
    ASSERT_EQ(y, expected_y) << "frame " << frame;
  }
  EXPECT_LT(vy, 0.0f); // the upward start has turned into a fall
}

TEST(BouncingBalls, BouncesOnlyWhenBelowTheFloorAndFalling) {
  float y = -0.01f;
  float vy = -1.0f;
  scenes::bouncing_ball_step(y, vy);
  const float bounced = -1.0f * -0.8f + (-2.8f * kDt);
  EXPECT_EQ(vy, bounced);
  EXPECT_EQ(y, -0.01f + bounced * kDt);

  // Below the floor but rising: no bounce.
  y = -0.01f;
  vy = 0.5f;
  scenes::bouncing_ball_step(y, vy);
  EXPECT_EQ(vy, 0.5f + (-2.8f * kDt));

  // Above the floor and falling: no bounce.
  y = 0.2f;
  vy = -0.5f;
  scenes::bouncing_ball_step(y, vy);
  EXPECT_EQ(vy, -0.5f + (-2.8f * kDt));
}

TEST(BouncingBalls, ComesToRestAndStays) {
  // Just below the floor, falling at the speed whose bounce gravity undoes:
  // velocity and height barely change, so the ball stops.
  float y = -0.0001f;
  float vy = (-2.8f * kDt) / 1.8f;
  scenes::bouncing_ball_step(y, vy);
  EXPECT_EQ(y, 0.0f);
  EXPECT_EQ(vy, 0.0f);
  for (int frame = 0; frame < 10; ++frame) scenes::bouncing_ball_step(y, vy);
  EXPECT_EQ(y, 0.0f);
  EXPECT_EQ(vy, 0.0f);

  // Only both exactly zero skip the step.
  y = 0.0f;
  vy = 0.5f;
  scenes::bouncing_ball_step(y, vy);
  EXPECT_NE(y, 0.0f);
}

TEST(BouncingBalls, AdvanceMovesOnlyHeightAndVerticalSpeed) {
  Scene s = scenes::load_scene("bouncingballs");
  const Scene start = s;
  for (int frame = 0; frame < 200; ++frame) scenes::advance(s);
  EXPECT_TRUE(scenes_test::same_bits(s.x, start.x));
  EXPECT_TRUE(scenes_test::same_bits(s.z, start.z));
  EXPECT_TRUE(scenes_test::same_bits(s.radius, start.radius));
  EXPECT_FALSE(scenes_test::same_bits(s.y, start.y));
  for (std::size_t i = 0; i < s.size(); ++i) {
    EXPECT_GT(s.y[i], -0.2f) << "ball " << i << " fell through the floor";
    EXPECT_LT(s.y[i], 2.0f) << "ball " << i;
  }
}

TEST(Hypnosis, GrowsByOneHundredthThenRestartsPastOneHalf) {
  float radius = 0.47f;
  float expected = 0.47f;
  int restarts = 0;
  for (int frame = 0; frame < 200; ++frame) {
    const bool past = expected > 0.5f;
    expected = past ? 0.02f : expected + 0.01f;
    restarts += past ? 1 : 0;
    scenes::hypnosis_step(radius);
    ASSERT_EQ(radius, expected) << "frame " << frame;
    ASSERT_GE(radius, 0.02f);
    ASSERT_LE(radius, 0.51f + 1e-6f);
  }
  EXPECT_GE(restarts, 3);

  radius = 0.5f; // exactly 0.5 is not past it
  scenes::hypnosis_step(radius);
  EXPECT_EQ(radius, 0.5f + 0.01f);
  scenes::hypnosis_step(radius);
  EXPECT_EQ(radius, 0.02f);
}

TEST(Hypnosis, AdvanceChangesOnlyRadii) {
  Scene s = scenes::load_scene("hypnosis");
  const Scene start = s;
  scenes::advance(s);
  for (std::size_t i = 0; i < s.size(); ++i) {
    const float before = start.radius[i];
    EXPECT_EQ(s.radius[i], before > 0.5f ? 0.02f : before + 0.01f) << "ring " << i;
  }
  EXPECT_TRUE(scenes_test::same_bits(s.x, start.x));
  EXPECT_TRUE(scenes_test::same_bits(s.r, start.r));
}

#if defined(__GLIBC__)
// The table equals the C library's float cosine and sine of the course's
// angle (pi written as 3.14159), which the course computes on the host.
TEST(Fireworks, SparkDirectionsAreTheCourseAngles) {
  for (int j = 0; j < scenes::kSparksPerShell; ++j) {
    const float angle = (static_cast<float>(j) * 2.0f * scenes::kFireworkPi) / 20.0f;
    float c = 0.0f;
    float s = 0.0f;
    scenes::spark_direction(j, c, s);
    EXPECT_EQ(c, std::cos(angle)) << "spark " << j;
    EXPECT_EQ(s, std::sin(angle)) << "spark " << j;
  }
}
#endif

TEST(Fireworks, SparksMoveByVelocityOverSixty) {
  Scene s = scenes::load_scene("fireworks");
  const Scene start = s;
  scenes::advance(s);
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i < 15) {
      EXPECT_EQ(s.x[i], start.x[i]);
      EXPECT_EQ(s.y[i], start.y[i]);
      continue;
    }
    EXPECT_EQ(s.x[i], start.x[i] + start.vx[i] * kDt) << "spark " << i;
    EXPECT_EQ(s.y[i], start.y[i] + start.vy[i] * kDt) << "spark " << i;
    EXPECT_EQ(s.vx[i], start.vx[i]);
    EXPECT_EQ(s.vy[i], start.vy[i]);
  }
}

TEST(Fireworks, SparkRestartsOnTheRimOncePastAQuarter) {
  Scene s = scenes::load_scene("fireworks", 6);
  const Scene start = s;
  // Every spark leaves at speed 0.2 from distance 0.005: it passes 0.25
  // during frame 74 (0.005 + 74 * 0.2 / 60 > 0.25 > 0.005 + 73 * 0.2 / 60).
  for (int frame = 1; frame <= 73; ++frame) scenes::advance(s);
  for (std::size_t i = 15; i < s.size(); ++i) {
    const std::size_t shell = (i - 15) / 20;
    const float dx = s.x[i] - s.x[shell];
    const float dy = s.y[i] - s.y[shell];
    ASSERT_GT(std::sqrt(dx * dx + dy * dy), 0.24f) << "spark " << i << " restarted early";
  }
  scenes::advance(s);
  EXPECT_TRUE(scenes_test::scenes_identical(s, start)) << "all sparks back on the rim";

  // One spark, by hand, just inside the limit and moving out.
  float x = 0.5f + 0.2499f;
  float y = 0.5f;
  float z = 0.3f;
  float vx = 0.2f;
  float vy = 0.0f;
  float vz = 0.1f;
  const float shell_x[1] = {0.5f};
  const float shell_y[1] = {0.5f};
  const float shell_radius[1] = {0.005f};
  const int spark = 15 + 7; // shell 0, spark 7
  scenes::fireworks_step(spark, shell_x, shell_y, shell_radius, x, y, z, vx, vy, vz);
  const float angle = (7.0f * 2.0f * scenes::kFireworkPi) / 20.0f;
  float c = 0.0f;
  float sn = 0.0f;
  scenes::spark_direction(7, c, sn);
  EXPECT_NEAR(c, std::cos(angle), 1e-6f);
  EXPECT_EQ(x, 0.5f + c * 0.005f);
  EXPECT_EQ(y, 0.5f + sn * 0.005f);
  EXPECT_EQ(vx, c / 5.0f);
  EXPECT_EQ(vy, sn / 5.0f);
  EXPECT_EQ(z, 0.0f);
  EXPECT_EQ(vz, 0.0f);
}

TEST(Fireworks, SparkFindsItsShellFromItsIndex) {
  EXPECT_FALSE(scenes::is_spark(14));
  EXPECT_TRUE(scenes::is_spark(15));
  EXPECT_EQ(scenes::spark_shell(15), 0);
  EXPECT_EQ(scenes::spark_number(15), 0);
  EXPECT_EQ(scenes::spark_shell(34), 0);
  EXPECT_EQ(scenes::spark_number(34), 19);
  EXPECT_EQ(scenes::spark_shell(35), 1);
  EXPECT_EQ(scenes::spark_shell(314), 14);
  EXPECT_EQ(scenes::spark_number(314), 19);
}

TEST(Snow, NoiseIsInRangeAndMatchesTheLatticeAtIntegerPoints) {
  for (int iu = -3; iu < 3; ++iu) {
    for (int iv = -3; iv < 3; ++iv) {
      const float expected = static_cast<float>(scenes::snow_hash(iu, iv, 9) >> 8) / 16777216.0f;
      EXPECT_EQ(scenes::snow_noise(static_cast<float>(iu), static_cast<float>(iv), 9), expected);
    }
  }
  float previous = scenes::snow_noise(0.0f, 0.37f, 1);
  for (int k = 1; k <= 4000; ++k) {
    const float u = static_cast<float>(k) * 0.001f;
    const float value = scenes::snow_noise(u, 0.37f, 1);
    ASSERT_GE(value, 0.0f);
    ASSERT_LT(value, 1.0f);
    ASSERT_LT(std::fabs(value - previous), 0.01f) << "noise jumps at u = " << u; // smooth
    previous = value;
  }
  // Inputs beyond the lattice limit are clamped before the conversion to int
  // (a scene file may hold any finite value).
  EXPECT_EQ(scenes::snow_noise(3.5e10f, 0.3f, 2), scenes::snow_noise(1e6f, 0.3f, 2));
  EXPECT_EQ(scenes::snow_noise(0.3f, -3e38f, 2), scenes::snow_noise(0.3f, -1e6f, 2));
  EXPECT_GE(scenes::snow_noise(3e38f, -3e38f, 2), 0.0f);
  EXPECT_LT(scenes::snow_noise(-3e38f, 3e38f, 2), 1.0f);
}

TEST(Snow, FlakesFallAndWrapInsideTheScreen) {
  Scene s = scenes::load_scene("snow", 3);
  const Scene start = s;
  scenes::advance(s);
  double moved_down = 0.0;
  for (std::size_t i = 0; i < s.size(); ++i) moved_down += start.y[i] - s.y[i];
  EXPECT_GT(moved_down, 0.0);
  for (int frame = 0; frame < 600; ++frame) scenes::advance(s);
  for (std::size_t i = 0; i < s.size(); ++i) {
    ASSERT_GE(s.y[i], -s.radius[i]) << "flake " << i;
    ASSERT_LE(s.y[i], 1.0f + s.radius[i]) << "flake " << i;
    ASSERT_GE(s.x[i], -s.radius[i]) << "flake " << i;
    ASSERT_LE(s.x[i], 1.0f + s.radius[i]) << "flake " << i;
    ASSERT_LT(s.vy[i], 0.0f) << "flake " << i;
    ASSERT_LT(std::fabs(s.vx[i]), 1.0f) << "flake " << i;
  }
  EXPECT_TRUE(scenes_test::same_bits(s.z, start.z));
  EXPECT_TRUE(scenes_test::same_bits(s.radius, start.radius));
}

TEST(Snow, FlakeLeavingTheBottomComesBackAtTheTop) {
  float x = 0.5f;
  float y = -0.0099f;
  float vx = 0.0f;
  float vy = -0.5f;
  scenes::snow_step(x, y, 0.5f, vx, vy, 0.01f);
  EXPECT_GT(y, 0.9f);
  EXPECT_LE(y, 1.01f);
  x = 1.0099f;
  y = 0.5f;
  vx = 0.5f;
  scenes::snow_step(x, y, 0.5f, vx, vy, 0.01f);
  EXPECT_LT(x, 0.1f);
  EXPECT_GE(x, -0.01f);
}

TEST(Advance, StaticScenesDoNotChange) {
  for (const char* name : {"rgb", "pattern", "rand10k", "snowsingle"}) {
    Scene s = scenes::load_scene(name);
    const Scene start = s;
    scenes::advance(s);
    EXPECT_TRUE(scenes_test::scenes_identical(s, start)) << name;
  }
}

TEST(Advance, RejectsScenesItCannotStep) {
  Scene fireworks = scenes::load_scene("fireworks");
  fireworks.resize(scenes::kFireworksMaxCircles + 1); // a spark without a shell
  EXPECT_THROW(scenes::advance(fireworks), std::invalid_argument);

  Scene ragged = scenes::load_scene("rgb");
  ragged.vz.pop_back();
  EXPECT_THROW(scenes::advance(ragged), std::invalid_argument);
  EXPECT_THROW(scenes::validate_scene(ragged), std::invalid_argument);
}

} // namespace
