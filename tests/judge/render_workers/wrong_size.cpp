// Draws into an image of its own size, not the scene's.
#include <memory>

#include "render/ref_renderer.h"
#include "student_renderer.h"

namespace render {
namespace {
class WrongSize : public RefRenderer {
public:
  void setup(const scenes::Scene& scene, int width, int height) override {
    RefRenderer::setup(scene, width + 1, height);
  }
};
} // namespace
std::unique_ptr<Renderer> make_student_renderer() {
  return std::make_unique<WrongSize>();
}
} // namespace render
