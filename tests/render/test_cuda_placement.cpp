// Binned mode's counting placement on the host (no GPU needed): the same
// count, scan and place templates the kernels run (binning/placement.h),
// each step's threads simulated one after another, against a plain serial
// binning (each tile's circles in index order, with their kinds), on every
// scene and on random scenes of awkward sizes and chunkings.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "binning/placement.h"
#include "cuda_checks.h"
#include "render/shade.h"
#include "scenes/scene.h"

namespace {

using namespace render::gpu;
using placement::ChunkInputs;

// The steps' threads in index order, or backwards: a step whose result
// hangs on the order its threads run in differs between the two.
struct HostBlock {
  bool backwards = false;
  template <class Fn> void for_strided(int n, Fn&& fn) {
    for (int j = 0; j < n; ++j) fn(backwards ? n - 1 - j : j);
  }
  template <class Fn> void for_lanes(Fn&& fn) { for_strided(32, fn); }
  void sync_warp() {}
  void sync_block() {}
  void add(std::uint32_t* at, std::uint32_t v) { *at += v; }
  void set_bits(std::uint32_t* at, std::uint32_t bits) { *at |= bits; }
  std::uint32_t big_lanes(const ChunkInputs& in, int round, int n) {
    std::uint32_t big = 0;
    for (int lane = 0; lane < n; ++lane)
      if (placement::is_big(in.spans[round + lane])) big |= 1u << lane;
    return big;
  }
};

FrameGeometry frame_of(int width, int height) {
  FrameGeometry f;
  f.width = width;
  f.height = height;
  f.tiles_x = (width + kTileSide - 1) / kTileSide;
  f.tiles_y = (height + kTileSide - 1) / kTileSide;
  f.inverse_width = render::shade::inverse_extent(width);
  f.inverse_height = render::shade::inverse_extent(height);
  return f;
}

// The circle records as prepare_circles writes them.
struct Circles {
  std::vector<float4> geometry;
  std::vector<uint2> spans;
  std::vector<std::uint32_t> small_kinds;
};

Circles circles_of(const scenes::Scene& s, const FrameGeometry& f) {
  Circles c;
  for (std::size_t i = 0; i < s.size(); ++i) {
    float4 g;
    g.x = s.x[i];
    g.y = s.y[i];
    g.z = render::shade::mul(s.radius[i], s.radius[i]);
    g.w = s.radius[i];
    const uint2 span = pack_tile_span(box_of(g, f));
    c.geometry.push_back(g);
    c.spans.push_back(span);
    c.small_kinds.push_back(placement::is_big(span) ? 0u : small_span_kinds(g, f));
  }
  return c;
}

// The serial binning: each tile's pair values, circles in index order.
std::vector<std::vector<std::uint32_t>> serial_bins(const Circles& c, const FrameGeometry& f) {
  std::vector<std::vector<std::uint32_t>> bins(static_cast<std::size_t>(f.tile_count()));
  for (std::size_t i = 0; i < c.geometry.size(); ++i) {
    const render::shade::PixelBox box = box_of(c.geometry[i], f);
    const TileSpan span = unpack_tile_span(pack_tile_span(box));
    for (int ty = span.y0; ty <= span.y1; ++ty)
      for (int tx = span.x0; tx <= span.x1; ++tx) {
        const int kind = classify(c.geometry[i], box, tile_rect(tx, ty, f), f);
        if (kind != kMiss)
          bins[static_cast<std::size_t>(ty * f.tiles_x + tx)].push_back(
              pair_value(static_cast<std::uint32_t>(i), kind));
      }
  }
  return bins;
}

constexpr std::uint32_t kUnwritten = 0xffffffffu;

// What shade_binned reads: the values and each tile's range.
struct Placed {
  std::vector<std::uint32_t> values;
  std::vector<uint2> ranges;
  std::uint32_t total = 0;
};

// count_chunk_pairs, scan_chunk_pairs and place_chunk_pairs on the host.
// `room`: slots for the values, past the total when the count is wrong.
Placed place_on_host(const Circles& c, const FrameGeometry& f, PlacementChunks chunks,
                     bool backwards, std::size_t room) {
  HostBlock b{backwards};
  const int count = static_cast<int>(c.geometry.size());
  const ChunkInputs in{c.geometry.data(), c.spans.data(), c.small_kinds.data(), count, f, chunks};
  const auto tiles = static_cast<std::size_t>(f.tile_count());
  const auto n_chunks = static_cast<std::size_t>(chunks.chunks);
  std::vector<std::uint32_t> matrix(chunks.entries(), kUnwritten);
  std::vector<std::uint32_t> column(tiles);
  for (int chunk = 0; chunk < chunks.chunks; ++chunk) {
    std::fill(column.begin(), column.end(), 0u);
    placement::count_chunk(b, in, chunk, column.data());
    for (std::size_t t = 0; t < tiles; ++t)
      matrix[t * n_chunks + static_cast<std::size_t>(chunk)] = column[t];
  }
  matrix.back() = 0;
  std::exclusive_scan(matrix.begin(), matrix.end(), matrix.begin(), 0u);
  Placed p;
  p.total = matrix.back();
  p.values.assign(std::max<std::size_t>(room, p.total), kUnwritten);
  p.ranges.assign(tiles, uint2{0u, 0u});
  std::vector<std::uint32_t> next(tiles, kUnwritten), masks(tiles, kUnwritten);
  for (int chunk = 0; chunk < chunks.chunks; ++chunk)
    placement::place_chunk(b, in, chunk, matrix.data(), next.data(), masks.data(), p.values.data(),
                           p.ranges.data());
  return p;
}

// Empty when every tile's range holds exactly its serial list; else the
// first difference.
std::string difference(const Placed& p, const std::vector<std::vector<std::uint32_t>>& bins) {
  std::uint32_t at = 0;
  for (std::size_t t = 0; t < bins.size(); ++t) {
    const std::string tile = "tile " + std::to_string(t) + ": ";
    const uint2 r = p.ranges[t];
    if (r.x != at || r.y - r.x != bins[t].size())
      return tile + "range (" + std::to_string(r.x) + ", " + std::to_string(r.y) + "), expected (" +
             std::to_string(at) + ", " + std::to_string(at + bins[t].size()) + ")";
    for (std::size_t k = 0; k < bins[t].size(); ++k)
      if (p.values[r.x + k] != bins[t][k])
        return tile + "pair " + std::to_string(k) + " is " + std::to_string(p.values[r.x + k]) +
               ", expected " + std::to_string(bins[t][k]);
    at = r.y;
  }
  if (p.total != at) return "total " + std::to_string(p.total) + ", expected " + std::to_string(at);
  for (std::size_t i = at; i < p.values.size(); ++i)
    if (p.values[i] != kUnwritten) return "slot " + std::to_string(i) + " written past the total";
  return "";
}

std::size_t pair_count(const std::vector<std::vector<std::uint32_t>>& bins) {
  std::size_t n = 0;
  for (const auto& b : bins) n += b.size();
  return n;
}

// Chunkings to try for `count` circles: the renderer's, and `circles`.
PlacementChunks chunked(int count, int tiles, int circles) {
  PlacementChunks c;
  c.tiles = tiles;
  c.circles = circles;
  c.chunks = (count + circles - 1) / circles;
  return c;
}

// The placement of `s` at width x height equals the serial binning with the
// renderer's chunks and each of `circles_per_chunk`, threads in both orders.
void expect_placement_matches(const scenes::Scene& s, int width, int height,
                              const std::vector<int>& circles_per_chunk, const std::string& what) {
  const FrameGeometry f = frame_of(width, height);
  const Circles c = circles_of(s, f);
  const auto bins = serial_bins(c, f);
  const int count = static_cast<int>(s.size());
  std::vector<PlacementChunks> chunkings = {placement_chunks(count, f.tile_count())};
  for (const int circles : circles_per_chunk)
    chunkings.push_back(chunked(count, f.tile_count(), circles));
  const std::size_t room = pair_count(bins) + 64;
  for (const PlacementChunks& chunks : chunkings)
    for (const bool backwards : {false, true})
      EXPECT_EQ(difference(place_on_host(c, f, chunks, backwards, room), bins), "")
          << what << " at " << width << "x" << height << ", " << chunks.circles
          << " circles a chunk" << (backwards ? ", threads backwards" : "");
}

class PlacementScene : public ::testing::TestWithParam<std::string> {};

// At the benchmark's 1024² and an odd size; the scenes of millions of
// circles, whose chunks are many rounds already, with the renderer's only.
TEST_P(PlacementScene, MatchesSerialBinning) {
  const scenes::Scene s = scenes::load_scene(GetParam());
  const bool huge = s.size() > 500000;
  expect_placement_matches(s, 1024, 1024, huge ? std::vector<int>{} : std::vector<int>{32},
                           GetParam());
  if (!huge) expect_placement_matches(s, 517, 301, {96}, GetParam());
}

INSTANTIATE_TEST_SUITE_P(AllScenes, PlacementScene, ::testing::ValuesIn(scenes::scene_names()),
                         [](const ::testing::TestParamInfo<std::string>& p) { return p.param; });

// `count` random circles: mostly small, some a few tiles wide, a few bigger
// than the screen; centers reaching past every edge.
scenes::Scene random_scene(int count, std::mt19937& rng) {
  scenes::Scene s;
  s.resize(static_cast<std::size_t>(count));
  std::uniform_real_distribution<float> position(-0.3f, 1.3f), unit(0.f, 1.f);
  for (std::size_t i = 0; i < s.size(); ++i) {
    s.x[i] = position(rng);
    s.y[i] = position(rng);
    s.z[i] = unit(rng);
    const float pick = unit(rng);
    s.radius[i] = pick < 0.8f    ? 0.002f + 0.03f * unit(rng)
                  : pick < 0.97f ? 0.05f + 0.2f * unit(rng)
                                 : 0.8f + 1.5f * unit(rng);
    s.r[i] = s.g[i] = s.b[i] = unit(rng);
  }
  return s;
}

TEST(PlacementRandom, AwkwardSizesMatchSerialBinning) {
  const std::uint32_t seed = cuda_checks::random_seed();
  std::mt19937 rng(seed);
  const int sizes[][2] = {{1, 1}, {7, 13}, {16, 16}, {100, 100}, {517, 301}, {1024, 1024}};
  for (const int count : {0, 1, 31, 32, 33, 97, 1021, 4099, 40009})
    for (const auto& size : sizes) {
      if (count > 5000 && size[0] < 500) continue;
      expect_placement_matches(random_scene(count, rng), size[0], size[1], {32, 64, 1024},
                               std::to_string(count) + " random circles (RENDER_TEST_SEED=" +
                                   std::to_string(seed - 1) + ")");
    }
}

// The comparison is not blind: two circles of a tile swapped, or one pair
// moved to the next tile, is a difference.
TEST(PlacementRandom, ComparisonSeesMisplacedPairs) {
  std::mt19937 rng(7);
  const scenes::Scene s = random_scene(2000, rng);
  const FrameGeometry f = frame_of(256, 256);
  const Circles c = circles_of(s, f);
  const auto bins = serial_bins(c, f);
  const Placed right =
      place_on_host(c, f, placement_chunks(2000, f.tile_count()), false, pair_count(bins));
  ASSERT_EQ(difference(right, bins), "");
  std::size_t tile = 0;
  while (bins[tile].size() < 2) ++tile;
  Placed swapped = right;
  std::swap(swapped.values[right.ranges[tile].x], swapped.values[right.ranges[tile].x + 1]);
  EXPECT_NE(difference(swapped, bins), "");
  Placed moved = right;
  --moved.ranges[tile].y;
  ++moved.ranges[tile + 1].x;
  EXPECT_NE(difference(moved, bins), "");
}

// The renderer's chunks: the least power of two from kMinChunkCircles up
// whose matrix stays within kMaxCountEntries, covering every circle.
TEST(PlacementChunks, LeastChunkWithinTheMatrixBound) {
  for (const int tiles : {1, 4, 4096})
    for (const int count : {0, 1, 33, 100000, 2000000}) {
      const PlacementChunks c = placement_chunks(count, tiles);
      const std::string what = std::to_string(count) + " circles, " + std::to_string(tiles);
      EXPECT_EQ(c.circles & (c.circles - 1), 0) << what;
      EXPECT_GE(c.circles, tuning::kMinChunkCircles) << what;
      EXPECT_GE(static_cast<long long>(c.chunks) * c.circles, count) << what;
      EXPECT_LT(static_cast<long long>(c.chunks - 1) * c.circles, std::max(count, 1)) << what;
      EXPECT_LE(c.entries() - 1, tuning::kMaxCountEntries) << what;
      if (c.circles > tuning::kMinChunkCircles) {
        const PlacementChunks half = chunked(count, tiles, c.circles / 2);
        EXPECT_GT(half.entries() - 1, tuning::kMaxCountEntries) << what;
      }
    }
}

} // namespace
