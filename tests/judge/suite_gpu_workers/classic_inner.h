// Our classic mode, as the exploit workers here wrap it: no warm-up frame
// and no recorded frames, so each call does its own work when it is made
// and the wrapper alone decides when the drawing happens.
#pragma once

#include <memory>

#include "render/cuda_renderer.h"

namespace render {

inline std::unique_ptr<Renderer> make_classic_inner() {
  CudaRendererOptions options;
  options.mode = CudaMode::RungClassic;
  options.warm_up = false;
  options.use_graphs = false;
  return make_cuda_renderer(options);
}

} // namespace render
