// Rung 2: one thread per pixel, walking every circle in index order. Only
// one thread writes each pixel, and it takes the circles in the reference's
// order, so the image is exact, with no atomics: the pixel stays in
// registers and is written once.
//
// Slow: every pixel looks at every circle, although most circles touch few
// pixels: rand10k at 1024x1024 makes 10^10 box tests. The next rung asks
// once per 16x16 tile which circles can matter there.
#include "common/cuda_check.h"
#include "ladder.h"
#include "ladder_device.cuh"

namespace render::gpu::ladder {

namespace {

// A 2D grid of 16x16 blocks over the image.
__global__ void pixels_kernel(SceneArrays scene, FrameGeometry frame, bool snow, float4* pixels) {
  const int px = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int py = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (px >= frame.width || py >= frame.height) return;
  const float center_x = shade::pixel_center(px, frame.inverse_width);
  const float center_y = shade::pixel_center(py, frame.inverse_height);
  float rgba[4];
  load_pixel(rgba, pixels, frame, px, py);
  for (int i = 0; i < scene.count; ++i)
    shade_circle(rgba, scene, i, circle_box(scene, i, frame), px, py, center_x, center_y, snow);
  store_pixel(rgba, pixels, frame, px, py);
}

} // namespace

void draw_pixels(const SceneArrays& scene, const FrameGeometry& frame, bool snow, float4* pixels,
                 cudaStream_t stream) {
  if (scene.count == 0) return;
  const dim3 blocks(static_cast<unsigned>(frame.tiles_x), static_cast<unsigned>(frame.tiles_y));
  const dim3 threads(kTileSide, kTileSide);
  pixels_kernel<<<blocks, threads, 0, stream>>>(scene, frame, snow, pixels);
  CUDA_CHECK_LAUNCH();
}

} // namespace render::gpu::ladder
