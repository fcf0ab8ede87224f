// Suffix compositing in the binned CUDA renderer (docs/design/suffix_proof.md):
// exact against the serial reference at every threshold, on dense, random,
// clipped and hand-made extreme scenes, over the last frame and in passes,
// and taken only where its proof holds.
#include <algorithm>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "common/cuda_check.h"
#include "common/device.h"
#include "common/device_buffer.h"
#include "cuda_checks.h"
#include "gpu_test.h"
#include "render/check.h"
#include "render/cpu_renderer.h"
#include "render/cuda_renderer.h"
#include "render/ref_renderer.h"
#include "scenes/scene.h"
#include "test_seed.h"
#include "test_util.h"

namespace {

using namespace cuda_checks;
using render_test::Circle;
using render_test::make_scene;

// ------------------------------------------------ suffix compositing

// A suffix threshold: not given (the default), 0 (off), or a number of pairs.
using SuffixThreshold = std::optional<std::uint32_t>;

// Binned mode with suffix compositing for tiles of at least `min_pairs`
// pairs (1: every tile with a pair tries it). An explicit threshold applies
// whatever a tile's share of whole-tile pairs; the default keeps the
// default share.
CudaRendererOptions suffix_options(SuffixThreshold min_pairs) {
  CudaRendererOptions o = with_mode(CudaMode::Binned);
  o.suffix_min_pairs = min_pairs;
  if (min_pairs > 0u) o.suffix_min_full_percent = 0u;
  return o;
}

constexpr SuffixThreshold kSuffixThresholds[] = {1u, std::nullopt, 0u};

std::string suffix_note(SuffixThreshold min_pairs) {
  return !min_pairs         ? "suffix at the default threshold"
         : *min_pairs == 0u ? "suffix off"
                            : "suffix from " + std::to_string(*min_pairs) + " pairs";
}

// The dense scenes, exact at every threshold. A tile takes the suffix path
// only with kSuffixCircles (48) whole-tile pairs or more: at threshold 1
// biglittle and littlebig, mostly whole-tile circles, take it and settle
// (all its pixels' starts meet) somewhere from 100², and rand100k at 517²;
// at the default settings biglittle and littlebig take it at 517².
TEST_F(GpuTest, CudaSuffixDenseScenesMatchReference) {
  for (const std::string name : {"rand10k", "rand100k", "biglittle", "littlebig"}) {
    const bool whole_tile_scene = name == "biglittle" || name == "littlebig";
    for_each_size_case(
        name, {{1, false}, {7, false}, {100, false}, {517, false}, {100, true}},
        [&](const scenes::Scene& scene, int size, const Image& expected, const std::string& where) {
          for (const SuffixThreshold min_pairs : kSuffixThresholds) {
            const render::CudaSuffixTiles tiles =
                expect_cuda_matches(scene, size, expected, suffix_options(min_pairs),
                                    where + ", " + suffix_note(min_pairs));
            if (min_pairs == 0u) {
              EXPECT_EQ(tiles.tried, 0u) << where;
            }
            if (!min_pairs && whole_tile_scene && size == 517) {
              EXPECT_GT(tiles.settled, 0u) << where << ", the default settings";
            }
            const bool takes_it =
                (whole_tile_scene && size >= 100) || (name == "rand100k" && size == 517);
            if (min_pairs != 1u || !takes_it) continue;
            EXPECT_GT(tiles.tried, 0u) << where;
            EXPECT_GT(tiles.settled, 0u) << where;
          }
        });
  }
}

// Draws `frames` frames with the reference and the CUDA renderer, each over
// the last without a clear (the first over the new image's zeros unless
// `clear`), compares each bit for bit and returns the suffix counts.
render::CudaSuffixTiles expect_frames_match(const scenes::Scene& scene, int width, int height,
                                            const CudaRendererOptions& options, int frames,
                                            bool clear, const std::string& what) {
  RefRenderer ref;
  ref.setup(scene, width, height);
  CudaRenderer cuda(options);
  cuda.setup(scene, width, height);
  if (clear) {
    ref.clear();
    cuda.clear();
  }
  for (int frame = 0; frame < frames; ++frame) {
    ref.render();
    cuda.render();
    EXPECT_EQ(difference(cuda.image(), ref.image(), 0.f), "")
        << what << " at " << width << "x" << height << ", frame " << frame
        << (clear ? "" : " (never cleared)") << " (" << cuda.describe() << ")";
  }
  return cuda.suffix_tiles();
}

// Circles stacked on the middle of the image: a white one, alternating
// extremes (0 and 1e30), equal colors (on circles that cover the middle
// tiles whole, so that those tiles take the suffix path), colors above 1,
// zero and negative radii, a zero radius exactly on a pixel center of the
// 64² image.
scenes::Scene suffix_extremes_scene() {
  std::vector<Circle> circles = {{0.5f, 0.5f, 0.f, 0.45f, 1.f, 1.f, 1.f}};
  for (int i = 0; i < 300; ++i) {
    const float c = i % 2 ? 0.f : 1e30f;
    circles.push_back({0.5f, 0.5f, 0.f, 0.1f + 0.001f * (i % 50), c, 1.f, c});
  }
  for (int i = 0; i < 100; ++i) circles.push_back({0.5f, 0.5f, 0.f, 0.75f, 0.25f, 0.25f, 0.25f});
  for (int i = 0; i < 100; ++i)
    circles.push_back({0.45f + 0.001f * i, 0.5f, 0.f, 0.2f, 2.f + i % 3, 0.5f, 0x1p-125f});
  circles.push_back({0.5f, 0.5f, 0.f, 0.f, 2.f, 2.f, 2.f});
  circles.push_back({0.5f, 0.5f, 0.f, -0.2f, 2.f, 2.f, 2.f});
  circles.push_back({0.5f / 64.f * 33.f, 0.5f / 64.f * 33.f, 0.f, 0.f, 3.f, 0.f, 3.f});
  return make_scene(circles);
}

// Whole-image circles filling whole batches (256 circles: one batch or
// more at every rows-per-thread setting), then a black tail longer than the
// suffix: the window starts after the colored circles, and from 1 (the
// clear color) the bound halves only 100 times, so no covered pixel's starts
// meet and every tile must fall back to the full blend.
scenes::Scene suffix_black_tail_scene() {
  std::vector<Circle> circles;
  for (int i = 0; i < 256; ++i) circles.push_back({0.5f, 0.5f, 0.f, 2.f, 0.7f, 0.2f, 0.9f});
  for (int i = 0; i < 100; ++i) circles.push_back({0.5f, 0.5f, 0.f, 2.f, 0.f, 0.f, 0.f});
  return make_scene(circles);
}

TEST_F(GpuTest, CudaSuffixStackedExtremesMatchReference) {
  const scenes::Scene scene = suffix_extremes_scene();
  for (const int size : {1, 7, 64, 100}) {
    for (const bool clear : {true, false}) {
      const render::CudaSuffixTiles tiles =
          expect_frames_match(scene, size, size, suffix_options(1), 3, clear, "extremes");
      EXPECT_GT(tiles.tried, 0u) << size;
    }
  }
}

TEST_F(GpuTest, CudaSuffixFallsBackWhereStartsDoNotMeet) {
  const scenes::Scene scene = suffix_black_tail_scene();
  for (const int size : {1, 7, 64, 100}) {
    const render::CudaSuffixTiles tiles =
        expect_frames_match(scene, size, size, suffix_options(1), 2, true, "black tail");
    EXPECT_GT(tiles.tried, 0u) << size;
    EXPECT_EQ(tiles.settled, 0u) << size;
  }
}

// The share of whole-tile pairs a tile needs (suffix_min_full_percent): in a
// 64² image every tile holds 300 whole-image circles and then 20 small ones
// of its own, 93.75% whole, so tiles try the suffix at 93% and not at 94%.
TEST_F(GpuTest, CudaSuffixWholeTileShare) {
  std::vector<Circle> circles;
  for (int i = 0; i < 300; ++i)
    circles.push_back({0.5f, 0.5f, 0.f, 2.f, 0.2f + 0.002f * i, 0.5f, 0.9f});
  for (int tile = 0; tile < 16; ++tile)
    for (int i = 0; i < 20; ++i)
      circles.push_back({(tile % 4 + 0.5f) / 4.f, (tile / 4 + 0.5f) / 4.f, 0.f, 0.02f, 0.9f,
                         0.1f * (i % 10), 0.3f});
  const scenes::Scene scene = make_scene(circles);
  for (const auto& [percent, tries] : {std::pair{93u, true}, std::pair{94u, false}}) {
    CudaRendererOptions o = suffix_options(1);
    o.suffix_min_full_percent = percent;
    const render::CudaSuffixTiles tiles = expect_frames_match(
        scene, 64, 64, o, 2, true, "whole-tile share " + std::to_string(percent) + "%");
    EXPECT_EQ(tiles.tried > 0, tries) << percent << "%";
  }
}

// Colors whose halving may round (subnormal, negative, -0), snow and
// animated scenes: suffix compositing does not apply, the image is exact.
TEST_F(GpuTest, CudaSuffixOnlyWhereItsProofHolds) {
  for (const float bad : {1e-40f, -0.5f, -0.f, 0x1p-126f}) {
    scenes::Scene scene = suffix_extremes_scene();
    scene.g[scene.size() / 2] = bad;
    const render::CudaSuffixTiles tiles =
        expect_frames_match(scene, 64, 64, suffix_options(1), 2, true, "an unsafe color");
    EXPECT_EQ(tiles.tried, 0u) << bad;
  }
  for (const std::string name : {"snowsingle", "bouncingballs", "hypnosis"}) {
    const scenes::Scene& scene = cached_scene(name, 0);
    RefRenderer ref;
    ref.setup(scene, 100, 100);
    const render::CudaSuffixTiles tiles =
        expect_cuda_matches(scene, 100, draw_frame(ref), suffix_options(1), name);
    EXPECT_EQ(tiles.tried, 0u) << name;
  }
}

// Circles centered far outside the image (beyond 4 units, so their pairs
// are clipped to their boxes) whose edges cross it, over a few ordinary
// ones: the suffix's run count must apply the box exactly as the per-pixel
// test does.
TEST_F(GpuTest, CudaSuffixClippedCirclesMatchReference) {
  std::mt19937 gen(random_seed());
  std::uniform_real_distribution<float> unit(0.f, 1.f);
  std::vector<Circle> circles;
  for (int i = 0; i < 1500; ++i) {
    Circle c{unit(gen), unit(gen), unit(gen), 0.05f + 0.1f * unit(gen),
             unit(gen), unit(gen), unit(gen)};
    if (i % 4 != 0) { // far away on one side, its edge at `edge` inside the image
      const float edge = unit(gen);
      const float far = 4.1f + unit(gen);
      switch (i % 4) {
      case 1:
        c.x = -far;
        c.radius = edge + far;
        break;
      case 2:
        c.x = 1.f + far;
        c.radius = far + 1.f - edge;
        break;
      default:
        c.y = -far;
        c.radius = edge + far;
        break;
      }
    }
    circles.push_back(c);
  }
  const scenes::Scene scene = make_scene(circles);
  const std::string what =
      "far circles (RENDER_TEST_SEED=" + std::to_string(random_seed() - 1) + ")";
  std::uint64_t settled = 0; // the runs' counts reach the image only in settled tiles
  for (const auto& [w, h] : {std::pair{100, 100}, std::pair{130, 67}, std::pair{256, 256}}) {
    const render::CudaSuffixTiles tiles =
        expect_frames_match(scene, w, h, suffix_options(1), 2, true, what);
    EXPECT_GT(tiles.tried, 0u) << what;
    settled += tiles.settled;
  }
  EXPECT_GT(settled, 0u) << what;
}

// Random dense scenes with awkward safe colors (0, 1, repeats, above 1, the
// smallest safe value, huge), fresh each run, at awkward sizes, drawn from
// the clear color and over the never-cleared zeros, several frames each.
TEST_F(GpuTest, CudaSuffixRandomScenesMatchReference) {
  std::mt19937 gen(random_seed());
  std::uniform_real_distribution<float> unit(0.f, 1.f);
  const float awkward[] = {0.f, 1.f, 3.5f, 0x1p-125f, 0.5f, 1e30f};
  render::CudaSuffixTiles tame_tiles;
  for (int n = 0; n < 4; ++n) {
    // Scene 3 leaves out 1e30: from a bound that high the starts need over
    // a hundred circles to meet, so tiles hardly settle; without it the
    // bounds meet.
    const bool tame = n == 3;
    const std::size_t choices = std::size(awkward) - (tame ? 1 : 0);
    std::vector<Circle> circles;
    const int count = 500 + static_cast<int>(gen() % 3000);
    const float max_radius = n % 2 ? 0.6f : 0.2f;
    for (int i = 0; i < count; ++i) {
      Circle c{unit(gen), unit(gen), unit(gen), unit(gen) * max_radius, 0, 0, 0};
      if (i % 97 == 0) c.radius = 0.f;
      float* channels[] = {&c.r, &c.g, &c.b};
      for (float* v : channels) *v = gen() % 3 ? unit(gen) : awkward[gen() % choices];
      circles.push_back(c);
    }
    const scenes::Scene scene = make_scene(circles);
    const std::string what = "random scene " + std::to_string(n) +
                             " (RENDER_TEST_SEED=" + std::to_string(random_seed() - 1) + ")";
    for (const auto& [w, h] :
         {std::pair{1, 1}, std::pair{7, 130}, std::pair{100, 100}, std::pair{130, 67}})
      for (const bool clear : {true, false}) {
        const render::CudaSuffixTiles tiles =
            expect_frames_match(scene, w, h, suffix_options(1), 2, clear, what);
        if (tame) {
          tame_tiles.tried += tiles.tried;
          tame_tiles.settled += tiles.settled;
        }
      }
  }
  EXPECT_GT(tame_tiles.tried, 0u);
  EXPECT_GT(tame_tiles.settled, 0u) << "the scene without 1e30 settled no tile";
}

// A dense scene drawn over itself, and in passes (each pass draws over the
// image the last one left): of few pairs, where no tile holds enough
// whole-tile pairs for the suffix, and of many, where biglittle's do.
TEST_F(GpuTest, CudaSuffixOverTheLastFrameAndInPassesMatchesReference) {
  for (const std::string name : {"rand10k", "biglittle"}) {
    const scenes::Scene& scene = cached_scene(name, 0);
    for (const SuffixThreshold min_pairs : {SuffixThreshold{1u}, SuffixThreshold{}}) {
      for (const std::optional<std::size_t> pairs :
           {std::optional<std::size_t>{}, std::optional{std::size_t{1000}},
            std::optional{std::size_t{100003}}}) {
        CudaRendererOptions o = suffix_options(min_pairs);
        o.max_pairs_per_pass = pairs;
        const std::string passes =
            pairs ? "passes of " + std::to_string(*pairs) + " pairs" : "passes of the default size";
        const render::CudaSuffixTiles tiles = expect_frames_match(
            scene, 211, 211, o, 3, true, name + ", " + suffix_note(min_pairs) + ", " + passes);
        if (min_pairs == 1u && name == "biglittle" && pairs != std::size_t{1000}) {
          EXPECT_GT(tiles.settled, 0u) << name << ", " << passes;
        }
      }
    }
  }
}

// The programs' renderer (make_cuda_renderer(mode)) takes the suffix
// settings from RENDER_CUDA_SUFFIX_MIN_PAIRS and RENDER_CUDA_SUFFIX_MIN_FULL
// (test_cuda_settings.cpp checks their values on the host). Unset, the
// suffix is on from 256 pairs with 25% of them whole-tile.
TEST_F(GpuTest, CudaSuffixVariablesReachTheProgramsRenderer) {
  constexpr const char* kPairs = "RENDER_CUDA_SUFFIX_MIN_PAIRS";
  constexpr const char* kFull = "RENDER_CUDA_SUFFIX_MIN_FULL";
  const auto setup = [](const scenes::Scene& scene) {
    std::unique_ptr<render::Renderer> cuda = render::make_cuda_renderer(CudaMode::Binned);
    cuda->setup(scene, 64, 64);
    return cuda;
  };
  // Every tile of at least `min_pairs` pairs (and 48 whole-tile ones) tries,
  // whatever its share of whole-tile pairs.
  const auto tried = [&](const char* min_pairs) {
    EXPECT_EQ(setenv(kPairs, min_pairs, 1), 0);
    EXPECT_EQ(setenv(kFull, "off", 1), 0);
    const std::unique_ptr<render::Renderer> cuda = setup(suffix_black_tail_scene());
    draw_frame(*cuda);
    const std::string description = render::describe_cuda_mode(*cuda);
    const render::CudaSuffixTiles tiles = dynamic_cast<CudaRenderer&>(*cuda).suffix_tiles();
    EXPECT_EQ(description.find("suffix") != std::string::npos, tiles.tried > 0) << description;
    return tiles.tried;
  };
  unsetenv(kPairs);
  unsetenv(kFull);
  const std::string description = render::describe_cuda_mode(*setup(cached_scene("rand10k", 0)));
  EXPECT_NE(description.find("suffix from 256 pairs per tile with 25% whole-tile"),
            std::string::npos)
      << description;
  EXPECT_EQ(tried("off"), 0u);
  EXPECT_GT(tried("1"), 0u);
  unsetenv(kPairs);
  unsetenv(kFull);
}

} // namespace
