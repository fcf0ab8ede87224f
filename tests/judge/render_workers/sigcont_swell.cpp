// Draws the frame in image(), the read-back (deferred.h, as
// read_back_deferral does), and swells the allowance with helpers that
// undo the judge's pause (sigcont_burners.h): they burn the cores while the
// judge holds the worker, which is when it times its empty renderer. The
// judge must reject it for running while held.
#include <memory>

#include "deferred.h"
#include "sigcont_burners.h"
#include "student_renderer.h"

namespace render {
namespace {
class Swelling : public Deferred {
public:
  void setup(const scenes::Scene& scene, int width, int height) override {
    static bool started = false;
    if (!started) sigcont::start_helpers(4);
    started = true;
    Deferred::setup(scene, width, height);
  }
};
} // namespace
std::unique_ptr<Renderer> make_student_renderer() {
  return std::make_unique<Swelling>();
}
} // namespace render
