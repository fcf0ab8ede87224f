// The course's circle-in-box tests, given to you: may a circle reach a part
// of the image (a tile of pixels, say)? A renderer asks this to skip, for a
// whole region, the circles that cannot cover any of its pixels.
//
// Plain C++, so host code and tests can call them; under nvcc they are
// __host__ __device__, so kernels can too. Header only: include it from
// render/student/student_renderer.cu as "circle_box.h".
//
// Coordinates are the scene's: the image is the unit square, a pixel column
// px has its center at (px + 0.5) / width (render/include/render/shade.h,
// pixel_center). The box is [box_left, box_right] x [box_bottom, box_top],
// with left <= right and bottom <= top (bottom is the smaller y); the radius
// is 0 or more. Circles and boxes are closed: touching counts.
//
// Float rounding near a tangent circle can decide either way, and the
// shading tests pixel centers with its own rounding. So to ask whether a
// circle may cover some pixel center of a tile, pass the whole tile (from
// the left edge of its first pixel column to the right edge of its last):
// it reaches half a pixel past the outer pixel centers, far more than
// rounding moves either test.
#pragma once

#if defined(__CUDACC__)
#define RENDER_HELPER_HD __host__ __device__
#else
#define RENDER_HELPER_HD
#endif

namespace render {

// Conservative: never false when the circle and the box intersect, but may
// be true when they do not (near a corner of the box). It compares the
// circle's bounding square with the box: four comparisons and no product,
// the cheap first filter. Rounding cannot make it miss: x + r rounds to a
// float at least as large as box_left whenever the exact sum is.
RENDER_HELPER_HD inline bool circle_may_touch_box(float x, float y, float radius, float box_left,
                                                  float box_right, float box_bottom,
                                                  float box_top) {
  return x + radius >= box_left && x - radius <= box_right && y + radius >= box_bottom &&
         y - radius <= box_top;
}

// Exact up to float rounding: true when the circle and the box intersect.
// The box's point nearest the center is the center clamped to the box; they
// intersect when that point lies within the radius.
RENDER_HELPER_HD inline bool circle_touches_box(float x, float y, float radius, float box_left,
                                                float box_right, float box_bottom, float box_top) {
  const float nearest_x = x < box_left ? box_left : (x > box_right ? box_right : x);
  const float nearest_y = y < box_bottom ? box_bottom : (y > box_top ? box_top : y);
  const float dx = x - nearest_x;
  const float dy = y - nearest_y;
  return dx * dx + dy * dy <= radius * radius;
}

} // namespace render
