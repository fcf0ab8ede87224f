// Rung 4, the design the course asks for: rung 3 (one block per 16x16 tile,
// circles in batches of one per thread, each thread testing its circle's box
// against the tile), plus one step. An exclusive scan of the batch's hit
// flags in shared memory gives each hit its place in a list; the hits are
// written there in index order, and every thread shades its pixel over that
// list only.
//
// Faster than rung 3: after the scan, the threads walk only the circles that
// touch the tile instead of stepping over every slot of the batch. On scenes
// of many small circles a batch holds a few hits among blockDim circles, and
// the walk shrinks by that factor, for the price of the scan's few barriers.
// What is left: every tile still tests every circle (the binned mode, stage
// two of docs/cuda_renderer.md, removes that).
#include "common/cuda_check.h"
#include "cuda_ladder.h"
#include "ladder_device.cuh"

namespace render::gpu::ladder {

namespace {

constexpr int kThreads = kTilePixels; // one per pixel of the tile, one per circle of a batch

// Exclusive prefix sum of kThreads values in shared memory, in place (the
// work-efficient up-sweep/down-sweep of Blelloch). Returns the sum of them
// all. Every thread of the block must call it; it starts and ends with a
// barrier, so the values may be written just before and read just after.
__device__ unsigned exclusive_scan(unsigned* data, unsigned* total) {
  const int t = static_cast<int>(threadIdx.x);
  // Up-sweep: a binary tree of partial sums, built in place. At each level,
  // thread t adds the left node of its pair into the right one.
  for (int stride = 1; stride < kThreads; stride *= 2) {
    __syncthreads();
    const int right = (t + 1) * 2 * stride - 1;
    if (right < kThreads) data[right] += data[right - stride];
  }
  __syncthreads();
  // The root holds the total; an exclusive scan starts from 0 there.
  if (t == 0) {
    *total = data[kThreads - 1];
    data[kThreads - 1] = 0;
  }
  // Down-sweep: each node hands its value (the sum of everything left of its
  // subtree) to its left child, and that plus the left child's old sum to
  // its right child.
  for (int stride = kThreads / 2; stride >= 1; stride /= 2) {
    __syncthreads();
    const int right = (t + 1) * 2 * stride - 1;
    if (right < kThreads) {
      const unsigned left_sum = data[right - stride];
      data[right - stride] = data[right];
      data[right] += left_sum;
    }
  }
  __syncthreads();
  return *total;
}

__global__ void classic_kernel(SceneArrays scene, FrameGeometry frame, bool snow, float4* pixels) {
  __shared__ unsigned position[kThreads]; // the hit flags, then their places in the list
  __shared__ unsigned hit_total;
  __shared__ int hit_circle[kThreads]; // the batch's hits, in index order
  __shared__ shade::PixelBox hit_box[kThreads];

  const int t = static_cast<int>(threadIdx.x);
  TilePixel pixel = load_tile_pixel(pixels, frame);

  for (int first = 0; first < scene.count; first += kThreads) {
    // Each thread tests one circle of the batch against the tile.
    const int i = first + t;
    const shade::PixelBox box = batch_circle_box(scene, i, frame);
    const bool hit = box_touches_tile(box, pixel.tile_x, pixel.tile_y);
    position[t] = hit ? 1u : 0u;
    const unsigned hits = exclusive_scan(position, &hit_total);
    // Hits of lower index get lower places, so the list keeps index order.
    if (hit) {
      hit_circle[position[t]] = i;
      hit_box[position[t]] = box;
    }
    __syncthreads(); // the list is complete

    // Each thread walks the list only.
    for (unsigned k = 0; k < hits; ++k)
      shade_tile_pixel(pixel, scene, hit_circle[k], hit_box[k], snow);
    __syncthreads(); // all have read the list before the next batch overwrites it
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
