// The covered run of one circle in one pixel row (render/covered_run.h):
// circle_row_run, which the CUDA renderer's suffix count runs on the device
// (through covered_run, which the CPU renderer's run shading shares), against
// testing each pixel, on random circles and rows at tile edges, with tiny and
// huge radii and centers far outside the tile; and covers_every_pixel, the
// CPU renderer's whole-tile test, against testing every pixel of a box.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "render/covered_run.h"
#include "render/shade.h"
#include "test_seed.h"

namespace {

namespace shade = render::shade;

unsigned seed() {
  static const unsigned s = test_seed_from("RENDER_TEST_SEED");
  return s;
}

std::string seed_note() {
  return "seed " + std::to_string(seed()) + " (RENDER_TEST_SEED repeats it)";
}

// covered_run on a predicate that holds on [a, b]: the run of [lo, hi] it
// returns, and that it tests no column outside [lo, hi] and none twice more
// than the range is wide.
TEST(CoveredRun, FindsAnyRunFromAnyGuesses) {
  std::mt19937 gen(seed());
  std::uniform_int_distribution<int> width(1, 40);
  const int guesses[] = {INT_MIN, -1000, 0, INT_MAX};
  for (int trial = 0; trial < 20000; ++trial) {
    const int lo = std::uniform_int_distribution<int>(-20, 20)(gen);
    const int hi = lo + width(gen) - 1;
    // The run: inside [lo, hi], or empty.
    int a = std::uniform_int_distribution<int>(lo, hi)(gen);
    int b = std::uniform_int_distribution<int>(a, hi)(gen);
    const bool empty = trial % 5 == 0;
    if (empty) b = a - 1;
    int q;
    if (empty) {
      q = std::uniform_int_distribution<int>(lo, hi + 1)(gen);
    } else {
      const int in_run = std::uniform_int_distribution<int>(a, b)(gen);
      q = in_run + std::uniform_int_distribution<int>(0, 1)(gen); // holds q or q − 1
    }
    auto guess = [&]() {
      if (trial % 7 == 0) return guesses[std::uniform_int_distribution<int>(0, 3)(gen)];
      return std::uniform_int_distribution<int>(lo - 5, hi + 5)(gen);
    };
    const int first_guess = guess();
    const int last_guess = guess();
    int calls = 0;
    bool outside = false;
    const shade::ColumnRun run =
        shade::covered_run(lo, hi, q, first_guess, last_guess, [&](int col) {
          ++calls;
          outside = outside || col < lo || col > hi;
          return col >= a && col <= b;
        });
    SCOPED_TRACE("lo " + std::to_string(lo) + " hi " + std::to_string(hi) + " run " +
                 std::to_string(a) + ".." + std::to_string(b) + " q " + std::to_string(q) +
                 " guesses " + std::to_string(first_guess) + " " + std::to_string(last_guess) +
                 ", " + seed_note());
    ASSERT_FALSE(outside);
    ASSERT_LE(calls, (hi - lo + 1) + 4);
    if (empty) {
      ASSERT_TRUE(run.empty());
    } else {
      ASSERT_EQ(run.first, a);
      ASSERT_EQ(run.last, b);
    }
  }
}

// A position on one axis near column `c` of an image `extent` wide, often
// exactly on a pixel center or halfway between two, where ties decide.
float near_column(std::mt19937& gen, float c, int extent) {
  const float inverse = shade::inverse_extent(extent);
  switch (std::uniform_int_distribution<int>(0, 5)(gen)) {
  case 0:
    return shade::pixel_center(static_cast<int>(c), inverse);
  case 1:
    return shade::mul(std::floor(c), inverse); // between two centers
  case 2: {
    const float far[] = {-1.0e30f, -10.f, -1.f, 2.f, 10.f, 1.0e30f};
    return far[std::uniform_int_distribution<int>(0, 5)(gen)];
  }
  default:
    return std::uniform_real_distribution<float>(c - 0.5f, c + 0.5f)(gen) * inverse;
  }
}

float radius_for(std::mt19937& gen, int width) {
  switch (std::uniform_int_distribution<int>(0, 6)(gen)) {
  case 0:
    return 0.f;
  case 1:
    return 1.0e-7f;
  case 2: {
    const float huge[] = {1.f, 10.f, 1.0e10f, 1.0e20f, 1.0e30f};
    return huge[std::uniform_int_distribution<int>(0, 4)(gen)];
  }
  case 3: // an exact multiple of the pixel step: edges on pixel centers
    return shade::mul(static_cast<float>(std::uniform_int_distribution<int>(1, 20)(gen)),
                      shade::inverse_extent(width));
  default:
    return std::uniform_real_distribution<float>(0.f, 24.f)(gen) / static_cast<float>(width);
  }
}

// One of some awkward image sizes, in turn by trial, and its steps between
// pixel centers.
struct TrialImage {
  int width;
  int height;
  float inverse_width;
  float inverse_height;
};
TrialImage trial_image(int trial) {
  constexpr int kSizes[][2] = {{1024, 1024}, {517, 517}, {1000, 600}, {130, 67}, {16, 16},
                               {64, 64},     {1, 1},     {2, 3},      {4097, 33}};
  constexpr int kCount = sizeof kSizes / sizeof kSizes[0];
  const int width = kSizes[trial % kCount][0];
  const int height = kSizes[trial % kCount][1];
  return TrialImage{width, height, shade::inverse_extent(width), shade::inverse_extent(height)};
}

// circle_row_run against the per-pixel test of the serial renderer
// (shade::covers on shade::distance_squared) over a tile's 16 columns, which
// may reach past the image's right edge as the CUDA renderer's tiles do.
TEST(CoveredRun, CircleRowRunEqualsThePerPixelTest) {
  std::mt19937 gen(seed());
  constexpr int kSide = 16;
  int covered_rows = 0;
  for (int trial = 0; trial < 200000; ++trial) {
    const auto [width, height, inverse_width, inverse_height] = trial_image(trial);
    const int tiles_x = (width + kSide - 1) / kSide;
    const int lo = std::uniform_int_distribution<int>(0, tiles_x - 1)(gen) * kSide;
    const int hi = lo + kSide - 1;
    const int row = std::uniform_int_distribution<int>(0, height - 1)(gen);
    const float center_y = shade::pixel_center(row, inverse_height);
    const float x =
        near_column(gen, std::uniform_real_distribution<float>(lo - 24.f, hi + 24.f)(gen), width);
    const float y = near_column(
        gen, std::uniform_real_distribution<float>(row - 24.f, row + 24.f)(gen), height);
    const float radius = radius_for(gen, width);
    const shade::RowCoverage coverage{x, y, shade::mul(radius, radius), center_y, inverse_width};
    const shade::ColumnRun run = shade::circle_row_run(coverage, lo, hi, width);

    std::vector<int> covered;
    for (int col = lo; col <= hi; ++col) {
      const float d2 =
          shade::distance_squared(x, y, shade::pixel_center(col, inverse_width), center_y);
      if (shade::covers(d2, radius)) covered.push_back(col);
    }
    SCOPED_TRACE("circle (" + std::to_string(x) + ", " + std::to_string(y) + ") radius " +
                 std::to_string(radius) + " row " + std::to_string(row) + " columns " +
                 std::to_string(lo) + ".." + std::to_string(hi) + " of " + std::to_string(width) +
                 ", " + seed_note());
    if (covered.empty()) {
      ASSERT_TRUE(run.empty());
      continue;
    }
    ++covered_rows;
    // One run (the property the search relies on), and the one it found.
    ASSERT_EQ(covered.back() - covered.front() + 1, static_cast<int>(covered.size()));
    ASSERT_EQ(run.first, covered.front());
    ASSERT_EQ(run.last, covered.back());
  }
  EXPECT_GT(covered_rows, 20000); // the cases reach covered rows often
}

// A radius whose square lands on d², the squared distance to a pixel center,
// or a step either side of it: circles whose edge passes through that pixel.
float radius_through(std::mt19937& gen, float d2) {
  const float r = std::sqrt(d2);
  switch (std::uniform_int_distribution<int>(0, 3)(gen)) {
  case 0:
    return std::nextafter(r, 0.f);
  case 1:
    return std::nextafter(r, std::numeric_limits<float>::infinity());
  default:
    return r;
  }
}

// covers_every_pixel, the CPU renderer's whole-tile test, against the
// per-pixel test on every pixel of the box: boxes of tiles (64 pixels a side,
// cut at the image's edge) and smaller ones, circles whose edge passes
// through a corner or another pixel of the box, tiny and huge radii, centers
// on pixel centers and far outside.
TEST(CoveredRun, CoversEveryPixelEqualsThePerPixelTest) {
  std::mt19937 gen(seed());
  constexpr int kSide = 64;
  int whole = 0;
  int not_whole = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const auto [width, height, inverse_width, inverse_height] = trial_image(trial);
    shade::PixelBox box;
    if (trial % 3 == 0) { // any box of up to 64 pixels a side
      box.min_x = std::uniform_int_distribution<int>(0, width - 1)(gen);
      box.min_y = std::uniform_int_distribution<int>(0, height - 1)(gen);
      box.max_x = std::min(width, box.min_x + std::uniform_int_distribution<int>(1, kSide)(gen));
      box.max_y = std::min(height, box.min_y + std::uniform_int_distribution<int>(1, kSide)(gen));
    } else { // a tile
      box.min_x = std::uniform_int_distribution<int>(0, (width - 1) / kSide)(gen) * kSide;
      box.min_y = std::uniform_int_distribution<int>(0, (height - 1) / kSide)(gen) * kSide;
      box.max_x = std::min(width, box.min_x + kSide);
      box.max_y = std::min(height, box.min_y + kSide);
    }
    const float mid_x = 0.5f * static_cast<float>(box.min_x + box.max_x);
    const float mid_y = 0.5f * static_cast<float>(box.min_y + box.max_y);
    const float x = near_column(
        gen, std::uniform_real_distribution<float>(mid_x - 48.f, mid_x + 48.f)(gen), width);
    const float y = near_column(
        gen, std::uniform_real_distribution<float>(mid_y - 48.f, mid_y + 48.f)(gen), height);
    float radius;
    if (trial % 4 == 0) {
      radius = radius_for(gen, width);
    } else {
      // Through a corner pixel most often, else through any pixel of the box.
      const bool corner = trial % 4 != 3;
      const int px = corner ? (gen() % 2 ? box.min_x : box.max_x - 1)
                            : std::uniform_int_distribution<int>(box.min_x, box.max_x - 1)(gen);
      const int py = corner ? (gen() % 2 ? box.min_y : box.max_y - 1)
                            : std::uniform_int_distribution<int>(box.min_y, box.max_y - 1)(gen);
      radius =
          radius_through(gen, shade::distance_squared(x, y, shade::pixel_center(px, inverse_width),
                                                      shade::pixel_center(py, inverse_height)));
    }
    bool every = true;
    for (int py = box.min_y; py < box.max_y && every; ++py)
      for (int px = box.min_x; px < box.max_x && every; ++px)
        every = shade::covers(shade::distance_squared(x, y, shade::pixel_center(px, inverse_width),
                                                      shade::pixel_center(py, inverse_height)),
                              radius);
    SCOPED_TRACE("circle (" + std::to_string(x) + ", " + std::to_string(y) + ") radius " +
                 std::to_string(radius) + " box " + std::to_string(box.min_x) + ".." +
                 std::to_string(box.max_x) + " x " + std::to_string(box.min_y) + ".." +
                 std::to_string(box.max_y) + " of " + std::to_string(width) + "x" +
                 std::to_string(height) + ", " + seed_note());
    ASSERT_EQ(shade::covers_every_pixel(x, y, radius, box, inverse_width, inverse_height), every);
    (every ? whole : not_whole) += 1;
  }
  // Both answers come often, so a test of too few pixels would be caught.
  EXPECT_GT(whole, 3000);
  EXPECT_GT(not_whole, 3000);
}

// Not a number covers no box; an infinite radius covers any box of a finite
// circle.
TEST(CoveredRun, CoversEveryPixelOfNotANumber) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const float inverse = shade::inverse_extent(64);
  const shade::PixelBox box{0, 64, 0, 64};
  EXPECT_FALSE(shade::covers_every_pixel(nan, 0.5f, 1.f, box, inverse, inverse));
  EXPECT_FALSE(shade::covers_every_pixel(0.5f, nan, 1.f, box, inverse, inverse));
  EXPECT_FALSE(shade::covers_every_pixel(0.5f, 0.5f, nan, box, inverse, inverse));
  EXPECT_TRUE(shade::covers_every_pixel(0.5f, 0.5f, inf, box, inverse, inverse));
}

// Centers and radii that are not numbers cover nothing, in the search as in
// the per-pixel test.
TEST(CoveredRun, NotANumberCoversNothing) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inverse = shade::inverse_extent(64);
  const float center_y = shade::pixel_center(8, inverse);
  const float cases[][3] = {{nan, 0.13f, 0.01f}, {0.13f, nan, 0.01f}, {0.13f, 0.13f, nan}};
  for (const auto& c : cases) {
    const shade::RowCoverage coverage{c[0], c[1], c[2], center_y, inverse};
    EXPECT_TRUE(shade::circle_row_run(coverage, 0, 15, 64).empty());
  }
  // An infinite radius covers every column of a finite circle's row.
  const float inf = std::numeric_limits<float>::infinity();
  const shade::RowCoverage all{0.1f, 0.1f, inf, center_y, inverse};
  const shade::ColumnRun run = shade::circle_row_run(all, 16, 31, 64);
  EXPECT_EQ(run.first, 16);
  EXPECT_EQ(run.last, 31);
}

} // namespace
