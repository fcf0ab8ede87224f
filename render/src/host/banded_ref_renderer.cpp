#include "render/banded_ref_renderer.h"

#include <algorithm>

#include "parallel.h"

namespace render {

namespace {
// Rows per band: small enough that the threads stay busy to the end, large
// enough that walking every circle once per band stays cheap.
constexpr int kBandRows = 16;
} // namespace

BandedRefRenderer::BandedRefRenderer(int threads)
    : threads_(threads > 0 ? threads : hardware_threads()) {}

void BandedRefRenderer::clear() {
  clear_rows(0, height());
}

void BandedRefRenderer::render() {
  const std::size_t bands = static_cast<std::size_t>((height() + kBandRows - 1) / kBandRows);
  parallel_for(threads_, bands, [&](std::size_t band) {
    const int begin = static_cast<int>(band) * kBandRows;
    const int end = std::min(height(), begin + kBandRows);
    for (std::size_t i = 0; i < scene().size(); ++i) {
      const Circle c = circle(i);
      shade::PixelBox box = box_of(c);
      box.min_y = std::max(box.min_y, begin);
      box.max_y = std::min(box.max_y, end);
      if (box.min_y < box.max_y && box.min_x < box.max_x) shade_circle(c, box);
    }
  });
}

} // namespace render
