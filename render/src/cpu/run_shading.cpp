#include "run_shading.h"

#include <cstring>

namespace render {

namespace {

// shade::apply_blend on `count` consecutive pixels, one 4-wide vector
// operation per pixel: the same IEEE multiplies and adds, channel by channel.
void blend_run(float* pixels, int count, const shade::BlendTerms& terms) {
  typedef float Float4 __attribute__((vector_size(16)));
  Float4 base;
  Float4 scale;
  std::memcpy(&base, terms.base, sizeof base);
  std::memcpy(&scale, terms.scale, sizeof scale);
  for (int i = 0; i < count; ++i, pixels += Image::kChannels) {
    Float4 p;
    std::memcpy(&p, pixels, sizeof p);
    p = base + scale * p;
    std::memcpy(pixels, &p, sizeof p);
  }
}

} // namespace

void shade_flat_circle_runs(Image& image, const FlatCircle& circle, const shade::PixelBox& box,
                            float inverse_width, float inverse_height) {
  for_each_covered_run(circle.x, circle.y, circle.radius, box, inverse_width, inverse_height,
                       [&](int row, int first, int last) {
                         blend_run(image.pixel(first, row), last - first + 1, circle.terms);
                       });
}

} // namespace render
