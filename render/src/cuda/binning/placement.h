// Binned mode's counting placement: each tile's pairs written straight into
// their slots in circle order, with no sort. A tile needs its circles in
// input order, which a stable counting placement by tile gives:
//   1. count: per chunk of consecutive circles, how many of its pairs fall in
//      each tile, written to a tile-major matrix M[t·chunks + c];
//   2. scan: one exclusive scan of M gives every (tile, chunk) its first
//      slot; tile t's range is (M[t·chunks], M[(t + 1)·chunks]);
//   3. place: each chunk's block walks its circles in index order, keeping
//      per tile the next free slot of the chunk's pairs (`next`, in shared
//      memory). A round is a warp's 32 consecutive circles. A run of small
//      circles in it is ranked at once: each lane sets its bit in the mask
//      of every tile it keeps; a pair's slot is next[t] plus the lanes
//      below it in t's mask; the highest lane in a mask then moves next[t]
//      past them all. A big circle (walked_by_warp) stops the run and is
//      placed alone by the whole block: it keeps each tile at most once, so
//      the threads sharing its walk never meet at a tile.
// The same templates run in the kernels (binning/placement.cu) and on the
// host, where the tests check them against a plain serial binning: a Block
// says how the threads of a chunk's block share the work (DeviceBlock in the
// kernels; a loop over the lanes on the host). Plain C++ besides.
#pragma once

#include <cstdint>

#include "kernels.h"
#include "shading/coverage.h"

#if defined(__CUDACC__)
// The Block templates call a Block's device functions only when built for
// the device, its host functions only on the host.
#define PLACEMENT_BLOCK_TEMPLATE _Pragma("nv_exec_check_disable") template <class Block>
#else
#define PLACEMENT_BLOCK_TEMPLATE template <class Block>
#endif

namespace render::gpu::placement {

// A round's circles: one per lane of a warp, one bit each in a tile's mask.
constexpr int kRoundCircles = 32;

// What a chunk's count and placement read: prepare_circles' records.
struct ChunkInputs {
  const float4* geometry;
  const uint2* spans;               // CircleRecords::tiles
  const std::uint32_t* small_kinds; // BinCounts::small_kinds (small circles only)
  int count;
  FrameGeometry frame;
  PlacementChunks chunks;
};

RENDER_HD inline bool is_big(uint2 span) {
  return walked_by_warp(unpack_tile_span(span));
}

// Chunk c's circles, [first, end).
RENDER_HD inline int chunk_first(const ChunkInputs& in, int chunk) {
  return chunk * in.chunks.circles;
}
RENDER_HD inline int chunk_end(const ChunkInputs& in, int chunk) {
  const int end = chunk_first(in, chunk) + in.chunks.circles;
  return end < in.count ? end : in.count;
}

// A small circle's kept tiles in row-major order: fn(tile, kind).
template <class Fn>
RENDER_HD void for_each_kept_tile(uint2 span, std::uint32_t kinds, const FrameGeometry& f,
                                  Fn&& fn) {
  const int kept = kept_tile_count(kinds);
  for (int k = 0; k < kept; ++k) {
    int kind = 0;
    const int tile = kept_tile(span, kinds, k, f, kind);
    fn(tile, kind);
  }
}

// Lanes [from, end) of a round, as a mask.
RENDER_HD inline std::uint32_t lane_range(int from, int end) {
  const std::uint32_t below_end = end >= 32 ? ~0u : (1u << end) - 1u;
  return below_end & ~((1u << from) - 1u);
}

// Where the run of small circles starting at lane `from` ends: at the next
// big lane, or at the round's end `n`.
RENDER_HD inline int run_end(std::uint32_t big_lanes, int from, int n) {
  const std::uint32_t ahead = big_lanes & lane_range(from, n);
  return ahead ? nth_set_bit(ahead, 0) : n;
}

// ---- Count

// counts[t] (a tile-long column, zero) += chunk c's pairs of tile t.
PLACEMENT_BLOCK_TEMPLATE
RENDER_HD void count_chunk(Block& b, const ChunkInputs& in, int chunk, std::uint32_t* counts) {
  const int first = chunk_first(in, chunk);
  const int end = chunk_end(in, chunk);
  // Counting needs no order: the small circles a thread each.
  b.for_strided(end - first, [&](int j) {
    const uint2 span = in.spans[first + j];
    if (is_big(span)) return;
    for_each_kept_tile(span, in.small_kinds[first + j], in.frame,
                       [&](int tile, int) { b.add(counts + tile, 1u); });
  });
  // Each big circle by the whole block.
  for (int round = first; round < end; round += kRoundCircles) {
    const int n = end - round < kRoundCircles ? end - round : kRoundCircles;
    std::uint32_t big = b.big_lanes(in, round, n);
    for (; big != 0; big &= big - 1) {
      const float4 geometry = in.geometry[round + nth_set_bit(big, 0)];
      const shade::PixelBox box = box_of(geometry, in.frame);
      const TileSpan span = unpack_tile_span(pack_tile_span(box));
      b.for_strided(span_area(span), [&](int j) {
        int tile = 0;
        if (span_tile_kind(geometry, box, span, j, in.frame, tile) != kMiss)
          b.add(counts + tile, 1u);
      });
    }
  }
}

// ---- Place

// Lane `lane` (circle `circle`, small, kinds `kinds`) in each step of a run.
struct RunLane {
  int lane;
  std::uint32_t circle;
  uint2 span;
  std::uint32_t kinds;
};

// Step 1: the lane's bit in the mask of each tile it keeps.
PLACEMENT_BLOCK_TEMPLATE
RENDER_HD void mark_run(Block& b, const RunLane& l, const FrameGeometry& f, std::uint32_t* masks) {
  for_each_kept_tile(l.span, l.kinds, f,
                     [&](int tile, int) { b.set_bits(masks + tile, 1u << l.lane); });
}

// Step 2: each pair at its tile's next slot, after the lanes below it there.
RENDER_HD inline void write_run(const RunLane& l, const FrameGeometry& f,
                                const std::uint32_t* masks, const std::uint32_t* next,
                                std::uint32_t* values) {
  const std::uint32_t below = (1u << l.lane) - 1u;
  for_each_kept_tile(l.span, l.kinds, f, [&](int tile, int kind) {
    values[next[tile] + count_bits(masks[tile] & below)] = pair_value(l.circle, kind);
  });
}

// Step 3: the highest lane in a tile's mask moves its next slot past the run.
RENDER_HD inline void advance_run(const RunLane& l, const FrameGeometry& f,
                                  const std::uint32_t* masks, std::uint32_t* next) {
  for_each_kept_tile(l.span, l.kinds, f, [&](int tile, int) {
    const std::uint32_t mask = masks[tile];
    if (mask >> l.lane == 1u) next[tile] += static_cast<std::uint32_t>(count_bits(mask));
  });
}

// Step 4: the masks clear for the next run.
RENDER_HD inline void clear_run(const RunLane& l, const FrameGeometry& f, std::uint32_t* masks) {
  for_each_kept_tile(l.span, l.kinds, f, [&](int tile, int) { masks[tile] = 0; });
}

// The small circles of lanes [from, end) of the round at `round`, by one warp.
PLACEMENT_BLOCK_TEMPLATE
RENDER_HD void place_run(Block& b, const ChunkInputs& in, int round, int from, int end,
                         std::uint32_t* next, std::uint32_t* masks, std::uint32_t* values) {
  const auto each_lane = [&](auto&& step) {
    b.for_lanes([&](int lane) {
      if (lane < from || lane >= end) return;
      const int circle = round + lane;
      step(RunLane{lane, static_cast<std::uint32_t>(circle), in.spans[circle],
                   in.small_kinds[circle]});
    });
    b.sync_warp();
  };
  each_lane([&](const RunLane& l) { mark_run(b, l, in.frame, masks); });
  each_lane([&](const RunLane& l) { write_run(l, in.frame, masks, next, values); });
  each_lane([&](const RunLane& l) { advance_run(l, in.frame, masks, next); });
  each_lane([&](const RunLane& l) { clear_run(l, in.frame, masks); });
}

// A big circle by the whole block: a pair per tile it keeps, at the tile's
// next slot.
PLACEMENT_BLOCK_TEMPLATE
RENDER_HD void place_big(Block& b, const ChunkInputs& in, int circle, std::uint32_t* next,
                         std::uint32_t* values) {
  const float4 geometry = in.geometry[circle];
  const shade::PixelBox box = box_of(geometry, in.frame);
  const TileSpan span = unpack_tile_span(pack_tile_span(box));
  b.for_strided(span_area(span), [&](int j) {
    int tile = 0;
    const int kind = span_tile_kind(geometry, box, span, j, in.frame, tile);
    if (kind != kMiss) values[next[tile]++] = pair_value(static_cast<std::uint32_t>(circle), kind);
  });
}

// Chunk c's pairs into their slots. `matrix` holds the scanned offsets;
// `next` and `masks` are tile-long (contents free). Chunk 0 also writes
// every tile's range.
PLACEMENT_BLOCK_TEMPLATE
RENDER_HD void place_chunk(Block& b, const ChunkInputs& in, int chunk, const std::uint32_t* matrix,
                           std::uint32_t* next, std::uint32_t* masks, std::uint32_t* values,
                           uint2* ranges) {
  const int tiles = in.chunks.tiles;
  const auto chunks = static_cast<std::size_t>(in.chunks.chunks);
  b.for_strided(tiles, [&](int t) {
    next[t] = matrix[static_cast<std::size_t>(t) * chunks + static_cast<std::size_t>(chunk)];
    masks[t] = 0;
    if (chunk == 0) {
      uint2 range;
      range.x = next[t];
      range.y = matrix[static_cast<std::size_t>(t + 1) * chunks];
      ranges[t] = range;
    }
  });
  b.sync_block();
  const int end = chunk_end(in, chunk);
  for (int round = chunk_first(in, chunk); round < end; round += kRoundCircles) {
    const int n = end - round < kRoundCircles ? end - round : kRoundCircles;
    const std::uint32_t big = b.big_lanes(in, round, n);
    for (int from = 0; from < n;) {
      const int stop = run_end(big, from, n);
      if (stop > from) place_run(b, in, round, from, stop, next, masks, values);
      if (stop < n) {
        b.sync_block(); // the run's next slots, for every warp
        place_big(b, in, round + stop, next, values);
        b.sync_block(); // the big circle's, for the next run
      }
      from = stop + 1;
    }
  }
}

} // namespace render::gpu::placement
