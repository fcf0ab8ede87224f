// The CUDA renderer's device work, as host functions on device pointers and a
// stream. Each enqueues its kernels and returns (errors of the launch throw
// common::CudaError); the caller synchronizes. Plain C++: the kernels live in
// the .cu files of frame/, binning/ and shading/.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "scenes/scene.h"
#include "tuning.h"

namespace render::gpu {

// One thread block per tile of kTileSide² pixels (tuning.h).
constexpr int kTileSide = tuning::kTileSide;
constexpr int kTilePixels = tuning::kTilePixels;

// Threads per block of the per-circle and per-pixel helper kernels (record,
// count, emit, ranges, clear, advance), and blocks to cover `items` with them.
constexpr int kHelperThreads = tuning::kHelperThreads;
inline unsigned helper_blocks(std::size_t items) {
  return static_cast<unsigned>((items + kHelperThreads - 1) / kHelperThreads);
}

// A binned pair keeps the circle index in its low kCircleBits bits.
constexpr int kCircleBits = 30;
constexpr std::size_t kMaxCircles = std::size_t{1} << kCircleBits;

// The scene on the device: scenes::Scene's arrays, `count` floats each.
struct SceneArrays {
  float* x = nullptr;
  float* y = nullptr;
  float* z = nullptr;
  float* vx = nullptr;
  float* vy = nullptr;
  float* vz = nullptr;
  float* r = nullptr;
  float* g = nullptr;
  float* b = nullptr;
  float* radius = nullptr;
  int count = 0;
};

// The image and its tiles; edge tiles may be cut by the image border.
struct FrameGeometry {
  int width = 0;
  int height = 0;
  int tiles_x = 0;
  int tiles_y = 0;
  float inverse_width = 0;  // shade::inverse_extent(width)
  float inverse_height = 0; // shade::inverse_extent(height)

  int tile_count() const { return tiles_x * tiles_y; }
};

// How a contribution is blended (docs/design/cuda_renderer.md, "Exactness").
enum class Shading {
  FlatExact, // the reference's arithmetic: p = base + (1 - alpha)·p, two roundings
  FlatFused, // one fused multiply-add; only where setup proved it equal
  Snow,      // the snow ramp and falloff of shade.h
};

// What a render starts from. The renderer folds clear() into the next
// render: the tile kernels start from the clear color instead of reading the
// image, so each pixel is written once per frame and never read.
enum class PixelStart {
  Image,     // the image as it is
  Clear,     // white (shade::clear_gray)
  SnowClear, // the snow scenes' gray ramp (shade::clear_gray)
};

// What the shading needs per circle, rebuilt from the scene every frame.
struct CircleRecords {
  float4* geometry = nullptr; // x, y, radius² (as shade::covers computes it), radius
  float4* paint = nullptr;    // alpha·(r, g, b), the blend's base terms, and z
  uint2* tiles = nullptr;     // tiles the pixel box touches (shading/coverage.h packs them)
};

// Fills the image with the scene's clear color.
void clear_image(float4* pixels, const FrameGeometry& frame, bool snow, cudaStream_t stream);

// One animation step of every circle, with the scenes library's step functions.
void advance_scene(const SceneArrays& scene, scenes::Animation animation, cudaStream_t stream);

// Binned mode's counts. Circles with large tile spans are walked by a whole
// warp (shading/coverage.h); prepare_circles lists them for the warp kernels.
struct BinCounts {
  std::uint64_t* tile_counts = nullptr;       // count + 1 entries; scanned in place
  std::uint32_t* warp_circles = nullptr;      // the listed circles, in no particular order
  std::uint32_t* warp_circle_count = nullptr; // zero before prepare_circles
  std::uint32_t* small_kinds = nullptr;       // per circle not listed: small_span_kinds
};

// Writes every circle's records. With `bins`, also counts the tiles of each
// circle walked by one thread (keeping their kinds), lists the others, and sets
// tile_counts[count] = 0 (scan_tile_counts' input).
void prepare_circles(const SceneArrays& scene, const FrameGeometry& frame,
                     const CircleRecords& circles, const BinCounts* bins, cudaStream_t stream);

// The tile counts of the listed circles, a warp each. `count` bounds the list.
void count_tiles_by_warp(const CircleRecords& circles, const BinCounts& bins, int count,
                         const FrameGeometry& frame, cudaStream_t stream);

// Tiled mode: every tile tests all `count` circles and draws over the image.
// `blocks_per_sm` (4, 6 or 8) caps the kernel's registers so that many
// blocks fit an SM.
void shade_tiled(const CircleRecords& circles, int count, const FrameGeometry& frame,
                 Shading shading, int blocks_per_sm, PixelStart start, float4* pixels,
                 cudaStream_t stream);

// ---- Binned mode, in call order.

// Scratch bytes scan_tile_counts needs for `count` circles.
std::size_t scan_scratch_bytes(int count);

// In place: counts[i] becomes the index of circle i's first pair, and
// counts[count] the number of pairs.
void scan_tile_counts(std::uint64_t* counts, int count, void* scratch, std::size_t scratch_bytes,
                      cudaStream_t stream);

// One buffer of pair keys (tile indices): 16 bits each where every tile
// index fits (images up to 4096²), so the sort moves fewer bytes, else 32.
// Exactly one of the two is set.
struct PairKeys {
  std::uint16_t* narrow = nullptr;
  std::uint32_t* wide = nullptr;
};
inline bool narrow_pair_keys(int tile_count) {
  return tile_count <= (1 << 16);
}

// Writes pairs [first, end) of the circle-major pair order: pair p - first
// gets key = tile and value = circle | kind << kKindShift (shading/coverage.h).
// bins.tile_counts holds the scanned offsets.
void emit_pairs(const CircleRecords& circles, const BinCounts& bins, int count,
                const FrameGeometry& frame, std::uint64_t first, std::uint64_t end, PairKeys keys,
                std::uint32_t* values, cudaStream_t stream);

// Scratch bytes sort_pairs needs for `pairs` pairs.
std::size_t sort_scratch_bytes(std::size_t pairs, int tile_count);

// Stable sort of the pairs by tile, so each tile's circles stay in index
// order. keys[0], values[0] hold the input; returns which of the two buffers
// holds the result.
int sort_pairs(const PairKeys keys[2], std::uint32_t* const values[2], std::size_t pairs,
               int tile_count, void* scratch, std::size_t scratch_bytes, cudaStream_t stream);

// ranges[t] = (first, end) of tile t's pairs in the sorted keys; (0, 0) when none.
void find_tile_ranges(PairKeys sorted_keys, std::size_t pairs, int tile_count, uint2* ranges,
                      cudaStream_t stream);

// ---- Binned mode's counting placement (binning/placement.h), in call order:
// instead of emit_pairs, sort_pairs and find_tile_ranges where the frame's
// tiles fit (counting_placement_fits) and its pairs one pass. Chunk c holds
// circles [c·circles, (c + 1)·circles) (the last one cut at the count).
struct PlacementChunks {
  int circles = 0; // a power of two
  int chunks = 0;
  int tiles = 0;
  // The count matrix's entries: one per (tile, chunk), tile-major, and the
  // pair total after them.
  std::size_t entries() const {
    return static_cast<std::size_t>(tiles) * static_cast<std::size_t>(chunks) + 1;
  }
};

inline bool counting_placement_fits(int tile_count) {
  return tile_count <= tuning::kMaxCountTiles;
}

// The chunks for `count` circles (tuning.h says why).
inline PlacementChunks placement_chunks(int count, int tile_count) {
  PlacementChunks c;
  c.tiles = tile_count;
  c.circles = tuning::kMinChunkCircles;
  const auto chunks_of = [count](long long circles) {
    return static_cast<int>((count + circles - 1) / circles);
  };
  while (static_cast<std::size_t>(tile_count) * static_cast<std::size_t>(chunks_of(c.circles)) >
         tuning::kMaxCountEntries)
    c.circles *= 2;
  c.chunks = chunks_of(c.circles);
  return c;
}

// Scratch bytes scan_chunk_pairs needs for `entries` entries.
std::size_t placement_scan_bytes(std::size_t entries);

// matrix[t·chunks + c] = the pairs of tile t among chunk c's circles (the
// tiles emit_pairs would write), and matrix[tiles·chunks] = 0.
void count_chunk_pairs(const CircleRecords& circles, const BinCounts& bins, int count,
                       const FrameGeometry& frame, PlacementChunks chunks, std::uint32_t* matrix,
                       cudaStream_t stream);

// In place, exclusive: each entry becomes the first slot of its (tile,
// chunk)'s pairs, the last the pair total. The pairs fit one pass (2^30).
void scan_chunk_pairs(std::uint32_t* matrix, PlacementChunks chunks, void* scratch,
                      std::size_t scratch_bytes, cudaStream_t stream);

// Writes every pair's value (as emit_pairs does) straight to its slot, each
// tile's circles in index order: what sort_pairs leaves in its values. And
// ranges[t] = (first, end) of tile t's slots, (first, first) when none.
void place_chunk_pairs(const CircleRecords& circles, const BinCounts& bins, int count,
                       const FrameGeometry& frame, PlacementChunks chunks,
                       const std::uint32_t* matrix, std::uint32_t* values, uint2* ranges,
                       cudaStream_t stream);

// Exact suffix compositing (shading/suffix.h) for a flat scene whose colors are
// all safe (render/suffix.h) and do not change.
struct SuffixPlan {
  float color_lo[3]; // per channel, the least and greatest color of any circle
  float color_hi[3];
  std::uint32_t min_pairs = 1;         // tiles with fewer pairs blend every circle
  std::uint32_t min_full_percent = 0;  // and those whose whole-tile pairs are a smaller share
  unsigned long long* tiles = nullptr; // counters: tiles tried, tiles settled
};

// Binned mode: each tile draws its own pairs over the image, each thread
// shading `rows_per_thread` (1, 2 or 4) pixels of a column. With `suffix`
// (flat shadings only), tiles with enough pairs try suffix compositing first.
void shade_binned(const CircleRecords& circles, const std::uint32_t* sorted_values,
                  const uint2* ranges, const FrameGeometry& frame, Shading shading,
                  int rows_per_thread, const SuffixPlan* suffix, PixelStart start, float4* pixels,
                  cudaStream_t stream);

} // namespace render::gpu
