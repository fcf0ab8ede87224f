#include "render/ref_renderer.h"

namespace render {

void RefRenderer::clear() {
  clear_rows(0, height());
}

void RefRenderer::render() {
  for (std::size_t i = 0; i < scene().size(); ++i) {
    const Circle c = circle(i);
    shade_circle(c, box_of(c));
  }
}

} // namespace render
