// Draws ONE timed frame (timed frame 1) in its load's setup(), and every
// other frame honestly in render(). The judge charges work moved out of the
// frame as the median of the spans beyond the allowance, the same charge to
// every frame, and scores the best frame: with one frame of three moved,
// the median span is an honest one, nothing is charged, and the moved
// frame's own time (a frame call that does nothing) is the row's best.
#include <memory>

#include "render/ref_renderer.h"
#include "student_renderer.h"

namespace render {
namespace {

// setup() calls: 1 the warm-up's decoy, 2 the warm-up's load, 3 timed frame
// 1's decoy, 4 timed frame 1's load, ...
int setups = 0;

class Minority : public RefRenderer {
public:
  void setup(const scenes::Scene& scene, int width, int height) override {
    RefRenderer::setup(scene, width, height);
    drawn_ = ++setups == 4;
    if (drawn_) {
      RefRenderer::clear();
      RefRenderer::advance();
      RefRenderer::render();
    }
  }
  void clear() override {
    if (!drawn_) RefRenderer::clear();
  }
  void advance() override {
    if (!drawn_) RefRenderer::advance();
  }
  void render() override {
    if (!drawn_) RefRenderer::render();
  }

private:
  bool drawn_ = false;
};

} // namespace
std::unique_ptr<Renderer> make_student_renderer() {
  return std::make_unique<Minority>();
}
} // namespace render
