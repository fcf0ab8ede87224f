// The CUDA renderer's tuning, the one place it is written (as
// scan/src/tuning.h is the scan's): each knob with what it shapes and what
// chose it, and the couplings between them checked below. Limits that are
// not tuning (the circle index's bits, a pass's most pairs) stay beside the
// code they bound. Plain C++: kernels and host code include it alike; the
// RENDER_CUDA_* variables (setup/settings.h) override the settings marked so,
// for measurements.
#pragma once

#include <cstddef>
#include <cstdint>

namespace render::gpu::tuning {

// ---- Tiles
// The tuned modes' tile (tiled, binned, auto): one thread block per tile of
// kTileSide² pixels. 16 keeps a block at 256 threads (128 with two rows a
// thread), a tile's suffix window in shared memory, and rgb's largest circle
// at about 1000 tiles (docs/design/cuda_renderer.md).
constexpr int kTileSide = 16;
// The course ladder's tile (`tiles`, `classic`): the course's reference
// design's 16x16, apart from the tuned modes' so that tuning them never
// moves the ladder (docs/ladder.md).
constexpr int kLadderTileSide = 16;

// Threads per block of the per-circle and per-pixel helper kernels (record,
// count, emit, ranges, clear, advance).
constexpr int kHelperThreads = 256;

// ---- Shading (binned and tiled)
// Pixel rows a binned thread shades, the choices compiled and the default
// (RENDER_CUDA_ROWS): two had the lowest medians on the dense scenes
// (docs/measurements/cuda_renderer_h200.md).
constexpr int kRowsChoices[] = {1, 2, 4};
constexpr int kDefaultRowsPerThread = 2;
// Tiled mode: one thread per pixel, as the course's design has it; blocks
// per SM it is compiled for (RENDER_CUDA_TILED_BLOCKS): 8 (32 registers) had
// the lowest median on pattern, the scene with many batches that tiled mode
// is chosen for (docs/design/cuda_renderer.md).
constexpr int kTiledRows = 1;
constexpr int kTiledBlocksChoices[] = {4, 6, 8};
constexpr int kDefaultTiledBlocksPerSm = 8;

// ---- Suffix compositing (binned)
// Used in tiles of at least kSuffixMinPairs pairs of which at least
// kSuffixMinFullPercent percent cover the whole tile (RENDER_CUDA_SUFFIX_MIN_PAIRS,
// RENDER_CUDA_SUFFIX_MIN_FULL): the thresholds that sped up every dense
// scene on the H200 and slowed none; lower ones cost rand10k time
// (docs/measurements/cuda_renderer_h200.md).
constexpr std::uint32_t kSuffixMinPairs = 256;
constexpr std::uint32_t kSuffixMinFullPercent = 25;
// The suffix length. The starts meet after about 27 covering circles on the
// dense scenes, 30 at the 90th percentile; but a tile settles only if all
// its pixels do: 32 would send about half the tiles to the full blend, 48
// settled every one in a model with exactly 48 per pixel. 48 beat 64 on
// the dense scenes and kept more margin than 40 (docs/design/suffix_proof.md).
constexpr int kSuffixCircles = 48;

// ---- Binning
// A circle's tile span is walked by one thread when it is at most this many
// tiles, by a warp above it: one thread walking a large circle's tiles
// would hold a whole frame up.
constexpr int kSerialSpanTiles = 16;
// A warp whose circles have at most this many pairs each writes them a lane
// per circle: the runs are short enough that the stores stay close, and
// the shared form's search per pair would cost more than it saves.
constexpr int kLanePairs = 2;
// With no limit given, binning may use this share of the device memory left
// free after the image and the circle records, and needs at least this many
// pairs a pass to bin at all.
constexpr double kPairMemoryShare = 0.5;
constexpr std::size_t kMinPairsPerPass = std::size_t{1} << 16;
// Counting placement (binning/placement.h, the default binning where it
// applies): a block per chunk of consecutive circles, its warps sharing each
// big circle's span walk while the first warp ranks the small ones.
constexpr int kPlaceThreads = 128;
// A chunk is the least power of two of circles, from kMinChunkCircles up,
// that keeps the tile-major count matrix (tiles x chunks) within
// kMaxCountEntries: every frame writes, scans and reads the matrix once and
// each chunk's block loads a tile-long column, so the entries bound that
// work, while smaller chunks give more blocks to fill the device. At 4096
// tiles this allows 1024 chunks, about as many place blocks as an H100 holds
// at once.
constexpr int kMinChunkCircles = 32;
constexpr std::size_t kMaxCountEntries = std::size_t{1} << 22;
// The most tiles it applies to: a place block keeps two 32-bit words per tile
// in shared memory, which at this count fit the 48 KB a block gets without
// opting in to more.
constexpr int kMaxCountTiles = 4096;

// ---- Auto's choice
// Frames timed per candidate mode, and the tests past which tiled mode is
// not timed at all (such frames take tens of milliseconds).
constexpr int kAutoTrials = 3;
constexpr double kMaxTiledTrialTests = 2.0e9;

// ---- The couplings
constexpr int kTilePixels = kTileSide * kTileSide;
constexpr bool divides_tile(const int (&choices)[3]) {
  for (const int rows : choices)
    if (rows <= 0 || kTileSide % rows != 0 || kTilePixels / rows > 1024) return false;
  return true;
}
static_assert(divides_tile(kRowsChoices),
              "a binned block is whole rows of a tile, 1024 threads at most");
static_assert(kTileSide % kTiledRows == 0 && kTilePixels / kTiledRows <= 1024,
              "a tiled block is whole rows of a tile, 1024 threads at most");
static_assert(kLadderTileSide * kLadderTileSide <= 1024,
              "the ladder's block scans a tile's pixels, one thread each");
// The ladder's rungs launch a block per tile of the frame's tile count
// (FrameGeometry::tile_count, in kTileSide tiles): to tune the modes' tile
// apart, give the ladder a count of its own first.
static_assert(kLadderTileSide == kTileSide, "the ladder shares the frame's tile count");
constexpr bool holds(const int (&choices)[3], int value) {
  for (const int c : choices)
    if (c == value) return true;
  return false;
}
static_assert(holds(kRowsChoices, kDefaultRowsPerThread) &&
                  holds(kTiledBlocksChoices, kDefaultTiledBlocksPerSm),
              "each default is one of the shapes compiled");
static_assert(kSuffixCircles > 0 && static_cast<std::uint32_t>(kSuffixCircles) <= kSuffixMinPairs,
              "a suffix tile holds the window's whole-tile pairs");
static_assert(kSerialSpanTiles > 0 && kLanePairs > 0 && kAutoTrials > 0, "positive counts");
static_assert(kPlaceThreads % 32 == 0 && kPlaceThreads <= 1024, "a place block is whole warps");
static_assert(kMinChunkCircles % 32 == 0 && (kMinChunkCircles & (kMinChunkCircles - 1)) == 0,
              "a chunk is whole rounds of a warp's circles, a power of two");
static_assert(kMaxCountTiles * 2 * sizeof(std::uint32_t) <= 48 * 1024,
              "a place block's counters fit the default shared memory");
static_assert(kPairMemoryShare > 0 && kPairMemoryShare < 1, "a share of the free memory");

} // namespace render::gpu::tuning
