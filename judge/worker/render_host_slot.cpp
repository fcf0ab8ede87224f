// The renderer slot done by one of the host renderers (RENDER_HOST: "cpu",
// the parallel CPU renderer, or "serial", the reference), so the judge can
// time them on host memory: grade.sh --renderer cpu grades the first
// against the second's time over the machine's cores.
#include <memory>
#include <string>

#include "render/cpu_renderer.h"
#include "render/ref_renderer.h"
#include "student_renderer.h"

#ifndef RENDER_HOST
#error "RENDER_HOST names the host renderer (CMake sets it)"
#endif

namespace render {

std::unique_ptr<Renderer> make_student_renderer() {
  if (std::string(RENDER_HOST) == "cpu") return std::make_unique<CpuRenderer>();
  return std::make_unique<RefRenderer>();
}

} // namespace render
