// The per-frame work around the tile shading: clearing the image, stepping
// the animation with the scenes library's own step functions, and building
// each circle's records (and, for binned mode, its tile count).
#include "common/cuda_check.h"
#include "kernels.h"
#include "render/shade.h"
#include "scenes/animation.h"
#include "shading/coverage.h"

namespace render::gpu {

namespace {

// blockIdx.y is the row.
__global__ void clear_kernel(float4* pixels, int width, int height, bool snow) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (x >= width) return;
  const int row = static_cast<int>(blockIdx.y);
  const float gray = shade::clear_gray(row, height, snow);
  pixels[static_cast<std::size_t>(row) * width + x] = make_float4(gray, gray, gray, 1.f);
}

// One thread per circle. Every step reads and writes only its own circle
// (fireworks sparks also read their shell, which no step writes), exactly as
// scenes::advance runs them one after another on the host.
__global__ void advance_kernel(SceneArrays s, scenes::Animation animation) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= s.count) return;
  scenes::advance_circle(animation, i,
                         scenes::CircleArrays{s.x, s.y, s.z, s.vx, s.vy, s.vz, s.radius});
}

// With kCount, thread `count` also writes the scan's extra zero entry.
template <bool kCount>
__global__ void prepare_kernel(SceneArrays s, FrameGeometry frame, CircleRecords out,
                               BinCounts bins) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (kCount && i == s.count) bins.tile_counts[i] = 0;
  if (i >= s.count) return;
  const float radius = s.radius[i];
  const float4 geometry = make_float4(s.x[i], s.y[i], shade::mul(radius, radius), radius);
  // The color half of the blend depends on the circle only: computed once here.
  const shade::BlendTerms terms =
      shade::blend_terms(shade::flat_contribution(s.r[i], s.g[i], s.b[i]));
  out.geometry[i] = geometry;
  out.paint[i] = make_float4(terms.base[0], terms.base[1], terms.base[2], s.z[i]);
  const uint2 span = pack_tile_span(box_of(geometry, frame));
  out.tiles[i] = span;
  if constexpr (kCount) {
    if (walked_by_warp(unpack_tile_span(span))) {
      // A work list for count_tiles_by_warp. Its order does not matter: counts
      // and pair offsets are kept per circle.
      bins.warp_circles[atomicAdd(bins.warp_circle_count, 1u)] = static_cast<std::uint32_t>(i);
      return;
    }
    const std::uint32_t kinds = small_span_kinds(geometry, frame);
    bins.small_kinds[i] = kinds;
    bins.tile_counts[i] = static_cast<std::uint64_t>(kept_tile_count(kinds));
  }
}

} // namespace

void clear_image(float4* pixels, const FrameGeometry& frame, bool snow, cudaStream_t stream) {
  const dim3 blocks(helper_blocks(static_cast<std::size_t>(frame.width)),
                    static_cast<unsigned>(frame.height));
  clear_kernel<<<blocks, kHelperThreads, 0, stream>>>(pixels, frame.width, frame.height, snow);
  CUDA_CHECK_LAUNCH();
}

void advance_scene(const SceneArrays& scene, scenes::Animation animation, cudaStream_t stream) {
  // Launched even for zero circles, so a warm-up call loads the kernel.
  const unsigned blocks =
      scene.count > 0 ? helper_blocks(static_cast<std::size_t>(scene.count)) : 1;
  advance_kernel<<<blocks, kHelperThreads, 0, stream>>>(scene, animation);
  CUDA_CHECK_LAUNCH();
}

void prepare_circles(const SceneArrays& scene, const FrameGeometry& frame,
                     const CircleRecords& circles, const BinCounts* bins, cudaStream_t stream) {
  if (bins) {
    prepare_kernel<true>
        <<<helper_blocks(static_cast<std::size_t>(scene.count) + 1), kHelperThreads, 0, stream>>>(
            scene, frame, circles, *bins);
  } else {
    if (scene.count == 0) return;
    prepare_kernel<false>
        <<<helper_blocks(static_cast<std::size_t>(scene.count)), kHelperThreads, 0, stream>>>(
            scene, frame, circles, BinCounts{});
  }
  CUDA_CHECK_LAUNCH();
}

} // namespace render::gpu
