#include "cuda_checks.h"

#include <limits>
#include <map>

#include "test_seed.h"
#include "test_util.h"

namespace cuda_checks {

using render_test::Circle;
using render_test::make_scene;

std::uint32_t random_seed() {
  static const std::uint32_t seed = test_seed_from("RENDER_TEST_SEED") % 1000000u + 1u;
  return seed;
}

const scenes::Scene& cached_scene(const std::string& name, std::uint32_t seed) {
  static std::map<std::pair<std::string, std::uint32_t>, scenes::Scene> cache;
  const auto key = std::make_pair(name, seed);
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, scenes::load_scene(name, seed)).first;
  return it->second;
}

const Image& draw_frame(render::Renderer& renderer) {
  renderer.clear();
  renderer.advance();
  renderer.render();
  return renderer.image();
}

std::string difference(const Image& actual, const Image& expected, float tolerance) {
  const render::ImageComparison c = render::compare_images(actual, expected, tolerance);
  if (!c.sizes_match) return "sizes differ";
  if (c.passed() && (tolerance > 0 || render_test::same_bits(actual, expected))) return "";
  std::string text = std::to_string(c.mismatches) + " pixels differ (largest error " +
                     std::to_string(c.max_error) + ")";
  if (c.first_x >= 0)
    text += ", first at [" + std::to_string(c.first_x) + "][" + std::to_string(c.first_y) +
            "] channel " + std::to_string(c.first_channel) + ": " +
            std::to_string(c.first_actual[c.first_channel]) + " instead of " +
            std::to_string(c.first_expected[c.first_channel]);
  else
    text += " (only in the sign of a zero)";
  return text;
}

render::CudaSuffixTiles expect_cuda_matches(const scenes::Scene& scene, int size,
                                            const Image& expected,
                                            const CudaRendererOptions& options,
                                            const std::string& what) {
  CudaRenderer cuda(options);
  cuda.setup(scene, size, size);
  const std::string diff = difference(draw_frame(cuda), expected,
                                      render::check_tolerance(scene, render::RendererKind::Cuda));
  EXPECT_EQ(diff, "") << what << " (" << cuda.describe() << ")";
  return cuda.suffix_tiles();
}

CudaRendererOptions with_mode(CudaMode mode) {
  CudaRendererOptions o;
  o.mode = mode;
  return o;
}

std::vector<std::pair<std::string, scenes::Scene>> edge_scenes() {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<std::pair<std::string, scenes::Scene>> list;
  list.emplace_back("far and huge circles",
                    make_scene({{1e6f + 0.5f, 0.5f, 0.5f, 1e6f, 1.f, 0.2f, 0.1f},
                                {0.5f, -3e5f, 0.5f, 3e5f + 0.4f, 0.1f, 0.9f, 0.3f},
                                {5.f, 5.f, 0.1f, 6.5f, 0.3f, 0.3f, 0.9f},
                                {-2.f, 0.5f, 0.2f, 2.3f, 0.9f, 0.9f, 0.1f}}));
  list.emplace_back("odd radii", make_scene({{0.5f, 0.5f, 0.5f, -0.001f, 1.f, 0.f, 0.f},
                                             {0.3f, 0.3f, 0.5f, 0.f, 0.f, 1.f, 0.f},
                                             {0.25f, 0.25f, 0.5f, 0.f, 0.f, 0.f, 1.f},
                                             {0.7f, 0.2f, 0.5f, 1e-30f, 1.f, 1.f, 0.f},
                                             {0.6f, 0.6f, 0.5f, inf, 0.2f, 0.2f, 0.2f},
                                             {nan, 0.5f, 0.5f, 0.1f, 0.5f, 0.5f, 0.5f},
                                             {0.5f, 0.5f, 0.5f, nan, 0.5f, 0.5f, 0.5f},
                                             {inf, 0.5f, 0.5f, 0.1f, 0.5f, 0.5f, 0.5f},
                                             {0.5f, -inf, 0.5f, 0.1f, 0.5f, 0.5f, 0.5f}}));
  std::vector<Circle> black;
  for (int i = 0; i < 300; ++i) black.push_back({0.5f, 0.5f, 0.5f, 0.4f, 0.f, 1e-38f, 0.f});
  black.push_back({0.5f, 0.5f, 0.5f, 0.45f, 1e-30f, 0.f, 0.5f});
  list.emplace_back("300 black circles", make_scene(black));
  std::vector<Circle> bright;
  for (int i = 0; i < 400; ++i)
    bright.push_back({0.3f + 0.001f * i, 0.5f, 0.5f, 0.3f, 0.1f + 0.002f * i, 0.5f, 0.9f});
  list.emplace_back("400 stacked colored circles", make_scene(bright));
  std::vector<Circle> snowy;
  for (int i = 0; i < 50; ++i)
    snowy.push_back({0.02f * i, 0.5f, 0.02f * i, 0.05f + 0.001f * i, 1.f, 1.f, 1.f});
  list.emplace_back("hand-made snow", make_scene(snowy, true));
  list.emplace_back("no circles", make_scene({}));
  return list;
}

} // namespace cuda_checks
