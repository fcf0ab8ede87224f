// The animation steps on the GPU give the host's results bit for bit
// (skipped without a GPU).
#include <gtest/gtest.h>

#include <string>

#include "gpu_advance.h"
#include "gpu_test.h"
#include "scene_compare.h"
#include "scenes/scene.h"

namespace {

class AnimationOnGpu : public GpuTestWithParam<const char*> {};

TEST_P(AnimationOnGpu, MatchesTheHostBitForBit) {
  const char* name = GetParam();
  scenes::Scene host = scenes::load_scene(name, 17);
  scenes::Scene device = host;
  // Long enough for bounces, ring restarts, spark restarts and snow wraps.
  constexpr int kFrames = 400;
  for (int frame = 0; frame < kFrames; ++frame) scenes::advance(host);
  scenes_test::advance_on_gpu(device, kFrames);
  EXPECT_TRUE(scenes_test::scenes_identical(device, host)) << name;
}

INSTANTIATE_TEST_SUITE_P(Scenes, AnimationOnGpu,
                         testing::Values("bouncingballs", "hypnosis", "fireworks", "snow"),
                         [](const testing::TestParamInfo<const char*>& param) {
                           return std::string(param.param);
                         });

} // namespace
