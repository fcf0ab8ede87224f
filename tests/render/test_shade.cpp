// The shading rule of docs/scenes.md on cases computed by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "render/shade.h"

namespace {

namespace shade = render::shade;

void expect_box(const shade::PixelBox& box, int min_x, int max_x, int min_y, int max_y) {
  EXPECT_EQ(box.min_x, min_x);
  EXPECT_EQ(box.max_x, max_x);
  EXPECT_EQ(box.min_y, min_y);
  EXPECT_EQ(box.max_y, max_y);
}

TEST(CircleBox, CenteredCircle) {
  // (0.5 ∓ 0.25)·8 = 2 and 6; the upper bound gets + 1.
  expect_box(shade::circle_box(0.5f, 0.5f, 0.25f, 8, 8), 2, 7, 2, 7);
  // Width and height scale their own axis: y·4 = 1 and 3.
  expect_box(shade::circle_box(0.5f, 0.5f, 0.25f, 8, 4), 2, 7, 1, 4);
}

TEST(CircleBox, BoundsAreClampedToTheImage) {
  expect_box(shade::circle_box(1.0f, 0.0f, 0.5f, 8, 8), 4, 8, 0, 5);
  // Entirely left of and below the image: empty.
  const shade::PixelBox off = shade::circle_box(-1.0f, -1.0f, 0.1f, 8, 8);
  EXPECT_EQ(off.min_x, 0);
  EXPECT_EQ(off.max_x, 0);
}

TEST(CircleBox, TruncatesTowardZero) {
  // (x + r)·W = -0.4 truncates to 0, so max = 1: column 0 is in the box (a
  // floor would give 0 and an empty box).
  const shade::PixelBox box = shade::circle_box(-0.1f, 0.5f, 0.05f, 8, 8);
  EXPECT_EQ(box.min_x, 0);
  EXPECT_EQ(box.max_x, 1);
}

TEST(CircleBox, HugeAndNanValuesStayInTheImage) {
  const float inf = std::numeric_limits<float>::infinity();
  expect_box(shade::circle_box(1e30f, -1e30f, 1.f, 16, 16), 16, 16, 0, 0);
  const shade::PixelBox all = shade::circle_box(0.5f, 0.5f, inf, 16, 16);
  expect_box(all, 0, 16, 0, 16);
  const shade::PixelBox nan = shade::circle_box(std::nanf(""), 0.5f, 0.1f, 16, 16);
  EXPECT_GE(nan.min_x, 0);
  EXPECT_LE(nan.max_x, 16);
}

TEST(PixelCenter, IsHalfAPixelIn) {
  const float inv = shade::inverse_extent(4);
  EXPECT_EQ(inv, 0.25f);
  EXPECT_EQ(shade::pixel_center(0, inv), 0.125f);
  EXPECT_EQ(shade::pixel_center(3, inv), 0.875f);
  // 1/3 is rounded once, then (i + 0.5) · (1/3).
  const float third = 1.f / 3.f;
  EXPECT_EQ(shade::inverse_extent(3), third);
  EXPECT_EQ(shade::pixel_center(2, third), 2.5f * third);
}

TEST(Coverage, TheRimIsIncluded) {
  // dx = 0.25, dy = 0: d² = 0.0625 = r² exactly.
  const float d2 = shade::distance_squared(0.5f, 0.5f, 0.25f, 0.5f);
  EXPECT_EQ(d2, 0.0625f);
  EXPECT_TRUE(shade::covers(d2, 0.25f));
  EXPECT_FALSE(shade::covers(d2, std::nextafter(0.25f, 0.f)));
  // dx·dx + dy·dy: 0.375² + 0.125² = 0.15625.
  EXPECT_EQ(shade::distance_squared(0.5f, 0.5f, 0.125f, 0.375f), 0.15625f);
  EXPECT_FALSE(shade::covers(std::nanf(""), 1.f));
}

TEST(Blend, FlatCircleIsHalfTransparent) {
  float p[4] = {1.f, 1.f, 1.f, 1.f};
  shade::blend(p, shade::flat_contribution(1.f, 0.f, 0.f));
  EXPECT_EQ(p[0], 1.f);
  EXPECT_EQ(p[1], 0.5f);
  EXPECT_EQ(p[2], 0.5f);
  EXPECT_EQ(p[3], 1.5f);
  shade::blend(p, shade::flat_contribution(0.f, 0.f, 1.f));
  EXPECT_EQ(p[0], 0.5f);
  EXPECT_EQ(p[1], 0.25f);
  EXPECT_EQ(p[2], 0.75f);
  EXPECT_EQ(p[3], 2.0f);
}

TEST(Blend, OrderMatters) {
  float red_then_blue[4] = {1.f, 1.f, 1.f, 1.f};
  shade::blend(red_then_blue, shade::flat_contribution(1.f, 0.f, 0.f));
  shade::blend(red_then_blue, shade::flat_contribution(0.f, 0.f, 1.f));
  float blue_then_red[4] = {1.f, 1.f, 1.f, 1.f};
  shade::blend(blue_then_red, shade::flat_contribution(0.f, 0.f, 1.f));
  shade::blend(blue_then_red, shade::flat_contribution(1.f, 0.f, 0.f));
  EXPECT_EQ(blue_then_red[0], 0.75f);
  EXPECT_NE(red_then_blue[0], blue_then_red[0]);
}

TEST(Blend, MatchesTheSpecifiedFormulaBitForBit) {
  // docs/scenes.md: alpha*c + oneMinusAlpha*p per channel, p.a += alpha.
  std::mt19937 gen(7);
  std::uniform_real_distribution<float> u(0.f, 1.f);
  for (int i = 0; i < 10000; ++i) {
    const shade::Contribution c{u(gen), u(gen), u(gen), u(gen)};
    float p[4] = {u(gen), u(gen), u(gen), 1.f + u(gen)};
    const float one_minus_alpha = 1.f - c.alpha;
    const float expected[4] = {c.alpha * c.r + one_minus_alpha * p[0],
                               c.alpha * c.g + one_minus_alpha * p[1],
                               c.alpha * c.b + one_minus_alpha * p[2], p[3] + c.alpha};
    shade::blend(p, c);
    for (int k = 0; k < 4; ++k) ASSERT_EQ(p[k], expected[k]) << "case " << i << " channel " << k;
  }
}

TEST(ShadePixel, SkipsUncoveredPixels) {
  float p[4] = {1.f, 1.f, 1.f, 1.f};
  shade::shade_pixel(p, 0.9f, 0.9f, 0.5f, 0.5f, 0.f, 0.1f, 0.f, 0.f, 0.f, false);
  EXPECT_EQ(p[0], 1.f);
  EXPECT_EQ(p[3], 1.f);
  shade::shade_pixel(p, 0.55f, 0.5f, 0.5f, 0.5f, 0.f, 0.1f, 0.f, 0.f, 0.f, false);
  EXPECT_EQ(p[0], 0.5f);
  EXPECT_EQ(p[3], 1.5f);
}

TEST(Snow, CenterIsWhiteAndNearFlakesAreStronger) {
  const shade::Contribution near = shade::snow_contribution(0.f, 1.f, 0.f);
  EXPECT_EQ(near.r, 1.f);
  EXPECT_EQ(near.g, 1.f);
  EXPECT_EQ(near.b, 1.f);
  EXPECT_EQ(near.alpha, 0.5f); // 0.5 · clamp(0.6 + 0.4) · exp(0)
  const shade::Contribution far = shade::snow_contribution(0.f, 1.f, 1.f);
  EXPECT_FLOAT_EQ(far.alpha, 0.3f); // 0.5 · 0.6
  // z beyond [0, 1] is clamped: 0.6 + 0.4·(1 − (−2)) = 1.8 → 1.
  EXPECT_EQ(shade::snow_contribution(0.f, 1.f, -2.f).alpha, 0.5f);
}

TEST(Snow, RampAndFalloff) {
  // t = 0.5: s = 2, entry 2 (.8, .9, 1); alpha = 0.5·e^-1.
  shade::Contribution c = shade::snow_contribution(0.25f, 1.f, 0.f);
  EXPECT_FLOAT_EQ(c.r, 0.8f);
  EXPECT_FLOAT_EQ(c.g, 0.9f);
  EXPECT_FLOAT_EQ(c.b, 1.f);
  EXPECT_NEAR(c.alpha, 0.5 * std::exp(-1.0), 1e-7);
  // t = 0.875: s = 3.5, halfway between (.8, .9, 1) and (.8, .8, 1).
  c = shade::snow_contribution(0.765625f, 1.f, 0.f);
  EXPECT_FLOAT_EQ(c.r, 0.8f);
  EXPECT_FLOAT_EQ(c.g, 0.85f);
  EXPECT_FLOAT_EQ(c.b, 1.f);
  EXPECT_NEAR(c.alpha, 0.5 * std::exp(-4.0 * 0.875 * 0.875), 1e-7);
  // t = 1 (the rim): the last entry (.8, .8, 1); alpha = 0.5·e^-4.
  c = shade::snow_contribution(4.f, 2.f, 0.f);
  EXPECT_FLOAT_EQ(c.r, 0.8f);
  EXPECT_FLOAT_EQ(c.g, 0.8f);
  EXPECT_FLOAT_EQ(c.b, 1.f);
  EXPECT_NEAR(c.alpha, 0.5 * std::exp(-4.0), 1e-7);
  // t = 0.125: s = 0.5, between two white entries.
  c = shade::snow_contribution(0.015625f, 1.f, 0.f);
  EXPECT_FLOAT_EQ(c.r, 1.f);
  EXPECT_FLOAT_EQ(c.g, 1.f);
}

TEST(Snow, NegativeRadiusStaysInTheRamp) {
  // A scene built through the library may have one: t < 0 must not index
  // before the ramp.
  const shade::Contribution c = shade::snow_contribution(1.f, -0.5f, 0.f);
  EXPECT_TRUE(std::isfinite(c.r) && std::isfinite(c.g) && std::isfinite(c.alpha));
}

TEST(Clear, WhiteOrTheSnowGradient) {
  EXPECT_EQ(shade::clear_gray(0, 4, false), 1.f);
  EXPECT_EQ(shade::clear_gray(3, 4, false), 1.f);
  // 0.4 + 0.45·(4 − 0)/4 and 0.4 + 0.45·(4 − 3)/4.
  EXPECT_FLOAT_EQ(shade::clear_gray(0, 4, true), 0.85f);
  EXPECT_FLOAT_EQ(shade::clear_gray(3, 4, true), 0.5125f);
  EXPECT_EQ(shade::clear_gray(3, 4, true), 0.4f + 0.45f * 1.f / 4.f);
}

} // namespace
