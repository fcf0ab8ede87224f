#include "render/ref_renderer.h"

namespace render {

void RefRenderer::clear() {
  clear_rows(0, height());
}

void RefRenderer::render() {
  for (std::size_t i = 0; i < scene().size(); ++i) shade_circle(i, box_of(i));
}

} // namespace render
