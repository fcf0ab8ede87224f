// render/cuda_mode.h for the suite's CUDA renderer: the modes' names, and
// the renderer the programs make, its tuning from the environment.
#include "render/cuda_mode.h"

#include <stdexcept>
#include <string>

#include "common/enum_names.h"
#include "render/cuda_renderer.h"
#include "setup/settings.h"

namespace render {

namespace {

constexpr common::NamedValue<CudaMode> kModeNames[] = {{CudaMode::RungCircles, "circles"},
                                                       {CudaMode::RungPixels, "pixels"},
                                                       {CudaMode::RungTiles, "tiles"},
                                                       {CudaMode::RungClassic, "classic"},
                                                       {CudaMode::Tiled, "tiled"},
                                                       {CudaMode::Binned, "binned"},
                                                       {CudaMode::Auto, "auto"}};

} // namespace

const char* cuda_mode_name(CudaMode mode) {
  return common::enum_name(kModeNames, mode, "unknown");
}

CudaMode parse_cuda_mode(const std::string& text) {
  if (const auto mode = common::enum_from_name(kModeNames, text)) return *mode;
  throw std::invalid_argument("unknown CUDA mode '" + text +
                              "' (valid modes: " + cuda_mode_names() + ")");
}

std::string cuda_mode_names() {
  return common::enum_names(kModeNames);
}

// The one place the RENDER_CUDA_* variables are read.
std::unique_ptr<Renderer> make_cuda_renderer(CudaMode mode) {
  CudaRendererOptions options;
  options.mode = mode;
  return make_cuda_renderer(gpu::settings::with_environment(options));
}

std::string describe_cuda_mode(const Renderer& renderer) {
  const auto* cuda = dynamic_cast<const CudaRenderer*>(&renderer);
  return cuda ? cuda->describe() : std::string();
}

} // namespace render
