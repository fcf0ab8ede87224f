#include "tile_bins.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "parallel.h"

namespace render {

namespace {

// The inclusive range of tiles a non-empty pixel box touches.
struct TileSpan {
  int x0, x1, y0, y1;
  std::size_t count() const { return static_cast<std::size_t>(x1 - x0 + 1) * (y1 - y0 + 1); }
};

TileSpan span_of(const shade::PixelBox& box, int side) {
  return TileSpan{box.min_x / side, (box.max_x - 1) / side, box.min_y / side,
                  (box.max_y - 1) / side};
}

// Circles [first, last) of chunk `chunk` when n circles split into `chunks`.
std::size_t chunk_begin(std::size_t chunk, std::size_t chunks, std::size_t n) {
  return n / chunks * chunk + std::min(chunk, n % chunks);
}

// Calls fn(circle, span) for each circle of chunk `chunk` whose box is not empty.
template <class Fn>
void for_each_span(const scenes::Scene& scene, const TileGrid& grid, std::size_t chunk,
                   std::size_t chunks, Fn&& fn) {
  const std::size_t n = scene.size();
  const std::size_t last = chunk_begin(chunk + 1, chunks, n);
  for (std::size_t i = chunk_begin(chunk, chunks, n); i < last; ++i) {
    const shade::PixelBox box =
        shade::circle_box(scene.x[i], scene.y[i], scene.radius[i], grid.width, grid.height);
    if (!is_empty(box)) fn(i, span_of(box, grid.side));
  }
}

} // namespace

shade::PixelBox TileGrid::tile_box(std::size_t tile) const {
  const int tx = static_cast<int>(tile % tiles_x);
  const int ty = static_cast<int>(tile / tiles_x);
  return shade::PixelBox{tx * side, std::min((tx + 1) * side, width), ty * side,
                         std::min((ty + 1) * side, height)};
}

TileGrid make_tile_grid(int width, int height, int min_side, std::size_t max_tiles) {
  TileGrid grid;
  grid.width = width;
  grid.height = height;
  grid.side = min_side;
  for (;;) {
    grid.tiles_x = (width + grid.side - 1) / grid.side;
    grid.tiles_y = (height + grid.side - 1) / grid.side;
    if (grid.count() <= max_tiles) return grid;
    grid.side *= 2;
  }
}

shade::PixelBox intersect(const shade::PixelBox& a, const shade::PixelBox& b) {
  return shade::PixelBox{std::max(a.min_x, b.min_x), std::min(a.max_x, b.max_x),
                         std::max(a.min_y, b.min_y), std::min(a.max_y, b.max_y)};
}

bool TileBins::build(const scenes::Scene& scene, const TileGrid& grid, int threads,
                     std::size_t max_entries) {
  if (scene.size() > std::numeric_limits<std::uint32_t>::max())
    throw std::length_error("scene has more circles than the CPU renderer can bin");
  const std::size_t tiles = grid.count();
  // One chunk of consecutive circles per thread; chunks are merged in order,
  // which keeps every tile's list in ascending circle order.
  const std::size_t chunks = std::max<std::size_t>(1, std::min<std::size_t>(threads, scene.size()));

  // Pass 1: how many pairs, before committing any memory to them.
  std::vector<std::size_t> pairs(chunks, 0);
  parallel_for(threads, chunks, [&](std::size_t c) {
    std::size_t sum = 0; // local, so threads do not share a cache line
    for_each_span(scene, grid, c, chunks,
                  [&](std::size_t, const TileSpan& s) { sum += s.count(); });
    pairs[c] = sum;
  });
  const std::size_t total = std::accumulate(pairs.begin(), pairs.end(), std::size_t{0});
  if (total > max_entries) {
    cursors_.clear();
    starts_.assign(tiles + 1, 0);
    entries_.clear();
    return false;
  }

  // Pass 2: pairs per (chunk, tile).
  cursors_.assign(chunks * tiles, 0);
  parallel_for(threads, chunks, [&](std::size_t c) {
    std::size_t* counts = cursors_.data() + c * tiles;
    for_each_span(scene, grid, c, chunks, [&](std::size_t, const TileSpan& s) {
      for (int ty = s.y0; ty <= s.y1; ++ty)
        for (int tx = s.x0; tx <= s.x1; ++tx)
          ++counts[static_cast<std::size_t>(ty) * grid.tiles_x + tx];
    });
  });

  // Tile-major, chunk-minor prefix sum: counts become write positions.
  starts_.assign(tiles + 1, 0);
  std::size_t position = 0;
  for (std::size_t t = 0; t < tiles; ++t) {
    starts_[t] = position;
    for (std::size_t c = 0; c < chunks; ++c) {
      const std::size_t count = cursors_[c * tiles + t];
      cursors_[c * tiles + t] = position;
      position += count;
    }
  }
  starts_[tiles] = position;

  // Pass 3: write each chunk's circles at its positions.
  entries_.resize(total);
  parallel_for(threads, chunks, [&](std::size_t c) {
    std::size_t* cursor = cursors_.data() + c * tiles;
    for_each_span(scene, grid, c, chunks, [&](std::size_t i, const TileSpan& s) {
      for (int ty = s.y0; ty <= s.y1; ++ty)
        for (int tx = s.x0; tx <= s.x1; ++tx)
          entries_[cursor[static_cast<std::size_t>(ty) * grid.tiles_x + tx]++] =
              static_cast<std::uint32_t>(i);
    });
  });
  return true;
}

} // namespace render
