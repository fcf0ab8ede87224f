// The course's design ladder in the CUDA renderer (render -r cuda -m
// pixels, tiles, classic; circles is wrong on purpose): every exact rung
// against the serial reference on every scene at sizes off the 16-pixel
// grid, animated, drawn without a clear, and on the edge scenes.
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

// ------------------------------------------------------- design ladder

// The ladder's rungs that must be exact (circles is wrong on purpose).
constexpr CudaMode kExactRungs[] = {CudaMode::RungPixels, CudaMode::RungTiles,
                                    CudaMode::RungClassic};

// Sizes off the 16-pixel grid, 1x1 and one on it, with both seeds; 517 too
// where the pixels rung (every pixel walks every circle) stays quick.
std::vector<SizeCase> ladder_sizes_for(const std::string& scene) {
  std::vector<SizeCase> cases = {{1, false}, {7, false}, {33, false}, {64, false}, {100, true}};
  const bool heavy = scene == "rand100k" || scene == "biglittle" || scene == "littlebig" ||
                     scene == "rand1M" || scene == "micro2M";
  if (!heavy) cases.push_back({517, false});
  return cases;
}

class CudaLadderScene : public GpuTestWithParam<std::string> {};

TEST_P(CudaLadderScene, ExactRungsMatchReference) {
  const std::string& name = GetParam();
  for_each_size_case(
      name, ladder_sizes_for(name),
      [](const scenes::Scene& scene, int size, const Image& expected, const std::string& where) {
        expect_modes_match(scene, size, expected, kExactRungs, where);
      });
}

INSTANTIATE_TEST_SUITE_P(AllScenes, CudaLadderScene, ::testing::ValuesIn(scenes::scene_names()),
                         [](const ::testing::TestParamInfo<std::string>& p) { return p.param; });

// Animation through the renderer's own advance, and frames drawn over the
// last one without a clear, in every exact rung.
TEST_F(GpuTest, CudaLadderAnimatesAndDrawsWithoutClearLikeReference) {
  for (const std::string name : {"bouncingballs", "hypnosis", "fireworks", "snow"}) {
    const scenes::Scene& scene = cached_scene(name, 0);
    const float tolerance = render::check_tolerance(scene, render::RendererKind::Cuda);
    constexpr int kSize = 75;
    for (const CudaMode mode : kExactRungs) {
      const std::string what = name + ", " + render::cuda_mode_name(mode);
      RefRenderer ref;
      ref.setup(scene, kSize, kSize);
      CudaRenderer cuda(with_mode(mode));
      cuda.setup(scene, kSize, kSize);
      for (int frame = 0; frame < 3; ++frame) {
        const Image& expected = draw_frame(ref);
        ASSERT_EQ(difference(draw_frame(cuda), expected, tolerance), "")
            << what << ", frame " << frame;
      }
      for (int i = 0; i < 40; ++i) {
        ref.advance();
        cuda.advance();
      }
      ref.render();
      cuda.render();
      EXPECT_EQ(difference(cuda.image(), ref.image(), tolerance), "")
          << what << ", drawn over the last frame";
    }
  }
}

// The edge scenes (far, huge, NaN and negative circles, none at all) and a
// non-square image.
TEST_F(GpuTest, CudaLadderEdgeScenesMatchReference) {
  for (const auto& [what, scene] : edge_scenes()) {
    for (const int size : {1, 7, 33}) {
      RefRenderer ref;
      ref.setup(scene, size, size);
      const Image expected = draw_frame(ref);
      expect_modes_match(scene, size, expected, kExactRungs,
                         what + " at " + std::to_string(size) + "²");
    }
  }
  const scenes::Scene& scene = cached_scene("rand10k", 0);
  RefRenderer ref;
  ref.setup(scene, 301, 77);
  const Image expected = draw_frame(ref);
  for (const CudaMode mode : kExactRungs) {
    CudaRenderer cuda(with_mode(mode));
    cuda.setup(scene, 301, 77);
    EXPECT_EQ(difference(draw_frame(cuda), expected, 0.f), "")
        << "301x77, " << render::cuda_mode_name(mode);
  }
}

// The circles rung is selectable and runs. Where no two circles share a
// pixel it has no race and no order to get wrong, so it must be exact there;
// where they overlap its result depends on how the threads happen to run,
// so only the image's size and the untouched pixels are certain.
TEST_F(GpuTest, CudaLadderCirclesRunsAndIsExactWithoutOverlaps) {
  std::vector<Circle> apart;
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j)
      apart.push_back({0.1f + 0.2f * i, 0.1f + 0.2f * j, 0.5f, 0.07f, 0.2f * i, 0.2f * j, 0.5f});
  for (const bool snow : {false, true}) {
    const scenes::Scene scene = make_scene(apart, snow);
    RefRenderer ref;
    ref.setup(scene, 97, 97);
    const Image expected = draw_frame(ref);
    CudaRenderer cuda(with_mode(CudaMode::RungCircles));
    cuda.setup(scene, 97, 97);
    EXPECT_EQ(cuda.mode(), CudaMode::RungCircles);
    EXPECT_EQ(difference(draw_frame(cuda), expected,
                         render::check_tolerance(scene, render::RendererKind::Cuda)),
              "")
        << (snow ? "snow" : "flat") << " circles apart";
  }
  // Overlapping circles: a pixel no circle covers keeps the clear color
  // (alpha 1; every blend adds to alpha), whatever the threads did.
  const scenes::Scene& rgb = cached_scene("rgb", 0);
  RefRenderer ref;
  ref.setup(rgb, 256, 256);
  const Image& expected = draw_frame(ref);
  CudaRenderer cuda(with_mode(CudaMode::RungCircles));
  cuda.setup(rgb, 256, 256);
  const Image& image = draw_frame(cuda);
  ASSERT_EQ(image.width(), 256);
  ASSERT_EQ(image.height(), 256);
  int uncovered = 0;
  for (int y = 0; y < 256; ++y) {
    for (int x = 0; x < 256; ++x) {
      if (expected.pixel(x, y)[3] != 1.f) continue;
      ++uncovered;
      for (int c = 0; c < 4; ++c)
        ASSERT_EQ(image.pixel(x, y)[c], expected.pixel(x, y)[c]) << x << ", " << y;
    }
  }
  EXPECT_GT(uncovered, 0);
  EXPECT_LT(uncovered, 256 * 256);
}

} // namespace
