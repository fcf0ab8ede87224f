// The serial reference renderer: the definition of a correct image.
#pragma once

#include <string>

#include "render/host_renderer.h"

namespace render {

// For each circle in index order, shades every pixel of its box. One thread.
class RefRenderer : public HostRenderer {
public:
  std::string name() const override { return "cpuref"; }
  void clear() override;
  void render() override;
};

} // namespace render
