// Rung 1, the course's starting point: one thread per circle, each blending
// its circle into every pixel of its box, straight in the image in global
// memory (read, blend, write back).
//
// Wrong on purpose, in two ways (render -c shows it on any scene whose
// circles overlap):
// - Order. The blend is not commutative: a pixel under circles 3 and 7 must
//   take 3 first. Threads of different circles run in no fixed order.
// - Atomicity. A blend reads a pixel and writes it back later; two threads
//   on one pixel may both read the old color, and one blend is then lost.
// The rungs after this one give each pixel to exactly one thread, which
// takes its circles in index order: no atomics needed, and exact.
#include "common/cuda_check.h"
#include "ladder.h"
#include "ladder_device.cuh"

namespace render::gpu::ladder {

namespace {

__global__ void circles_kernel(SceneArrays scene, FrameGeometry frame, bool snow, float4* pixels) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= scene.count) return;
  const shade::PixelBox box = circle_box(scene, i, frame);
  for (int py = box.min_y; py < box.max_y; ++py) {
    const float center_y = shade::pixel_center(py, frame.inverse_height);
    for (int px = box.min_x; px < box.max_x; ++px) {
      const float center_x = shade::pixel_center(px, frame.inverse_width);
      float rgba[4];
      load_pixel(rgba, pixels, frame, px, py); // another circle's thread may be here too: the race
      if (shade_circle(rgba, scene, i, box, px, py, center_x, center_y, snow))
        store_pixel(rgba, pixels, frame, px, py);
    }
  }
}

} // namespace

void draw_circles(const SceneArrays& scene, const FrameGeometry& frame, bool snow, float4* pixels,
                  cudaStream_t stream) {
  if (scene.count == 0) return;
  circles_kernel<<<helper_blocks(static_cast<std::size_t>(scene.count)), kHelperThreads, 0,
                   stream>>>(scene, frame, snow, pixels);
  CUDA_CHECK_LAUNCH();
}

} // namespace render::gpu::ladder
