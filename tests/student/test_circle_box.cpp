// The course's circle-in-box tests (render/student/circle_box.h) against a
// brute-force answer of their own: a circle meets a box exactly when its
// center lies in the box grown by the radius, a rectangle with rounded
// corners (the box widened, the box heightened, or a disk around a corner).
// Random circles and boxes; a fresh seed per run, CIRCLE_BOX_TEST_SEED
// repeats one.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "circle_box.h"
#include "test_seed.h"

namespace {

unsigned seed() {
  static const unsigned s = test_seed_from("CIRCLE_BOX_TEST_SEED");
  return s;
}

std::string seed_note() {
  return "seed " + std::to_string(seed()) + " (CIRCLE_BOX_TEST_SEED repeats it)";
}

struct Case {
  float x, y, radius, left, right, bottom, top;
};

std::string describe(const Case& c) {
  return "circle (" + std::to_string(c.x) + ", " + std::to_string(c.y) + ") r " +
         std::to_string(c.radius) + ", box [" + std::to_string(c.left) + ", " +
         std::to_string(c.right) + "] x [" + std::to_string(c.bottom) + ", " +
         std::to_string(c.top) + "], " + seed_note();
}

// How far the center lies outside the rounded rectangle (negative: inside),
// in double, along the only way the circle can reach the box from there.
double clearance(const Case& c) {
  const double x = c.x, y = c.y, r = c.radius;
  const bool in_columns = x >= c.left && x <= c.right;
  const bool in_rows = y >= c.bottom && y <= c.top;
  if (in_columns && in_rows) return -r;
  if (in_columns) return std::min(std::fabs(y - c.bottom), std::fabs(y - c.top)) - r;
  if (in_rows) return std::min(std::fabs(x - c.left), std::fabs(x - c.right)) - r;
  double corner = INFINITY;
  for (double cx : {static_cast<double>(c.left), static_cast<double>(c.right)})
    for (double cy : {static_cast<double>(c.bottom), static_cast<double>(c.top)})
      corner = std::min(corner, std::hypot(x - cx, y - cy));
  return corner - r;
}

// The brute force itself, in squared distances, exact for the grid below.
bool meets(const Case& c) {
  const double x = c.x, y = c.y, r2 = static_cast<double>(c.radius) * c.radius;
  const bool in_columns = x >= c.left && x <= c.right;
  const bool in_rows = y >= c.bottom && y <= c.top;
  const bool widened = in_rows && x >= c.left - static_cast<double>(c.radius) &&
                       x <= c.right + static_cast<double>(c.radius);
  const bool heightened = in_columns && y >= c.bottom - static_cast<double>(c.radius) &&
                          y <= c.top + static_cast<double>(c.radius);
  bool corner = false;
  for (double cx : {static_cast<double>(c.left), static_cast<double>(c.right)})
    for (double cy : {static_cast<double>(c.bottom), static_cast<double>(c.top)})
      corner = corner || (x - cx) * (x - cx) + (y - cy) * (y - cy) <= r2;
  return widened || heightened || corner;
}

bool may_touch(const Case& c) {
  return render::circle_may_touch_box(c.x, c.y, c.radius, c.left, c.right, c.bottom, c.top);
}

bool touches(const Case& c) {
  return render::circle_touches_box(c.x, c.y, c.radius, c.left, c.right, c.bottom, c.top);
}

// Whether the circle's bounding square and the box are apart.
bool squares_apart(const Case& c) {
  const double x = c.x, y = c.y, r = c.radius;
  return x + r < c.left || x - r > c.right || y + r < c.bottom || y - r > c.top;
}

// Values k/64: every product and sum the tests make is exact in float, so
// "exact" means exact, tangent circles (which this grid makes often) too.
TEST(CircleBox, OnAGridMatchesBruteForceExactly) {
  std::mt19937 rng(seed());
  std::uniform_int_distribution<int> coordinate(-64, 128); // [-1, 2]
  std::uniform_int_distribution<int> radius(0, 64);        // [0, 1]
  auto grid = [&](std::uniform_int_distribution<int>& d) { return d(rng) / 64.f; };
  int tangent = 0, met = 0, corner_only = 0;
  constexpr int kCases = 200000;
  for (int i = 0; i < kCases; ++i) {
    Case c{grid(coordinate), grid(coordinate), grid(radius),    grid(coordinate),
           grid(coordinate), grid(coordinate), grid(coordinate)};
    if (c.left > c.right) std::swap(c.left, c.right);
    if (c.bottom > c.top) std::swap(c.bottom, c.top);
    const bool want = meets(c);
    ASSERT_EQ(touches(c), want) << describe(c);
    if (want) {
      ASSERT_TRUE(may_touch(c)) << "the conservative test missed " << describe(c);
    }
    if (squares_apart(c)) {
      ASSERT_FALSE(may_touch(c)) << describe(c);
    }
    met += want;
    tangent += clearance(c) == 0.0;
    corner_only += may_touch(c) && !want;
  }
  // The grid must have exercised what it is for.
  EXPECT_GT(tangent, 100) << seed_note();
  EXPECT_GT(met, kCases / 10) << seed_note();
  EXPECT_LT(met, kCases - kCases / 10) << seed_note();
  EXPECT_GT(corner_only, 0) << "no case where the conservative test says maybe, " << seed_note();
}

// Any floats, as scenes and tiles give them: the exact test matches the
// brute force wherever rounding cannot matter (the center farther than a
// millionth from the rounded rectangle's edge), and the conservative one
// misses no circle that meets the box, rounding or not.
TEST(CircleBox, OnRandomFloatsMatchesBruteForce) {
  std::mt19937 rng(seed() ^ 0x9e3779b9u);
  std::uniform_real_distribution<float> position(-0.5f, 1.5f);
  std::uniform_real_distribution<float> log_size(-12.f, 0.f); // sizes 2^-12 to 1
  auto size = [&] { return std::exp2(log_size(rng)); };
  constexpr double kMargin = 1e-6;
  int met = 0, decided = 0;
  constexpr int kCases = 400000;
  for (int i = 0; i < kCases; ++i) {
    Case c;
    c.x = position(rng);
    c.y = position(rng);
    c.radius = i % 100 == 0 ? 0.f : size();
    c.left = position(rng);
    c.right = c.left + size();
    c.bottom = position(rng);
    c.top = c.bottom + size();
    const double e = clearance(c);
    if (e <= 0.0) {
      ASSERT_TRUE(may_touch(c)) << "the conservative test missed " << describe(c);
    }
    if (std::fabs(e) > kMargin) {
      ASSERT_EQ(touches(c), e < 0.0) << describe(c) << ", clearance " << e;
      ++decided;
    }
    met += e <= 0.0;
  }
  EXPECT_GT(met, kCases / 100) << seed_note();
  EXPECT_GT(decided, kCases - kCases / 100) << seed_note();
}

// A circle that reaches a tile's pixel center meets the tile's whole box,
// as the header advises passing it, even at a pixel's width of tangency.
TEST(CircleBox, TileBoxHoldsEveryPixelCenterACircleCovers) {
  std::mt19937 rng(seed() ^ 0x85ebca6bu);
  constexpr int kSide = 1024, kTile = 16;
  const float inverse = 1.f / kSide;
  std::uniform_int_distribution<int> tile(0, kSide / kTile - 1);
  std::uniform_int_distribution<int> offset(0, kTile - 1);
  std::uniform_real_distribution<float> radius(0.f, 0.05f);
  for (int i = 0; i < 100000; ++i) {
    const int tx = tile(rng), ty = tile(rng);
    // A pixel center of the tile, and a circle whose rim passes it.
    const float px = (tx * kTile + offset(rng) + 0.5f) * inverse;
    const float py = (ty * kTile + offset(rng) + 0.5f) * inverse;
    const float r = radius(rng);
    const float angle = std::uniform_real_distribution<float>(0.f, 6.2831853f)(rng);
    Case c{px + r * std::cos(angle),
           py + r * std::sin(angle),
           r,
           static_cast<float>(tx * kTile) * inverse,
           static_cast<float>((tx + 1) * kTile) * inverse,
           static_cast<float>(ty * kTile) * inverse,
           static_cast<float>((ty + 1) * kTile) * inverse};
    const float dx = c.x - px, dy = c.y - py;
    if (!(dx * dx + dy * dy <= r * r)) continue; // rounding put the center just outside
    ASSERT_TRUE(touches(c)) << describe(c);
    ASSERT_TRUE(may_touch(c)) << describe(c);
  }
}

} // namespace
