// How setup settles the CUDA renderer's mode, and the line that says why: a
// requested mode is kept; auto times frame 0 in tiled and binned mode and
// keeps the faster (binned, untimed, where tiled would test too many
// circles). The frames drawn also warm up the kernels and record the chosen
// mode's graph. Plain C++.
#pragma once

#include <string>

#include "render/cuda_mode.h"
#include "setup/settings.h"

namespace render::gpu {

// The renderer's frames, as the choice draws them.
class TrialFrames {
public:
  virtual void clear() = 0;               // as CudaRenderer::clear
  virtual void render(CudaMode mode) = 0; // one frame in `mode`, waited for

protected:
  ~TrialFrames() = default;
};

struct ModeChoice {
  CudaMode mode = CudaMode::Auto;
  std::string description; // CudaRenderer::describe()
};

// The frame's shape: its tile count, the scene's circle count, whether it
// is a snow scene, and whether suffix compositing applies to it. A kept
// choice is one made for the same tiles, circles and snow: variants of a
// scene differ in colors, which decide the suffix and the fused blend but
// not the work.
struct TrialShape {
  int tile_count = 0;
  int circle_count = 0;
  bool snow = false;
  bool suffix = false;
};

// The mode for a frame of that shape. With settings.reuse_auto_choice, auto
// keeps a choice made earlier in this process for the same shape and draws
// nothing to make it (one frame with warm_up). Otherwise it draws through
// `frames`: nothing for a requested mode without warm-up; otherwise each frame from the clear
// color, the trials (auto's timed ones after one warm-up frame per mode) and then one more in the
// chosen mode, so the first timed frame finds its graph recorded (a binned frame of a still scene
// records it once the pair count is known, on its second frame).
ModeChoice choose_mode(const settings::Settings& settings, const TrialShape& shape,
                       TrialFrames& frames);

} // namespace render::gpu
