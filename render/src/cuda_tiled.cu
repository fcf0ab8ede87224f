// Tiled mode, the course's design: every tile looks at every circle. Each
// batch, a thread tests one circle against the tile (its tile span, then the
// exact classification), and the hits are compacted into the batch.
#include <cuda_pipeline.h>

#include <stdexcept>
#include <string>

#include "common/cuda_check.h"
#include "cuda_kernels.h"
#include "cuda_tile_shading.h"

namespace render::gpu {

namespace {

// One thread per pixel, as the course's design has it.
constexpr int kTiledRows = 1;
constexpr int kTiledThreads = kTilePixels / kTiledRows;

struct TiledSource {
  static constexpr bool kCompact = true;
  // Spans of this many batches are in flight at once. Most batches of a scene
  // of small circles hold no hit for a given tile and cost little more than
  // the wait for their spans (pattern: 5 batches, about 3 hits per tile).
  // The spans go straight to shared memory with asynchronous copies, so the
  // depth costs no registers.
  static constexpr int kPrefetch = 4;

  const uint2* tiles;
  const float4* geometry;
  const float4* paint;
  int count;

  struct Cursor {
    int batches;
  };
  struct Ticket {}; // the spans wait in span_ring()

  // Slot [batch % kPrefetch][thread]: each thread reads only its own copies.
  __device__ static uint2* span_ring() {
    __shared__ uint2 ring[kPrefetch * kTiledThreads];
    return ring;
  }
  __device__ static uint2& span_slot(int batch) {
    return span_ring()[(batch % kPrefetch) * kTiledThreads + static_cast<int>(threadIdx.x)];
  }

  __device__ Cursor begin(int) const { return Cursor{(count + kTiledThreads - 1) / kTiledThreads}; }

  __device__ int circle(int batch) const {
    return batch * kTiledThreads + static_cast<int>(threadIdx.x);
  }

  // One commit group per call, empty past the last circle, so that waiting
  // for all but the newest kPrefetch - 1 groups finds batch b's span landed.
  __device__ Ticket fetch(const Cursor&, int batch) const {
    const int i = circle(batch);
    uint2& slot = span_slot(batch);
    if (i < count)
      __pipeline_memcpy_async(&slot, &tiles[i], sizeof(uint2));
    else
      slot = make_uint2(1u, 1u); // an empty span
    __pipeline_commit();
    return {};
  }

  __device__ Candidate resolve(const Cursor&, int batch, Ticket, int tile_x, int tile_y,
                               const TileRect& rect, const FrameGeometry& f) const {
    __pipeline_wait_prior(kPrefetch - 1);
    Candidate c;
    const TileSpan span = unpack_tile_span(span_slot(batch));
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

template <Shading kShading, int kBlocksPerSm>
__global__ void __launch_bounds__(kTiledThreads, kBlocksPerSm)
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
