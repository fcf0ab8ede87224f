// The multithreaded CPU renderer: the same images as RefRenderer, bit for bit.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "render/host_renderer.h"

namespace render {

// Splits the image into square tiles shared out across threads; only one
// thread writes a tile. Each frame it bins circles to the tiles their boxes
// touch (keeping index order), and each tile shades just its own list, so
// every pixel still receives its circles in index order.
class CpuRenderer : public HostRenderer {
public:
  static constexpr int kTileSide = 64;
  static constexpr std::size_t kMaxTiles = 4096;
  // 128 MiB of circle indices; beyond that tiles walk all circles instead.
  static constexpr std::size_t kDefaultMaxBinEntries = std::size_t{32} << 20;

  // How a tile blends a flat scene (snow always takes Full).
  enum class Compositing {
    Full,   // every circle into every pixel it covers
    Suffix, // per pixel, only the last circles whose blend decides the result
  };
  // The suffix blends, per tile row, the last circles from where every pixel
  // of the row has this many covering circles; a pixel whose suffix does not
  // settle it is blended in full.
  static constexpr int kSuffixWindow = 48;
  // A tile takes the suffix only where its circles' boxes cover each pixel
  // this many times on average; below, blending everything is cheaper.
  static constexpr std::size_t kSuffixMinCoverage = 256;

  // threads <= 0: one per hardware thread.
  explicit CpuRenderer(int threads = 0, std::size_t max_bin_entries = kDefaultMaxBinEntries,
                       Compositing compositing = Compositing::Suffix,
                       std::size_t suffix_min_coverage = kSuffixMinCoverage);
  ~CpuRenderer() override;

  std::string name() const override { return "cpu"; }
  void setup(const scenes::Scene& scene, int width, int height) override;
  void clear() override;
  void render() override;

  int threads() const { return threads_; }
  // Whether the last render() used tile bins (false: the walk-all fallback).
  bool last_render_binned() const { return last_binned_; }
  // Whether the last render() used suffix compositing (in the tiles whose
  // coverage reaches suffix_min_coverage).
  bool last_render_suffix() const { return last_suffix_; }

private:
  // The same pixels and the same bits as shade_circle, faster: a flat
  // circle's covered pixels in a row form one run, found with a few exact
  // coverage tests, then blended without testing each pixel.
  void shade_circle_runs(const Circle& c, const shade::PixelBox& box);
  void render_tile(std::size_t tile);
  void render_tile_suffix(std::size_t tile);
  // Whether this frame takes the suffix, from the per-chunk summaries of
  // its circles (render()); sets the color bounds.
  template <class Summaries> bool suffix_applies(const Summaries& chunks);

  int threads_;
  std::size_t max_bin_entries_;
  Compositing compositing_;
  std::size_t suffix_min_coverage_;
  bool last_binned_ = false;
  bool last_suffix_ = false;
  float color_lo_[3] = {}; // this frame's color bounds, per channel
  float color_hi_[3] = {};
  struct Tiles; // the tile grid and this frame's bins (src/tile_bins.h)
  // This frame's circles gathered into one record each: a tile reads its
  // circles in scattered order, and one cache line per circle beats seven.
  std::vector<Circle> circles_;
  std::unique_ptr<Tiles> tiles_;
};

} // namespace render
