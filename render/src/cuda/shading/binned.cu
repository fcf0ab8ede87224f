// Binned mode's second half: each tile's block reads only its own range of
// the sorted pairs, a batch at a time, gathering the circles' records; flat
// tiles with many pairs may first try suffix compositing (shading/suffix.h).
#include <stdexcept>
#include <string>

#include "common/cuda_check.h"
#include "kernels.h"
#include "shading/suffix.h"
#include "shading/tile_shading.h"

namespace render::gpu {

namespace {

template <int kThreads> struct BinnedSource {
  static constexpr bool kCompact = false; // a tile's pairs are all hits

  const uint2* ranges;
  const std::uint32_t* values;
  const float4* geometry;
  const float4* paint;

  struct Cursor {
    std::uint32_t first;
    std::uint32_t end;
    int batches;
  };
  // The pair's value: the circle and its kind.
  using Ticket = std::uint32_t;

  __device__ Cursor begin(int tile) const {
    const uint2 range = ranges[tile];
    return Cursor{range.x, range.y,
                  static_cast<int>((range.y - range.x + kThreads - 1) / kThreads)};
  }

  __device__ std::uint32_t pair(const Cursor& cursor, int batch) const {
    return cursor.first + static_cast<std::uint32_t>(batch) * kThreads + threadIdx.x;
  }

  __device__ Ticket fetch(const Cursor& cursor, int batch) const {
    const std::uint32_t p = pair(cursor, batch);
    return p < cursor.end ? values[p] : 0u;
  }

  __device__ Candidate resolve(const Cursor& cursor, int batch, Ticket ticket, int, int,
                               const TileRect&, const FrameGeometry&) const {
    Candidate c;
    if (pair(cursor, batch) >= cursor.end) return c;
    const std::uint32_t circle = ticket & kCircleMask;
    c.hit = true;
    c.kind = ticket >> kKindShift;
    c.geometry = geometry[circle];
    c.paint = paint[circle];
    return c;
  }

  // The pair as suffix_tile's count of the tile's list needs it: only pairs
  // that do not cover the whole tile, with their geometry (whole-tile pairs
  // are counted from their kinds alone).
  __device__ Candidate resolve_partial(const Cursor& cursor, int batch, Ticket ticket) const {
    Candidate c;
    c.kind = ticket >> kKindShift;
    if (pair(cursor, batch) >= cursor.end || c.kind == kFull) return c;
    c.hit = true;
    c.geometry = geometry[ticket & kCircleMask];
    c.paint = make_float4(0.f, 0.f, 0.f, 0.f); // not read by the count
    return c;
  }

  __device__ int dense_count(const Cursor& cursor, int batch) const {
    const std::uint32_t left =
        cursor.end - cursor.first - static_cast<std::uint32_t>(batch) * kThreads;
    return static_cast<int>(left < kThreads ? left : kThreads);
  }
};

// With kSuffix, a tile with enough pairs tries suffix compositing first; a
// tile it does not settle is drawn in full from its start, as without.
template <Shading kShading, int kRows, bool kSuffix>
__global__ void __launch_bounds__(kTilePixels / kRows)
    binned_kernel(BinnedSource<kTilePixels / kRows> source, SuffixPlan suffix, FrameGeometry frame,
                  PixelStart start, float4* pixels) {
  constexpr int kThreads = kTilePixels / kRows;
  static_assert(kTilePixels % kRows == 0 && kThreads % 32 == 0, "whole warps per tile");
  __shared__ BatchStorage<kThreads> s;
  if constexpr (kSuffix)
    if (suffix_tile<kRows>(s, source, suffix, frame, start, pixels)) return;
  shade_tile_in<BinnedSource<kThreads>, kShading, kRows>(s, source, frame, start, pixels);
}

template <Shading kShading, int kRows>
void launch(const CircleRecords& circles, const std::uint32_t* values, const uint2* ranges,
            const FrameGeometry& frame, [[maybe_unused]] const SuffixPlan* suffix, PixelStart start,
            float4* pixels, cudaStream_t stream) {
  constexpr int kThreads = kTilePixels / kRows;
  const BinnedSource<kThreads> source{ranges, values, circles.geometry, circles.paint};
  const auto blocks = static_cast<unsigned>(frame.tile_count());
  // Snow blends with a per-pixel alpha: the suffix proof does not cover it.
  if constexpr (kShading != Shading::Snow) {
    if (suffix) {
      binned_kernel<kShading, kRows, true>
          <<<blocks, kThreads, 0, stream>>>(source, *suffix, frame, start, pixels);
      CUDA_CHECK_LAUNCH();
      return;
    }
  }
  binned_kernel<kShading, kRows, false>
      <<<blocks, kThreads, 0, stream>>>(source, SuffixPlan{}, frame, start, pixels);
  CUDA_CHECK_LAUNCH();
}

template <Shading kShading>
void launch_rows(int rows, const CircleRecords& circles, const std::uint32_t* values,
                 const uint2* ranges, const FrameGeometry& frame, const SuffixPlan* suffix,
                 PixelStart start, float4* pixels, cudaStream_t stream) {
  switch (rows) {
  case 1:
    return launch<kShading, 1>(circles, values, ranges, frame, suffix, start, pixels, stream);
  case 2:
    return launch<kShading, 2>(circles, values, ranges, frame, suffix, start, pixels, stream);
  case 4:
    return launch<kShading, 4>(circles, values, ranges, frame, suffix, start, pixels, stream);
  default:
    throw std::invalid_argument("binned shading: rows per thread must be 1, 2 or 4, not " +
                                std::to_string(rows));
  }
}

} // namespace

void shade_binned(const CircleRecords& circles, const std::uint32_t* sorted_values,
                  const uint2* ranges, const FrameGeometry& frame, Shading shading,
                  int rows_per_thread, const SuffixPlan* suffix, PixelStart start, float4* pixels,
                  cudaStream_t stream) {
  switch (shading) {
  case Shading::FlatExact:
    return launch_rows<Shading::FlatExact>(rows_per_thread, circles, sorted_values, ranges, frame,
                                           suffix, start, pixels, stream);
  case Shading::FlatFused:
    return launch_rows<Shading::FlatFused>(rows_per_thread, circles, sorted_values, ranges, frame,
                                           suffix, start, pixels, stream);
  case Shading::Snow:
    if (suffix) throw std::invalid_argument("binned shading: no suffix compositing for snow");
    return launch_rows<Shading::Snow>(rows_per_thread, circles, sorted_values, ranges, frame,
                                      nullptr, start, pixels, stream);
  }
}

} // namespace render::gpu
