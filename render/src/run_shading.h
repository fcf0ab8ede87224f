// Shading a flat circle (any scene but snow) run by run: the fast path of the
// CPU renderer, giving the same bits as shading pixel by pixel.
#pragma once

#include "render/image.h"
#include "render/shade.h"

namespace render {

struct FlatCircle {
  float x;
  float y;
  float radius;
  shade::BlendTerms terms; // its constant contribution
};

// Blends `circle` into every pixel of `box` it covers. `box` must lie inside
// the circle's pixel box and the image.
//
// Why runs: along a row, the pixel center only grows, so dx = x − center only
// falls, and dx², then dx² + dy² (rounding is monotonic) fall and then rise.
// So the covered pixels of a row are one run, which, if not empty, holds the
// column where dx changes sign or the one before it. Each row finds its run
// with a few exact coverage tests, starting from the last row's run, and
// blends it without testing each pixel.
void shade_flat_circle_runs(Image& image, const FlatCircle& circle, const shade::PixelBox& box,
                            float inverse_width, float inverse_height);

} // namespace render
