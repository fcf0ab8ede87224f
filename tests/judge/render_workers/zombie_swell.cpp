// Draws the frame in image(), the read-back (deferred.h, as
// read_back_deferral does: on the judge's clock, charged as the median span
// beyond the allowance), and swells the allowance with helpers the pause
// must hold as well (zombie_burners.h): they burn the cores while the judge
// holds the worker stopped, which is when it times its empty renderer.
#include <memory>

#include "deferred.h"
#include "student_renderer.h"
#include "zombie_burners.h"

namespace render {
namespace {
class Swelling : public Deferred {
public:
  void setup(const scenes::Scene& scene, int width, int height) override {
    zombie::start_burners();
    Deferred::setup(scene, width, height);
  }
};
} // namespace
std::unique_ptr<Renderer> make_student_renderer() {
  return std::make_unique<Swelling>();
}
} // namespace render
