// Rung 4, the design the course asks for: rung 3 (one block per 16x16 tile,
// circles in batches of one per thread, each thread testing its circle's box
// against the tile), plus one step. An exclusive scan of the batch's hit
// flags gives each hit its place in a list; the hits are written there in
// index order, and every thread shades its pixel over that list only.
//
// Faster than rung 3: after the scan, the threads walk only the circles that
// touch the tile instead of stepping over every slot of the batch. On scenes
// of many small circles a batch holds a few hits among blockDim circles, and
// the walk shrinks by that factor, for the price of the scan's few barriers.
// The scan is the block-wide one the handout gives students
// (render/student/block_scan.cuh), so this reference is built from what a
// student has. What is left: every tile still tests every circle (the
// binned mode, stage two of docs/design/cuda_renderer.md, removes that).
#include "block_scan.cuh"
#include "common/cuda_check.h"
#include "ladder.h"
#include "ladder_device.cuh"

namespace render::gpu::ladder {

namespace {

constexpr int kThreads = kTilePixels; // one per pixel of the tile, one per circle of a batch

__global__ void classic_kernel(SceneArrays scene, FrameGeometry frame, bool snow, float4* pixels) {
  __shared__ BlockScanStorage<kThreads, unsigned> scan_storage;
  __shared__ int hit_circle[kThreads]; // the batch's hits, in index order
  __shared__ shade::PixelBox hit_box[kThreads];

  const int t = static_cast<int>(threadIdx.x);
  TilePixel pixel = load_tile_pixel(pixels, frame);

  for (int first = 0; first < scene.count; first += kThreads) {
    // Each thread tests one circle of the batch against the tile.
    const int i = first + t;
    const shade::PixelBox box = batch_circle_box(scene, i, frame);
    const bool hit = box_touches_tile(box, pixel.tile_x, pixel.tile_y);
    unsigned hits = 0;
    const unsigned place = block_exclusive_scan<kThreads>(hit ? 1u : 0u, scan_storage, hits);
    // Hits of lower index get lower places, so the list keeps index order.
    if (hit) {
      hit_circle[place] = i;
      hit_box[place] = box;
    }
    __syncthreads(); // the list is complete

    // Each thread walks the list only.
    for (unsigned k = 0; k < hits; ++k)
      shade_tile_pixel(pixel, scene, hit_circle[k], hit_box[k], snow);
    // No barrier here: the next batch's scan waits for the whole block (all
    // done reading this list) before any thread writes the list again.
  }
  store_tile_pixel(pixel, pixels, frame);
}

} // namespace

void draw_classic(const SceneArrays& scene, const FrameGeometry& frame, bool snow, float4* pixels,
                  cudaStream_t stream) {
  if (scene.count == 0) return;
  classic_kernel<<<static_cast<unsigned>(frame.tile_count()), kThreads, 0, stream>>>(scene, frame,
                                                                                     snow, pixels);
  CUDA_CHECK_LAUNCH();
}

} // namespace render::gpu::ladder
