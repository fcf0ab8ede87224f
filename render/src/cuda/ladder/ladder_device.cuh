// What every rung of the ladder does the same way: find a circle's pixel
// box, shade one pixel with one circle, read and write a pixel. Device code;
// include from the ladder's .cu files only.
#pragma once

#include "kernels.h"
#include "render/shade.h"

namespace render::gpu::ladder {

// The ladder's tile, apart from the tuned modes' (tuning.h).
constexpr int kTileSide = tuning::kLadderTileSide;
constexpr int kTilePixels = kTileSide * kTileSide;

// The pixels circle i may touch, exactly as the reference computes them.
__device__ inline shade::PixelBox circle_box(const SceneArrays& s, int i, const FrameGeometry& f) {
  return shade::circle_box(s.x[i], s.y[i], s.radius[i], f.width, f.height);
}

__device__ inline bool box_contains(const shade::PixelBox& box, int px, int py) {
  return px >= box.min_x && px < box.max_x && py >= box.min_y && py < box.max_y;
}

// Whether the box reaches into 16x16 tile (tile_x, tile_y): a cheap test
// that never misses a pixel the circle covers (it may pass circles that
// cover none of the tile's pixels; the per-pixel test then skips them).
__device__ inline bool box_touches_tile(const shade::PixelBox& box, int tile_x, int tile_y) {
  const int x0 = tile_x * kTileSide;
  const int y0 = tile_y * kTileSide;
  return box.min_x < x0 + kTileSide && box.max_x > x0 && box.min_y < y0 + kTileSide &&
         box.max_y > y0;
}

// Pixel (px, py), centered at (center_x, center_y), takes circle i, whose box
// is `box`: the reference shades a circle's box only, with the coverage test
// and the blend of shade::shade_pixel. Returns whether the pixel changed.
__device__ inline bool shade_circle(float* rgba, const SceneArrays& s, int i,
                                    const shade::PixelBox& box, int px, int py, float center_x,
                                    float center_y, bool snow) {
  if (!box_contains(box, px, py)) return false;
  return shade::shade_pixel(rgba, center_x, center_y, s.x[i], s.y[i], s.z[i], s.radius[i], s.r[i],
                            s.g[i], s.b[i], snow);
}

__device__ inline void load_pixel(float* rgba, const float4* pixels, const FrameGeometry& f, int px,
                                  int py) {
  const float4 p = pixels[static_cast<std::size_t>(py) * f.width + px];
  rgba[0] = p.x;
  rgba[1] = p.y;
  rgba[2] = p.z;
  rgba[3] = p.w;
}

__device__ inline void store_pixel(const float* rgba, float4* pixels, const FrameGeometry& f,
                                   int px, int py) {
  pixels[static_cast<std::size_t>(py) * f.width + px] =
      make_float4(rgba[0], rgba[1], rgba[2], rgba[3]);
}

// A thread of the tile rungs: one block per 16x16 tile (row-major), thread t
// on pixel t of the tile, holding its color in registers.
struct TilePixel {
  int tile_x, tile_y;
  int x, y;
  // Edge tiles may reach past the image: those threads test circles and
  // wait at the barriers like the others, but own no pixel.
  bool in_image;
  float center_x, center_y;
  float rgba[4];
};

__device__ inline TilePixel load_tile_pixel(const float4* pixels, const FrameGeometry& f) {
  const int t = static_cast<int>(threadIdx.x);
  TilePixel p;
  p.tile_x = static_cast<int>(blockIdx.x) % f.tiles_x;
  p.tile_y = static_cast<int>(blockIdx.x) / f.tiles_x;
  p.x = p.tile_x * kTileSide + t % kTileSide;
  p.y = p.tile_y * kTileSide + t / kTileSide;
  p.in_image = p.x < f.width && p.y < f.height;
  p.center_x = shade::pixel_center(p.x, f.inverse_width);
  p.center_y = shade::pixel_center(p.y, f.inverse_height);
  for (float& c : p.rgba) c = 0.f;
  if (p.in_image) load_pixel(p.rgba, pixels, f, p.x, p.y);
  return p;
}

__device__ inline void store_tile_pixel(const TilePixel& p, float4* pixels,
                                        const FrameGeometry& f) {
  if (p.in_image) store_pixel(p.rgba, pixels, f, p.x, p.y);
}

// The box of circle i in a batch, empty past the scene's last circle.
__device__ inline shade::PixelBox batch_circle_box(const SceneArrays& s, int i,
                                                   const FrameGeometry& f) {
  return i < s.count ? circle_box(s, i, f) : shade::PixelBox{0, 0, 0, 0};
}

// Pixel p takes circle i (see shade_circle); nothing outside the image.
__device__ inline void shade_tile_pixel(TilePixel& p, const SceneArrays& s, int i,
                                        const shade::PixelBox& box, bool snow) {
  if (p.in_image) shade_circle(p.rgba, s, i, box, p.x, p.y, p.center_x, p.center_y, snow);
}

} // namespace render::gpu::ladder
