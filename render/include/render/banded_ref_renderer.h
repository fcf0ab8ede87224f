// The serial reference with its rows split among threads: each thread owns
// a band of rows and walks every circle in index order, shading only the
// band's part of the circle's box. Every pixel sees the same circles in the
// same order with the same arithmetic as in RefRenderer, so the image is
// the same bits. The judge draws its reference frames with it.
#pragma once

#include <string>

#include "render/host_renderer.h"

namespace render {

class BandedRefRenderer : public HostRenderer {
public:
  // threads <= 0: one per hardware thread.
  explicit BandedRefRenderer(int threads = 0);
  std::string name() const override { return "cpuref-banded"; }
  void clear() override;
  void render() override;

private:
  int threads_;
};

} // namespace render
