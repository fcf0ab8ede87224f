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
#include "cuda_ladder.h"
#include "ladder_device.cuh"

namespace render::gpu::ladder {

namespace {

constexpr int kThreads = kTilePixels; // one per pixel of the tile, one per circle of a batch

__global__ void tiles_kernel(SceneArrays scene, FrameGeometry frame, bool snow, float4* pixels) {
  __shared__ bool hit[kThreads];
  __shared__ shade::PixelBox boxes[kThreads];

  const int t = static_cast<int>(threadIdx.x);
  const int tile_x = static_cast<int>(blockIdx.x) % frame.tiles_x;
  const int tile_y = static_cast<int>(blockIdx.x) / frame.tiles_x;
  const int px = tile_x * kTileSide + t % kTileSide;
  const int py = tile_y * kTileSide + t / kTileSide;
  // Edge tiles may reach past the image: those threads test circles and
  // wait at the barriers like the others, but own no pixel.
  const bool in_image = px < frame.width && py < frame.height;
  const float center_x = shade::pixel_center(px, frame.inverse_width);
  const float center_y = shade::pixel_center(py, frame.inverse_height);
  float rgba[4] = {0.f, 0.f, 0.f, 0.f};
  if (in_image) load_pixel(rgba, pixels, frame, px, py);

  for (int first = 0; first < scene.count; first += kThreads) {
    // Each thread tests one circle of the batch against the tile.
    const int i = first + t;
    const shade::PixelBox box =
        i < scene.count ? circle_box(scene, i, frame) : shade::PixelBox{0, 0, 0, 0}; // empty
    hit[t] = box_touches_tile(box, tile_x, tile_y);
    boxes[t] = box;
    __syncthreads(); // the batch's flags are all written

    // Each thread walks the whole batch, in index order.
    const int batch = min(kThreads, scene.count - first);
    for (int k = 0; k < batch; ++k)
      if (hit[k] && in_image)
        shade_circle(rgba, scene, first + k, boxes[k], px, py, center_x, center_y, snow);
    __syncthreads(); // all have read the batch before the next one overwrites it
  }
  if (in_image) store_pixel(rgba, pixels, frame, px, py);
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
