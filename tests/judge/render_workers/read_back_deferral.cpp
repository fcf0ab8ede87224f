// The exploit of issue 24: render() returns at once and the real work runs
// in image(), the read-back a frame loop does not time. Its images are
// right; the judge charges the read-back's excess to the frame.
#include <memory>

#include "render/ref_renderer.h"
#include "student_renderer.h"

namespace render {
namespace {
class Deferred : public RefRenderer {
public:
  void clear() override {}
  void render() override { pending_ = true; }
  const Image& image() override {
    if (pending_) {
      RefRenderer::clear();
      RefRenderer::render();
      pending_ = false;
    }
    return RefRenderer::image();
  }

private:
  bool pending_ = false;
};
} // namespace
std::unique_ptr<Renderer> make_student_renderer() {
  return std::make_unique<Deferred>();
}
} // namespace render
