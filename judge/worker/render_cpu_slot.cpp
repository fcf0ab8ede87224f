// The renderer slot done by the parallel CPU renderer, so the judge can time
// it on host memory (grade.sh --renderer cpu). Not in a handout.
#include <memory>

#include "render/renderer_factory.h"
#include "student_renderer.h"

namespace render {

std::unique_ptr<Renderer> make_student_renderer() {
  return make_cpu_renderer();
}

} // namespace render
