// The CUDA renderer's settings, decided once when a renderer is made:
// resolve() gives each option left out its default and checks the others;
// before that, the programs' renderer (make_cuda_renderer(CudaMode),
// mode.cpp) fills the options left out from the RENDER_CUDA_*
// environment variables with with_environment(), for measurements. Plain
// C++; a bad value is std::invalid_argument naming the option or the
// variable.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "render/cuda_renderer.h"
#include "tuning.h"

namespace render::gpu::settings {

// The defaults; tuning.h says which measurements chose them.
constexpr int kDefaultRowsPerThread = tuning::kDefaultRowsPerThread;
constexpr int kDefaultTiledBlocksPerSm = tuning::kDefaultTiledBlocksPerSm;
constexpr std::uint32_t kDefaultSuffixMinPairs = tuning::kSuffixMinPairs;
constexpr std::uint32_t kDefaultSuffixMinFullPercent = tuning::kSuffixMinFullPercent;
// The radix sort stays the default until the counting placement has been
// checked and timed against it on the device (docs/design/cuda_renderer.md).
constexpr CudaBinning kDefaultBinning = CudaBinning::Sort;

// CudaRendererOptions with every setting decided (its comments say what
// each does).
struct Settings {
  CudaMode mode = CudaMode::Auto;
  std::optional<std::size_t> max_pairs_per_pass; // not given: from the free memory at setup
  bool allow_fused_blend = true;
  bool warm_up = true;
  bool reuse_auto_choice = false;
  int rows_per_thread = kDefaultRowsPerThread;                          // 1, 2 or 4
  int tiled_blocks_per_sm = kDefaultTiledBlocksPerSm;                   // 4, 6 or 8
  std::uint32_t suffix_min_pairs = kDefaultSuffixMinPairs;              // 0: off
  std::uint32_t suffix_min_full_percent = kDefaultSuffixMinFullPercent; // 0: any share
  bool graphs = true;
  CudaBinning binning = kDefaultBinning;
};

// The options, each one left out at its default. Reads no environment.
Settings resolve(const CudaRendererOptions& options);

// `options` with each tuning setting it leaves out taken from its variable,
// where that is set and not empty: RENDER_CUDA_ROWS and
// RENDER_CUDA_TILED_BLOCKS (exactly one of the allowed numbers),
// RENDER_CUDA_SUFFIX_MIN_PAIRS (a positive number, or "off"),
// RENDER_CUDA_SUFFIX_MIN_FULL (1 to 100, or "off" for any share) and
// RENDER_CUDA_GRAPHS ("on" or "off") and RENDER_CUDA_BINNING ("count" or
// "sort"). A setting given is kept, its variable not read.
CudaRendererOptions with_environment(CudaRendererOptions options);

} // namespace render::gpu::settings
