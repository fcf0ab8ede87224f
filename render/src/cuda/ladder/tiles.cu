// Rung 3: one thread block per 16x16 tile, one thread per pixel. The block
// takes the circles in batches of one per thread: each thread tests its
// circle's box against the tile and leaves a flag (and the box) in shared
// memory; then every thread walks the whole batch in index order and shades
// its pixel with the flagged circles.
//
// Faster than one thread per pixel: a circle's box is computed once per
// tile instead of once per pixel, and most circles are dismissed by one
// shared-memory flag. Still, every thread steps over all blockDim flags of
// every batch, hits or not: on scenes of many small circles nearly all of
// that walk is spent on misses. The next rung packs each batch's hits into a
// short list first.
#include "common/cuda_check.h"
#include "ladder.h"
#include "ladder_device.cuh"

namespace render::gpu::ladder {

namespace {

constexpr int kThreads = kTilePixels; // one per pixel of the tile, one per circle of a batch

__global__ void tiles_kernel(SceneArrays scene, FrameGeometry frame, bool snow, float4* pixels) {
  __shared__ bool hit[kThreads];
  __shared__ shade::PixelBox boxes[kThreads];

  const int t = static_cast<int>(threadIdx.x);
  TilePixel pixel = load_tile_pixel(pixels, frame);

  for (int first = 0; first < scene.count; first += kThreads) {
    // Each thread tests one circle of the batch against the tile.
    const shade::PixelBox box = batch_circle_box(scene, first + t, frame);
    hit[t] = box_touches_tile(box, pixel.tile_x, pixel.tile_y);
    boxes[t] = box;
    __syncthreads(); // the batch's flags are all written

    // Each thread walks the whole batch, in index order.
    const int batch = min(kThreads, scene.count - first);
    for (int k = 0; k < batch; ++k)
      if (hit[k]) shade_tile_pixel(pixel, scene, first + k, boxes[k], snow);
    __syncthreads(); // all have read the batch before the next one overwrites it
  }
  store_tile_pixel(pixel, pixels, frame);
}

} // namespace

void draw_tiles(const SceneArrays& scene, const FrameGeometry& frame, bool snow, float4* pixels,
                cudaStream_t stream) {
  if (scene.count == 0) return;
  tiles_kernel<<<static_cast<unsigned>(frame.tile_count()), kThreads, 0, stream>>>(scene, frame,
                                                                                   snow, pixels);
  CUDA_CHECK_LAUNCH();
}

} // namespace render::gpu::ladder
