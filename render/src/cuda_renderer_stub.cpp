// Stands in for the CUDA renderer until its sources are part of the build
// (render/CMakeLists.txt picks one or the other).
#include <stdexcept>

#include "render/renderer.h"

namespace render {

bool cuda_renderer_available() {
  return false;
}

std::unique_ptr<Renderer> make_cuda_renderer() {
  throw std::runtime_error("the CUDA renderer is not available in this build yet");
}

} // namespace render
