// Tiled mode, the course's design: every tile looks at every circle. Each
// batch, a thread tests one circle against the tile (its tile span, then the
// exact classification), and the hits are compacted into the batch.
#include <stdexcept>
#include <string>

#include "common/cuda_check.h"
#include "kernels.h"
#include "shading/tile_shading.h"

namespace render::gpu {

namespace {

// One thread per pixel, as the course's design has it (tuning.h).
constexpr int kTiledRows = tuning::kTiledRows;
constexpr int kTiledThreads = kTilePixels / kTiledRows;

struct TiledSource {
  static constexpr bool kCompact = true;

  const uint2* tiles;
  const float4* geometry;
  const float4* paint;
  int count;

  struct Cursor {
    int batches;
  };
  // A circle's tile span: all the first look needs.
  using Ticket = uint2;

  __device__ Cursor begin(int) const { return Cursor{(count + kTiledThreads - 1) / kTiledThreads}; }

  __device__ int circle(int batch) const {
    return batch * kTiledThreads + static_cast<int>(threadIdx.x);
  }

  __device__ Ticket fetch(const Cursor&, int batch) const {
    const int i = circle(batch);
    return i < count ? tiles[i] : make_uint2(1u, 1u); // empty span
  }

  __device__ Candidate resolve(const Cursor&, int batch, Ticket ticket, int tile_x, int tile_y,
                               const TileRect& rect, const FrameGeometry& f) const {
    Candidate c;
    const TileSpan span = unpack_tile_span(ticket);
    if (tile_x < span.x0 || tile_x > span.x1 || tile_y < span.y0 || tile_y > span.y1) return c;
    const int i = circle(batch);
    // Both records in one round trip: the paint is needed by most circles
    // whose span touches the tile, and waiting for the classification first
    // adds a dependent load to every batch.
    c.geometry = geometry[i];
    c.paint = paint[i];
    const int kind = classify(c.geometry, box_of(c.geometry, f), rect, f);
    if (kind == kMiss) return c;
    c.hit = true;
    c.kind = static_cast<std::uint32_t>(kind);
    return c;
  }

  __device__ int dense_count(const Cursor&, int) const { return 0; } // compacting source
};

// At most the blocks one SM holds on the architecture being compiled (threads
// per SM: 1024 on sm_75, 1536 on sm_86 to sm_89 and sm_120, 2048 on the
// others): ptxas ignores, with a warning, launch bounds that ask for more.
constexpr int resident_blocks(int wanted) {
#if __CUDA_ARCH__ == 750
  constexpr int kThreadsPerSm = 1024;
#elif (__CUDA_ARCH__ >= 860 && __CUDA_ARCH__ < 900) || __CUDA_ARCH__ >= 1200
  constexpr int kThreadsPerSm = 1536;
#else
  constexpr int kThreadsPerSm = 2048;
#endif
  return wanted < kThreadsPerSm / kTiledThreads ? wanted : kThreadsPerSm / kTiledThreads;
}

template <Shading kShading, int kBlocksPerSm>
__global__ void __launch_bounds__(kTiledThreads, resident_blocks(kBlocksPerSm))
    tiled_kernel(TiledSource source, FrameGeometry frame, PixelStart start, float4* pixels) {
  shade_tile<TiledSource, kShading, kTiledRows>(source, frame, start, pixels);
}

template <Shading kShading>
void launch(const TiledSource& source, const FrameGeometry& frame, int blocks_per_sm,
            PixelStart start, float4* pixels, cudaStream_t stream) {
  const unsigned blocks = static_cast<unsigned>(frame.tile_count());
  switch (blocks_per_sm) {
  case 4:
    tiled_kernel<kShading, 4><<<blocks, kTiledThreads, 0, stream>>>(source, frame, start, pixels);
    break;
  case 6:
    tiled_kernel<kShading, 6><<<blocks, kTiledThreads, 0, stream>>>(source, frame, start, pixels);
    break;
  case 8:
    tiled_kernel<kShading, 8><<<blocks, kTiledThreads, 0, stream>>>(source, frame, start, pixels);
    break;
  default:
    throw std::invalid_argument("tiled shading: blocks per SM must be 4, 6 or 8, not " +
                                std::to_string(blocks_per_sm));
  }
  CUDA_CHECK_LAUNCH();
}

} // namespace

void shade_tiled(const CircleRecords& circles, int count, const FrameGeometry& frame,
                 Shading shading, int blocks_per_sm, PixelStart start, float4* pixels,
                 cudaStream_t stream) {
  const TiledSource source{circles.tiles, circles.geometry, circles.paint, count};
  switch (shading) {
  case Shading::FlatExact:
    return launch<Shading::FlatExact>(source, frame, blocks_per_sm, start, pixels, stream);
  case Shading::FlatFused:
    return launch<Shading::FlatFused>(source, frame, blocks_per_sm, start, pixels, stream);
  case Shading::Snow:
    return launch<Shading::Snow>(source, frame, blocks_per_sm, start, pixels, stream);
  }
}

} // namespace render::gpu
