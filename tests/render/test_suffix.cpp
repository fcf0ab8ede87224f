// Exact suffix compositing (render/suffix.h): the per-pixel function against
// the full blend on random lists, and the CPU renderer that uses it against
// the serial reference on adversarial and random scenes, bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "render/cpu_renderer.h"
#include "render/ref_renderer.h"
#include "render/shade.h"
#include "render/suffix.h"
#include "test_seed.h"
#include "test_util.h"

namespace {

namespace suffix = render::suffix;
using render::CpuRenderer;
using render::RefRenderer;
using render_test::Circle;
using render_test::make_scene;
using render_test::same_bits;

unsigned seed() {
  static const unsigned s = test_seed_from("RENDER_TEST_SEED");
  return s;
}

std::string seed_note() {
  return "seed " + std::to_string(seed()) + " (RENDER_TEST_SEED repeats it)";
}

// A safe color, often an awkward one: 0, 1, equal to the last, above 1, the
// smallest safe value, huge.
float awkward_color(std::mt19937& gen, float previous) {
  std::uniform_int_distribution<int> pick(0, 9);
  std::uniform_real_distribution<float> unit(0.f, 1.f);
  switch (pick(gen)) {
  case 0:
    return 0.f;
  case 1:
    return 1.f;
  case 2:
    return previous;
  case 3:
    return unit(gen) * 4.f;
  case 4:
    return 0x1p-125f;
  case 5:
    return gen() % 2 ? 1e30f : FLT_MAX;
  default:
    return unit(gen);
  }
}

TEST(Suffix, SafeColorsAreThoseWhoseHalfIsExact) {
  for (float c : {0.f, 0x1p-125f, 0.5f, 1.f, 3.5f, FLT_MAX})
    EXPECT_TRUE(suffix::safe_color(c)) << c;
  for (float c : {-0.f, 0x1p-126f, 0x1p-149f, 1e-40f, -1.f, INFINITY, NAN})
    EXPECT_FALSE(suffix::safe_color(c)) << c;
}

// Bounds over awkward safe colors (0, the smallest safe value, FLT_MAX, one
// channel constant) are each channel's least and greatest, bit for bit.
TEST(Suffix, ColorBoundsAreEachChannelsLeastAndGreatest) {
  suffix::ColorBounds bounds;
  bounds.add(0x1p-125f, 1.f, 0.5f);
  bounds.add(FLT_MAX, 0.f, 0.5f);
  bounds.add(3.5f, 1e30f, 0.5f);
  EXPECT_TRUE(bounds.safe);
  const float lo[3] = {0x1p-125f, 0.f, 0.5f};
  const float hi[3] = {FLT_MAX, 1e30f, 0.5f};
  for (int ch = 0; ch < 3; ++ch) {
    EXPECT_TRUE(suffix::same_bits(bounds.lo[ch], lo[ch]))
        << "channel " << ch << ": " << bounds.lo[ch];
    EXPECT_TRUE(suffix::same_bits(bounds.hi[ch], hi[ch]))
        << "channel " << ch << ": " << bounds.hi[ch];
  }
}

// One unsafe color in any channel, among safe ones, makes the bounds unsafe,
// and merging carries that on.
TEST(Suffix, ColorBoundsDetectAnUnsafeColor) {
  for (float bad : {-0.f, -1.f, 0x1p-126f, INFINITY, NAN})
    for (int ch = 0; ch < 3; ++ch) {
      float rgb[3] = {0.25f, 0.5f, 0.75f};
      rgb[ch] = bad;
      suffix::ColorBounds bounds;
      bounds.add(1.f, 1.f, 1.f);
      bounds.add(rgb[0], rgb[1], rgb[2]);
      bounds.add(0.f, 0.f, 0.f);
      EXPECT_FALSE(bounds.safe) << bad << " in channel " << ch;
      suffix::ColorBounds merged;
      merged.add(0.5f, 0.5f, 0.5f);
      merged.merge(bounds);
      EXPECT_FALSE(merged.safe) << bad << " in channel " << ch;
    }
}

// Summaries of parts (some empty) merged equal the summary of the whole;
// now and then a list holds an unsafe color.
TEST(Suffix, MergedColorBoundsEqualTheWhole) {
  std::mt19937 gen(seed());
  std::uniform_int_distribution<int> length(0, 40);
  std::uniform_int_distribution<int> unsafe(0, 1999);
  int unsafe_lists = 0;
  for (int n = 0; n < 2000; ++n) {
    suffix::ColorBounds whole;
    suffix::ColorBounds merged;
    float previous = 0.5f;
    for (int part = 0; part < 4; ++part) {
      suffix::ColorBounds bounds;
      for (int k = length(gen); k > 0; --k) {
        float rgb[3];
        for (float& c : rgb) previous = c = awkward_color(gen, previous);
        if (unsafe(gen) == 0) rgb[0] = -1.f;
        bounds.add(rgb[0], rgb[1], rgb[2]);
        whole.add(rgb[0], rgb[1], rgb[2]);
      }
      merged.merge(bounds);
    }
    ASSERT_EQ(merged.safe, whole.safe) << seed_note();
    if (!whole.safe) {
      ++unsafe_lists;
      continue; // the bounds of unsafe colors mean nothing
    }
    for (int ch = 0; ch < 3; ++ch) {
      ASSERT_TRUE(suffix::same_bits(merged.lo[ch], whole.lo[ch])) << seed_note();
      ASSERT_TRUE(suffix::same_bits(merged.hi[ch], whole.hi[ch])) << seed_note();
    }
  }
  EXPECT_GT(unsafe_lists, 0) << seed_note();
  EXPECT_LT(unsafe_lists, 2000) << seed_note();
}

// The suffix rule for one pixel, trying the last 32, 64, 128, ... circles
// (up to count): suffix::last_meet on the first length where the starts meet.
template <class ColorAt>
bool meet(int count, ColorAt&& color_at, const float* lo, const float* hi, float* out) {
  for (int k = std::min(count, 32);; k = std::min(2 * k, count)) {
    if (suffix::last_meet(k, count, color_at, lo, hi, out)) return true;
    if (k == count) return false;
  }
}

// The suffix rule on random lists: whenever it says the starts met, its
// value is the full blend from the true start, bit for bit; and it does meet
// on most lists, so the comparison is not vacuous.
TEST(Suffix, MetValueIsTheFullBlend) {
  std::mt19937 gen(seed());
  std::uniform_int_distribution<int> length(1, 160);
  std::uniform_real_distribution<float> unit(0.f, 1.f);
  constexpr int kCases = 200000;
  int met = 0;
  std::vector<float> colors;
  for (int n = 0; n < kCases; ++n) {
    const int count = length(gen);
    colors.resize(3 * static_cast<std::size_t>(count));
    float previous = 0.5f;
    for (float& c : colors) previous = c = awkward_color(gen, previous);
    // The start: any finite float, often outside the colors' range.
    float start[3];
    for (float& s : start) {
      const int kind = static_cast<int>(gen() % 4);
      s = kind == 0 ? 1.f : kind == 1 ? -unit(gen) * 8.f : kind == 2 ? 1e-40f : unit(gen);
    }
    float lo[3];
    float hi[3];
    for (int ch = 0; ch < 3; ++ch) {
      lo[ch] = hi[ch] = start[ch];
      for (int k = 0; k < count; ++k) {
        lo[ch] = std::min(lo[ch], colors[3 * k + ch]);
        hi[ch] = std::max(hi[ch], colors[3 * k + ch]);
      }
    }
    const auto color_at = [&](int k) { return &colors[3 * static_cast<std::size_t>(k)]; };
    float full[3] = {start[0], start[1], start[2]};
    suffix::blend_rgb(full, 0, count, color_at);
    float out[3];
    if (!meet(count, color_at, lo, hi, out)) continue;
    ++met;
    for (int ch = 0; ch < 3; ++ch)
      ASSERT_TRUE(suffix::same_bits(out[ch], full[ch]))
          << "case " << n << ", " << count << " circles, channel " << ch << ": " << out[ch]
          << " instead of " << full[ch] << "; " << seed_note();
  }
  EXPECT_GT(met, kCases / 2) << seed_note();
}

// White then a long tail of black: from hi the value halves toward the
// subnormals while from lo it stays 0, so the starts meet only after about
// 150 circles; meet must say no for shorter suffixes.
TEST(Suffix, SlowListsDoNotMeetEarly) {
  std::vector<float> colors(3 * 200, 0.f);
  const auto color_at = [&](int k) { return &colors[3 * static_cast<std::size_t>(k)]; };
  const float lo[3] = {0.f, 0.f, 0.f};
  const float hi[3] = {1.f, 1.f, 1.f};
  float out[3];
  EXPECT_FALSE(meet(64, color_at, lo, hi, out));
  ASSERT_TRUE(meet(200, color_at, lo, hi, out));
  EXPECT_EQ(out[0], 0.f);
}

TEST(Suffix, AlphaMatchesAddingOneByOne) {
  std::mt19937 gen(seed());
  std::uniform_int_distribution<int> count(0, 3000);
  std::uniform_real_distribution<float> unit(-4.f, 4.f);
  for (int n = 0; n < 20000; ++n) {
    const int kind = n % 5;
    float a = kind == 0   ? 1.f
              : kind == 1 ? std::round(unit(gen) * 2.f) / 2.f
              : kind == 2 ? unit(gen)
              : kind == 3 ? 4194000.5f
                          : -0.f;
    const int covering = count(gen);
    float expected = a;
    for (int i = 0; i < covering; ++i)
      expected = render::shade::add(render::shade::kFlatAlpha, render::shade::mul(1.f, expected));
    ASSERT_TRUE(suffix::same_bits(suffix::alpha_after(a, covering), expected))
        << a << " + " << covering << " halves; " << seed_note();
  }
}

// Renders with the reference and with the CPU renderer in both modes, and in
// the default one; `frames` frames, each drawn over the last without a clear after the first
// (and the first over the new image's zeros when `clear` is false).
void expect_exact(const scenes::Scene& scene, int w, int h, bool expect_suffix, int frames = 1,
                  bool clear = true) {
  RefRenderer ref;
  // Every tile takes the suffix, however thinly covered.
  CpuRenderer fast(2, CpuRenderer::kDefaultMaxBinEntries, CpuRenderer::Compositing::Suffix, 0);
  CpuRenderer full(2, CpuRenderer::kDefaultMaxBinEntries, CpuRenderer::Compositing::Full);
  CpuRenderer usual(2);
  ref.setup(scene, w, h);
  usual.setup(scene, w, h);
  fast.setup(scene, w, h);
  full.setup(scene, w, h);
  for (render::Renderer* r :
       {static_cast<render::Renderer*>(&ref), static_cast<render::Renderer*>(&fast),
        static_cast<render::Renderer*>(&full), static_cast<render::Renderer*>(&usual)})
    if (clear) r->clear();
  for (int f = 0; f < frames; ++f) {
    ref.render();
    fast.render();
    full.render();
    usual.render();
    ASSERT_TRUE(same_bits(usual.image(), ref.image()))
        << scene.name << " " << w << "x" << h << ", frame " << f << ": default differs";
    ASSERT_TRUE(same_bits(fast.image(), ref.image()))
        << scene.name << " " << w << "x" << h << ", frame " << f << ": suffix differs; "
        << seed_note();
    ASSERT_TRUE(same_bits(full.image(), ref.image()))
        << scene.name << " " << w << "x" << h << ", frame " << f << ": full differs";
    if (fast.last_render_binned()) {
      EXPECT_EQ(fast.last_render_suffix(), expect_suffix);
    }
    EXPECT_FALSE(full.last_render_suffix());
  }
}

// Many circles on the middle pixels: a white one, then alternating extremes
// (0 and huge), then a long black tail that outlasts the kept suffix.
scenes::Scene stacked_scene() {
  std::vector<Circle> circles = {{0.5f, 0.5f, 0.f, 0.4f, 1.f, 1.f, 1.f}};
  for (int i = 0; i < 300; ++i) {
    const float c = i % 2 ? 0.f : 1e30f;
    circles.push_back({0.5f, 0.5f, 0.f, 0.1f + 0.001f * (i % 50), c, 1.f - c * 0.f, c});
  }
  circles.push_back({0.5f, 0.5f, 0.f, 0.3f, 1.f, 0.5f, 0.25f});
  for (int i = 0; i < 200; ++i)
    circles.push_back(
        {0.5f + 0.0005f * (i % 7), 0.5f, 0.f, 0.2f, 0.f, 0.f, i % 3 ? 0.f : 0x1p-125f});
  // Equal colors, a zero and a negative radius, a circle exactly on a pixel center.
  for (int i = 0; i < 100; ++i) circles.push_back({0.5f, 0.5f, 0.f, 0.05f, 0.25f, 0.25f, 0.25f});
  circles.push_back({0.5f, 0.5f, 0.f, 0.f, 2.f, 2.f, 2.f});
  circles.push_back({0.5f, 0.5f, 0.f, -0.2f, 2.f, 2.f, 2.f});
  circles.push_back({0.25f, 0.25f, 0.f, 0.f, 3.f, 0.f, 3.f});
  return make_scene(circles);
}

TEST(SuffixRenderer, StackedExtremesMatchTheReference) {
  for (int size : {1, 4, 64, 100, 256}) expect_exact(stacked_scene(), size, size, true, 2);
}

// Colors whose halving rounds (subnormal, negative, -0) take the full path.
TEST(SuffixRenderer, UnsafeColorsTakeTheFullPath) {
  for (float bad : {1e-40f, -0.5f, -0.f, 0x1p-126f}) {
    scenes::Scene scene = stacked_scene();
    scene.g[scene.size() / 2] = bad;
    expect_exact(scene, 64, 64, false, 2);
  }
}

// Random dense scenes, fresh each run, at awkward sizes; frames drawn over
// the previous image too.
TEST(SuffixRenderer, RandomScenesMatchTheReference) {
  std::mt19937 gen(seed());
  std::uniform_real_distribution<float> unit(0.f, 1.f);
  for (int n = 0; n < 6; ++n) {
    std::vector<Circle> circles;
    const int count = 200 + static_cast<int>(gen() % 3000);
    const float max_radius = n % 2 ? 0.6f : 0.15f;
    float previous = 0.5f;
    for (int i = 0; i < count; ++i) {
      Circle c{unit(gen), unit(gen), unit(gen), unit(gen) * max_radius, 0, 0, 0};
      if (i % 97 == 0) c.radius = 0.f;
      previous = c.r = awkward_color(gen, previous);
      previous = c.g = n == 4 ? unit(gen) * 0.25f : awkward_color(gen, previous);
      previous = c.b = awkward_color(gen, previous);
      circles.push_back(c);
    }
    const scenes::Scene scene = make_scene(circles);
    for (auto [w, h] : {std::pair{1, 1}, std::pair{3, 130}, std::pair{65, 65}, std::pair{130, 67},
                        std::pair{201, 199}})
      expect_exact(scene, w, h, true, 2);
  }
}

// Circles whose edge passes through a corner pixel of a tile, or one float
// step inside or outside it, over a dense background: the tile walk counts a
// circle that covers the whole tile once instead of row by row, so a wrong
// whole-tile decision would miscount that corner's alpha (and its kept
// circles). Tiles are CpuRenderer::kTileSide pixels, cut at the image's edge.
TEST(SuffixRenderer, CirclesThroughTileCornersMatchTheReference) {
  std::mt19937 gen(seed());
  std::uniform_real_distribution<float> unit(0.f, 1.f);
  constexpr int kSide = CpuRenderer::kTileSide;
  for (auto [w, h] : {std::pair{130, 67}, std::pair{64, 64}, std::pair{200, 129}}) {
    const float inverse_w = render::shade::inverse_extent(w);
    const float inverse_h = render::shade::inverse_extent(h);
    std::vector<Circle> circles;
    for (int i = 0; i < 400; ++i) {
      const float c = unit(gen);
      circles.push_back({unit(gen), unit(gen), 0.f, 0.2f + 0.3f * unit(gen), c, 1.f - c, 0.5f});
    }
    for (int i = 0; i < 1500; ++i) {
      // A tile, a center near it, and one of its corner pixels.
      const int tx = static_cast<int>(gen() % ((w + kSide - 1) / kSide)) * kSide;
      const int ty = static_cast<int>(gen() % ((h + kSide - 1) / kSide)) * kSide;
      const int x1 = std::min(w, tx + kSide) - 1;
      const int y1 = std::min(h, ty + kSide) - 1;
      const float x = (tx + (x1 - tx + 1) * (unit(gen) * 1.5f - 0.25f)) * inverse_w;
      const float y = (ty + (y1 - ty + 1) * (unit(gen) * 1.5f - 0.25f)) * inverse_h;
      const int px = gen() % 2 ? tx : x1;
      const int py = gen() % 2 ? ty : y1;
      float radius = std::sqrt(
          render::shade::distance_squared(x, y, render::shade::pixel_center(px, inverse_w),
                                          render::shade::pixel_center(py, inverse_h)));
      if (i % 3 == 1) radius = std::nextafter(radius, 0.f);
      if (i % 3 == 2) radius = std::nextafter(radius, 1.f);
      const float c = unit(gen);
      circles.push_back({x, y, 0.f, radius, c, c * 0.5f, 1.f - c});
    }
    // So far out that rounding covers pixels outside its box: x − r = 0.5
    // puts the box's first column at the middle, yet d² rounds to r² on the
    // columns whose centers lie in (0.25, 0.5), so the tile there is covered
    // whole but not inside the box, which the serial renderer requires.
    circles.push_back({0x1p22f + 0.5f, 0.5f, 0.f, 0x1p22f, 0.f, 1.f, 0.5f});
    expect_exact(make_scene(circles), w, h, true, 2);
  }
}

// Per tile row the suffix blends the circles from where every pixel of the
// row has CpuRenderer::kSuffixWindow covering circles, or the whole list
// where a row never gets there. Around that number: whole-image circles one
// fewer than, as many as and one more than the window, none of them over a
// top band, whose rows (lightly covered by small circles) keep their whole
// lists while the rows below them in the same tiles do not; and a small disk
// of black circles at the end, whose pixels must fall back to the full blend
// (from lo the result is 0, from hi it only halves per circle) while the
// rest of their rows settle. Taking a row's window for the whole list, or
// trusting the two starts without comparing them, gives wrong pixels.
TEST(SuffixRenderer, RowWindowsMatchTheReference) {
  std::mt19937 gen(seed());
  std::uniform_real_distribution<float> unit(0.f, 1.f);
  constexpr int kWindow = CpuRenderer::kSuffixWindow;
  for (int whole : {kWindow - 1, kWindow, kWindow + 1}) {
    std::vector<Circle> circles;
    float previous = 0.5f;
    const auto color = [&] { return previous = awkward_color(gen, previous); };
    // Centered far below: covers the image from y = 0.2 (a little more at
    // the sides) down.
    for (int i = 0; i < whole; ++i)
      circles.push_back({0.5f, 10.2f, 0.f, 10.f, color(), color(), color()});
    for (int i = 0; i < 400; ++i)
      circles.push_back(
          {unit(gen), unit(gen), unit(gen), 0.02f + 0.15f * unit(gen), color(), color(), color()});
    std::shuffle(circles.begin(), circles.end(), gen);
    circles.push_back({0.37f, 0.6f, 0.f, 0.1f, 1.f, 1.f, 1.f});
    for (int i = 0; i < 120; ++i) circles.push_back({0.37f, 0.6f, 0.f, 0.05f, 0.f, 0.f, 0.f});
    const scenes::Scene scene = make_scene(circles);
    for (auto [w, h] :
         {std::pair{64, 64}, std::pair{65, 65}, std::pair{130, 67}, std::pair{200, 129}})
      expect_exact(scene, w, h, true, 2);
  }
}

// Tiny colors under a white clear: the start is far above every color, so
// bounds taken from the colors alone would let the starts meet wrongly.
// Never cleared: the pixels start at 0, below every color.
TEST(SuffixRenderer, StartsOutsideTheColorsMatchTheReference) {
  std::mt19937 gen(seed());
  std::uniform_real_distribution<float> unit(0.f, 1.f);
  std::vector<Circle> tiny;
  for (int i = 0; i < 2000; ++i) {
    const float c = std::ldexp(1.f + unit(gen), -110 + static_cast<int>(gen() % 10));
    // About 80 circles over a pixel: more than are kept, too few to forget the start.
    tiny.push_back({unit(gen), unit(gen), 0.f, 0.1f + 0.05f * unit(gen), c, c * 2, c});
  }
  for (int size : {1, 65, 128}) expect_exact(make_scene(tiny), size, size, true, 2);
  std::vector<Circle> circles;
  for (int i = 0; i < 3000; ++i) {
    const float c = 0.25f + 0.5f * unit(gen);
    circles.push_back({unit(gen), unit(gen), 0.f, 0.3f + 0.3f * unit(gen), c, c, 0.75f - c / 2});
  }
  for (int size : {1, 65, 128}) expect_exact(make_scene(circles), size, size, true, 2, false);
}

} // namespace
