#include "render/cpu_renderer.h"

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "parallel.h"
#include "render/covered_run.h"
#include "render/suffix.h"
#include "run_shading.h"
#include "tile_bins.h"

namespace render {

struct CpuRenderer::Tiles {
  TileGrid grid;
  TileBins bins;
};

CpuRenderer::CpuRenderer(int threads, std::size_t max_bin_entries, Compositing compositing,
                         std::size_t suffix_min_coverage)
    : threads_(threads > 0 ? threads : hardware_threads()), max_bin_entries_(max_bin_entries),
      compositing_(compositing), suffix_min_coverage_(suffix_min_coverage),
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

namespace {

// What the suffix needs to know of a chunk of circles: its colors
// (render/suffix.h) and roughly the boxes' area, a guess at the image's mean
// coverage.
struct ChunkSummary {
  suffix::ColorBounds colors;
  double box_area = 0;
};

} // namespace

void CpuRenderer::render() {
  // Circles move between frames, so both are rebuilt every frame.
  circles_.resize(scene().size());
  const bool summarize = compositing_ == Compositing::Suffix && !scene().snow;
  const double w = width();
  const double h = height();
  constexpr std::size_t kGatherChunk = 1 << 16;
  std::vector<ChunkSummary> chunks((circles_.size() + kGatherChunk - 1) / kGatherChunk);
  parallel_for(threads_, chunks.size(), [&](std::size_t chunk) {
    const std::size_t end = std::min(circles_.size(), (chunk + 1) * kGatherChunk);
    for (std::size_t i = chunk * kGatherChunk; i < end; ++i) circles_[i] = circle(i);
    if (!summarize) return;
    ChunkSummary& sum = chunks[chunk];
    for (std::size_t i = chunk * kGatherChunk; i < end; ++i) {
      const Circle& c = circles_[i];
      sum.colors.add(c.r, c.g, c.b);
      const double side = 2.0 * std::max(c.radius, 0.f);
      sum.box_area += std::min(side * w + 1, w) * std::min(side * h + 1, h);
    }
  });
  last_binned_ = tiles_->bins.build(scene(), tiles_->grid, threads_, max_bin_entries_);
  last_suffix_ = summarize && last_binned_ && suffix_applies(chunks);
  parallel_for(threads_, tiles_->grid.count(), [&](std::size_t tile) {
    if (last_suffix_)
      render_tile_suffix(tile);
    else
      render_tile(tile);
  });
}

template <class Summaries> bool CpuRenderer::suffix_applies(const Summaries& chunks) {
  ChunkSummary all;
  for (const ChunkSummary& sum : chunks) {
    all.colors.merge(sum.colors);
    all.box_area += sum.box_area;
  }
  for (int ch = 0; ch < 3; ++ch) {
    color_lo_[ch] = all.colors.lo[ch];
    color_hi_[ch] = all.colors.hi[ch];
  }
  // A thinly covered frame skips even the tiles' own checks.
  const double pixels = static_cast<double>(width()) * height();
  return all.colors.safe && all.box_area >= static_cast<double>(suffix_min_coverage_) * pixels;
}

// Two passes over the tile's circles. Backwards: each circle's covered runs
// count one more covering circle per pixel (a difference array per row, so a
// run costs two adds), and pixels that still have room keep its index, so
// each pixel ends with its last kSuffixKeep covering circles. A circle that
// covers the whole tile (shade::covers_every_pixel, inside its box) is
// counted once for all pixels, with no run search. Then per pixel:
// blend the kept suffix (render/suffix.h), or everything when a pixel's
// circles all fit; a pixel whose suffix does not settle it is blended in full.
void CpuRenderer::render_tile_suffix(std::size_t tile) {
  const shade::PixelBox tile_box = tiles_->grid.tile_box(tile);
  const int w = tile_box.max_x - tile_box.min_x;
  const int h = tile_box.max_y - tile_box.min_y;
  if (w <= 0 || h <= 0) return;
  const std::size_t pixels = static_cast<std::size_t>(w) * h;
  const std::uint32_t* begin = tiles_->bins.begin(tile);
  const std::uint32_t* end = tiles_->bins.end(tile);
  // The suffix pays only where pixels have many more covering circles than
  // it blends (twice 32 or more); the clipped boxes' area bounds the mean.
  // This first pass meets each circle first, so it fetches a few ahead (as
  // render_tile does); the walk below finds them in cache.
  constexpr std::ptrdiff_t kAhead = 8;
  std::size_t box_area = 0;
  for (const std::uint32_t* c = begin; c != end; ++c) {
    if (end - c > kAhead) __builtin_prefetch(&circles_[c[kAhead]]);
    const shade::PixelBox box = intersect(box_of(circles_[*c]), tile_box);
    if (!is_empty(box))
      box_area += static_cast<std::size_t>(box.max_x - box.min_x) * (box.max_y - box.min_y);
  }
  if (box_area < suffix_min_coverage_ * pixels) {
    render_tile(tile);
    return;
  }
  constexpr int kKeep = kSuffixKeep;
  thread_local std::vector<std::int64_t> count_steps; // per row, w + 1 steps
  // Per row, kKeep slots of w circles: slot k of a pixel holds its (k+1)th
  // latest. Slot-major within the row, so that a run's pixels, whose counts
  // are alike, store to nearby addresses rather than one cache line each.
  thread_local std::vector<std::uint32_t> kept;
  thread_local std::vector<std::uint8_t> kept_count;
  thread_local std::vector<int> row_open; // pixels of the row with room left
  count_steps.assign(static_cast<std::size_t>(h) * (w + 1), 0);
  kept.resize(pixels * kKeep);
  kept_count.assign(pixels, 0);
  row_open.assign(static_cast<std::size_t>(h), w);
  int open_rows = h; // rows with room left
  // Circles that cover every pixel of the tile, counted once rather than per row.
  std::int64_t whole_tile = 0;

  // Keeps `index` for the pixels of row r, columns [a, b], that have room.
  // Plain pointers: a store through kept_count's bytes could otherwise alias
  // the vectors' own pointers and force them to be reloaded per pixel.
  std::uint32_t* const kept_at = kept.data();
  std::uint8_t* const count_at = kept_count.data();
  int* const open_at = row_open.data();
  const auto keep = [=, &open_rows](std::uint32_t index, int r, int a, int b) {
    if (open_at[r] == 0) return;
    std::uint8_t* const counts = count_at + static_cast<std::size_t>(r) * w;
    std::uint32_t* const lists = kept_at + static_cast<std::size_t>(r) * w * kKeep;
    int filled = 0;
    for (int col = a; col <= b; ++col) {
      const int m = counts[col];
      if (m == kKeep) continue;
      lists[static_cast<std::size_t>(m) * w + col] = index;
      counts[col] = static_cast<std::uint8_t>(m + 1);
      filled += m + 1 == kKeep;
    }
    if (filled > 0 && (open_at[r] -= filled) == 0) --open_rows;
  };
  // The walk backwards: while some row has room it keeps too; once every
  // row is closed it only counts, with no keeping in the inner loops.
  const std::uint32_t* it = end;
  const auto walk = [&](auto keeping) {
    constexpr bool kKeeping = decltype(keeping)::value;
    while (it != begin && (!kKeeping || open_rows > 0)) {
      const std::uint32_t index = *--it;
      const Circle& c = circles_[index];
      const shade::PixelBox circle_box = box_of(c);
      const shade::PixelBox box = intersect(circle_box, tile_box);
      if (is_empty(box)) continue;
      if (contains(circle_box, tile_box) &&
          shade::covers_every_pixel(c.x, c.y, c.radius, tile_box, inverse_width(),
                                    inverse_height())) {
        ++whole_tile;
        if (kKeeping)
          for (int r = 0; r < h && open_rows > 0; ++r) keep(index, r, 0, w - 1);
        continue;
      }
      for_each_covered_run(
          c.x, c.y, c.radius, box, inverse_width(), inverse_height(), [&](int row, int a, int b) {
            const int r = row - tile_box.min_y;
            std::int64_t* steps = &count_steps[static_cast<std::size_t>(r) * (w + 1)];
            ++steps[a - tile_box.min_x];
            --steps[b - tile_box.min_x + 1];
            if (kKeeping) keep(index, r, a - tile_box.min_x, b - tile_box.min_x);
          });
    }
  };
  walk(std::true_type{});
  walk(std::false_type{});

  Image& image = mutable_image();
  for (int r = 0; r < h; ++r) {
    const std::int64_t* steps = &count_steps[static_cast<std::size_t>(r) * (w + 1)];
    const int row = tile_box.min_y + r;
    std::int64_t covering = whole_tile;
    for (int col = 0; col < w; ++col) {
      covering += steps[col];
      if (covering == 0) continue;
      const std::size_t p = static_cast<std::size_t>(r) * w + col;
      const int m = kept_count[p];
      const std::uint32_t* latest = &kept[static_cast<std::size_t>(r) * w * kKeep + col];
      const auto color_at = [&](int k) {
        return &circles_[latest[static_cast<std::size_t>(m - 1 - k) * w]].r;
      };
      float* pixel = image.pixel(tile_box.min_x + col, row);
      float rgb[3] = {pixel[0], pixel[1], pixel[2]};
      bool done = true;
      if (covering == m) {
        suffix::blend_rgb(rgb, 0, m, color_at);
      } else {
        const bool finite = isfinite(rgb[0]) && isfinite(rgb[1]) && isfinite(rgb[2]);
        float lo[3];
        float hi[3];
        for (int ch = 0; ch < 3; ++ch) {
          lo[ch] = std::min(color_lo_[ch], rgb[ch]);
          hi[ch] = std::max(color_hi_[ch], rgb[ch]);
        }
        done = finite && suffix::meet(m, color_at, lo, hi, rgb);
      }
      if (done) {
        pixel[3] = suffix::alpha_after(pixel[3], covering);
        for (int ch = 0; ch < 3; ++ch) pixel[ch] = rgb[ch];
        continue;
      }
      // Not settled: every circle of the bin whose box holds the pixel.
      const int x = tile_box.min_x + col;
      const float center_x = shade::pixel_center(x, inverse_width());
      const float center_y = shade::pixel_center(row, inverse_height());
      for (const std::uint32_t* c = begin; c != end; ++c) {
        const Circle& circle = circles_[*c];
        const shade::PixelBox box = box_of(circle);
        if (x < box.min_x || x >= box.max_x || row < box.min_y || row >= box.max_y) continue;
        shade::shade_pixel(pixel, center_x, center_y, circle.x, circle.y, circle.z, circle.radius,
                           circle.r, circle.g, circle.b, false);
      }
    }
  }
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
