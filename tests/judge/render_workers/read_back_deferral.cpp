// The exploit of issue 24: render() returns at once and the real work runs
// in image(), the read-back a frame loop does not time (deferred.h). Its
// images are right; the judge charges the read-back's excess to the frame.
#include <memory>

#include "deferred.h"
#include "student_renderer.h"

namespace render {
std::unique_ptr<Renderer> make_student_renderer() {
  return std::make_unique<Deferred>();
}
} // namespace render
