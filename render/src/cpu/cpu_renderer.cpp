#include "render/cpu_renderer.h"

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "parallel.h"
#include "render/covered_run.h"
#include "render/renderer_factory.h"
#include "render/suffix.h"
#include "run_shading.h"
#include "tile_bins.h"

namespace render {

void CpuRenderer::shade_circle_runs(const Circle& c, const shade::PixelBox& box) {
  // Snow's contribution changes per pixel, so runs would save little there;
  // and finding runs costs more than it saves on boxes a few pixels wide.
  constexpr int kMinRunWidth = 5;
  if (scene().snow || box.max_x - box.min_x < kMinRunWidth) {
    shade_circle(c, box);
    return;
  }
  const FlatCircle flat{c.x, c.y, c.radius,
                        shade::blend_terms(shade::flat_contribution(c.r, c.g, c.b))};
  shade_flat_circle_runs(mutable_image(), flat, box, inverse_width(), inverse_height());
}

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
// run costs two adds); a circle that covers the whole tile
// (shade::covers_every_pixel, inside its box) is counted once for all pixels,
// with no run search. Until every pixel of a row has kSuffixWindow covering
// circles, the row also keeps each run (circle and columns): the row's
// window. Then per row: the window is blended forwards by runs from each
// pixel's bounds lo and hi (render/suffix.h), or from the pixel's start when
// the window is the whole list; a pixel whose two results do not meet is
// blended in full.
void CpuRenderer::render_tile_suffix(std::size_t tile) {
  const shade::PixelBox tile_box = tiles_->grid.tile_box(tile);
  const int w = tile_box.max_x - tile_box.min_x;
  const int h = tile_box.max_y - tile_box.min_y;
  if (w <= 0 || h <= 0) return;
  const std::size_t pixels = static_cast<std::size_t>(w) * h;
  const std::uint32_t* begin = tiles_->bins.begin(tile);
  const std::uint32_t* end = tiles_->bins.end(tile);
  // The suffix pays only where pixels have many more covering circles than
  // the window holds; the clipped boxes' area bounds the mean.
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
  constexpr int kWindow = kSuffixWindow;
  // One covered run of a window circle in a row, columns relative to the tile.
  struct Run {
    std::uint32_t index;
    int first;
    int last;
  };
  thread_local std::vector<std::int64_t> count_steps;  // per row, w + 1 steps
  thread_local std::vector<std::uint8_t> window_count; // per pixel, up to kWindow
  thread_local std::vector<int> row_open;              // pixels of the row under kWindow
  thread_local std::vector<std::vector<Run>> row_runs; // per row, latest first
  count_steps.assign(static_cast<std::size_t>(h) * (w + 1), 0);
  window_count.assign(pixels, 0);
  row_open.assign(static_cast<std::size_t>(h), w);
  if (row_runs.size() < static_cast<std::size_t>(h)) row_runs.resize(h);
  for (int r = 0; r < h; ++r) row_runs[r].clear();
  int open_rows = h; // rows whose window is still growing
  // Circles that cover every pixel of the tile, counted once rather than per row.
  std::int64_t whole_tile = 0;

  // Adds the run of row r, columns [a, b], to the row's window if it is open.
  // Plain pointers: a store through window_count's bytes could otherwise
  // alias the vectors' own pointers and force them to be reloaded per pixel.
  std::uint8_t* const count_at = window_count.data();
  int* const open_at = row_open.data();
  std::vector<Run>* const runs_at = row_runs.data();
  const auto keep = [=, &open_rows](std::uint32_t index, int r, int a, int b) {
    if (open_at[r] == 0) return;
    runs_at[r].push_back(Run{index, a, b});
    std::uint8_t* const counts = count_at + static_cast<std::size_t>(r) * w;
    int filled = 0;
    for (int col = a; col <= b; ++col) {
      const int m = counts[col];
      filled += m == kWindow - 1;
      counts[col] = static_cast<std::uint8_t>(m + (m < kWindow));
    }
    if (filled > 0 && (open_at[r] -= filled) == 0) --open_rows;
  };
  // The walk backwards: while some row is open it keeps runs too; once every
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
  // Per channel and column, the row's results from lo and from hi (tiles
  // grow past kTileSide on very large images).
  thread_local std::vector<float> row_results;
  row_results.resize(static_cast<std::size_t>(6) * w);
  float* from_lo[3];
  float* from_hi[3];
  for (int ch = 0; ch < 3; ++ch) {
    from_lo[ch] = row_results.data() + static_cast<std::size_t>(ch) * w;
    from_hi[ch] = row_results.data() + static_cast<std::size_t>(ch + 3) * w;
  }
  for (int r = 0; r < h; ++r) {
    const int row = tile_box.min_y + r;
    // A row still open holds every circle of the list that covers it: its
    // pixels blend them all from their starts, exactly, once.
    const bool whole_list = open_at[r] > 0;
    for (int col = 0; col < w; ++col) {
      const float* pixel = image.pixel(tile_box.min_x + col, row);
      for (int ch = 0; ch < 3; ++ch) {
        from_lo[ch][col] = whole_list ? pixel[ch] : std::min(color_lo_[ch], pixel[ch]);
        from_hi[ch][col] = whole_list ? pixel[ch] : std::max(color_hi_[ch], pixel[ch]);
      }
    }
    const std::vector<Run>& runs = runs_at[r];
    for (auto run = runs.rbegin(); run != runs.rend(); ++run) {
      const Circle& c = circles_[run->index];
      const shade::BlendTerms t = shade::blend_terms(shade::flat_contribution(c.r, c.g, c.b));
      for (int ch = 0; ch < 3; ++ch) {
        const float base = t.base[ch];
        const float scale = t.scale[ch];
        for (int col = run->first; col <= run->last; ++col)
          from_lo[ch][col] = shade::add(base, shade::mul(scale, from_lo[ch][col]));
        if (whole_list) continue;
        for (int col = run->first; col <= run->last; ++col)
          from_hi[ch][col] = shade::add(base, shade::mul(scale, from_hi[ch][col]));
      }
    }
    const std::int64_t* steps = &count_steps[static_cast<std::size_t>(r) * (w + 1)];
    std::int64_t covering = whole_tile;
    for (int col = 0; col < w; ++col) {
      covering += steps[col];
      if (covering == 0) continue;
      float* pixel = image.pixel(tile_box.min_x + col, row);
      const bool finite = isfinite(pixel[0]) && isfinite(pixel[1]) && isfinite(pixel[2]);
      if (whole_list || (finite && suffix::same_bits(from_lo[0][col], from_hi[0][col]) &&
                         suffix::same_bits(from_lo[1][col], from_hi[1][col]) &&
                         suffix::same_bits(from_lo[2][col], from_hi[2][col]))) {
        pixel[3] = suffix::alpha_after(pixel[3], covering);
        for (int ch = 0; ch < 3; ++ch) pixel[ch] = from_lo[ch][col];
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

std::unique_ptr<Renderer> make_cpu_renderer() {
  return std::make_unique<CpuRenderer>();
}

} // namespace render
