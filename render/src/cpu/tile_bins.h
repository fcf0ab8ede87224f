// Splitting the image into square tiles, and binning circles to the tiles
// their pixel boxes touch, so a tile visits only its own circles.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "render/shade.h"
#include "scenes/scene.h"

namespace render {

struct TileGrid {
  int width = 0;
  int height = 0;
  int side = 0; // pixels per tile side; edge tiles may be smaller
  int tiles_x = 0;
  int tiles_y = 0;

  std::size_t count() const { return static_cast<std::size_t>(tiles_x) * tiles_y; }
  // The pixels of tile `tile` (row-major tile order).
  shade::PixelBox tile_box(std::size_t tile) const;
};

// Tiles of `min_side` pixels, doubled until there are at most `max_tiles`, so
// the per-tile bookkeeping stays small on huge images.
TileGrid make_tile_grid(int width, int height, int min_side, std::size_t max_tiles);

// The overlap of two pixel boxes (empty when min >= max on either axis).
shade::PixelBox intersect(const shade::PixelBox& a, const shade::PixelBox& b);
inline bool is_empty(const shade::PixelBox& b) {
  return b.min_x >= b.max_x || b.min_y >= b.max_y;
}
// Whether box `outer` holds every pixel of box `inner`.
inline bool contains(const shade::PixelBox& outer, const shade::PixelBox& inner) {
  return outer.min_x <= inner.min_x && outer.max_x >= inner.max_x && outer.min_y <= inner.min_y &&
         outer.max_y >= inner.max_y;
}

// For every tile, the indices of the circles whose box touches it, in
// ascending index order (so each pixel still receives circles in order).
class TileBins {
public:
  // Bins every circle of `scene` using `threads` threads. Returns false, and
  // holds no bins, when that would take more than `max_entries` (tile,
  // circle) pairs; the caller then walks all circles per tile instead.
  bool build(const scenes::Scene& scene, const TileGrid& grid, int threads,
             std::size_t max_entries);

  const std::uint32_t* begin(std::size_t tile) const { return entries_.data() + starts_[tile]; }
  const std::uint32_t* end(std::size_t tile) const { return entries_.data() + starts_[tile + 1]; }
  std::size_t entry_count() const { return entries_.size(); }

private:
  std::vector<std::size_t> cursors_; // [chunk][tile]: counts, then write positions
  std::vector<std::size_t> starts_;  // per tile, plus the end
  std::vector<std::uint32_t> entries_;
};

} // namespace render
