#include "render/cpu_renderer.h"

#include <algorithm>

#include "parallel.h"
#include "tile_bins.h"

namespace render {

struct CpuRenderer::Tiles {
  TileGrid grid;
  TileBins bins;
};

CpuRenderer::CpuRenderer(int threads, std::size_t max_bin_entries)
    : threads_(threads > 0 ? threads : hardware_threads()), max_bin_entries_(max_bin_entries),
      tiles_(std::make_unique<Tiles>()) {}

CpuRenderer::~CpuRenderer() = default;

void CpuRenderer::setup(const scenes::Scene& scene, int width, int height) {
  HostRenderer::setup(scene, width, height);
  tiles_->grid = make_tile_grid(width, height, kTileSide, kMaxTiles);
}

void CpuRenderer::clear() {
  // Bands of rows, several per thread so a slow thread does not hold up the rest.
  constexpr int kBandRows = 16;
  const int bands = (height() + kBandRows - 1) / kBandRows;
  parallel_for(threads_, static_cast<std::size_t>(bands), [&](std::size_t band) {
    const int first = static_cast<int>(band) * kBandRows;
    clear_rows(first, std::min(first + kBandRows, height()));
  });
}

void CpuRenderer::render() {
  // Circles move between frames, so both are rebuilt every frame.
  circles_.resize(scene().size());
  constexpr std::size_t kGatherChunk = 1 << 16;
  parallel_for(threads_, (circles_.size() + kGatherChunk - 1) / kGatherChunk,
               [&](std::size_t chunk) {
                 const std::size_t end = std::min(circles_.size(), (chunk + 1) * kGatherChunk);
                 for (std::size_t i = chunk * kGatherChunk; i < end; ++i) circles_[i] = circle(i);
               });
  last_binned_ = tiles_->bins.build(scene(), tiles_->grid, threads_, max_bin_entries_);
  parallel_for(threads_, tiles_->grid.count(), [&](std::size_t tile) { render_tile(tile); });
}

void CpuRenderer::render_tile(std::size_t tile) {
  const shade::PixelBox tile_box = tiles_->grid.tile_box(tile);
  const auto shade_clipped = [&](const Circle& c) {
    const shade::PixelBox box = intersect(box_of(c), tile_box);
    if (!is_empty(box)) shade_circle_runs(c, box);
  };
  if (last_binned_) {
    // Fetch a few circles ahead: the list jumps around the circle array.
    constexpr std::ptrdiff_t kAhead = 8;
    const std::uint32_t* begin = tiles_->bins.begin(tile);
    const std::uint32_t* end = tiles_->bins.end(tile);
    for (const std::uint32_t* c = begin; c != end; ++c) {
      if (end - c > kAhead) __builtin_prefetch(&circles_[c[kAhead]]);
      shade_clipped(circles_[*c]);
    }
  } else {
    for (const Circle& c : circles_) shade_clipped(c);
  }
}

} // namespace render
