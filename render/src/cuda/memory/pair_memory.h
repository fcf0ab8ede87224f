// Binned mode's pair memory: the budget, the most (tile, circle) pairs one
// pass holds, and the pair scratch, grown within it as frames need more. A
// frame with more pairs than the budget is drawn in passes
// (binning/passes.h). Plain C++ on the CUDA runtime.
#pragma once

#include <cstddef>
#include <optional>

#include "kernels.h"
#include "memory/layouts.h"
#include "memory/scratch.h"

namespace render::gpu {

class PairMemory {
public:
  // At setup, once the image and the circle scratch are allocated: `max`
  // pairs (at most 2^30), or when not given a share of the device memory
  // left free.
  void set_budget(std::optional<std::size_t> max);
  std::size_t max_pairs_per_pass() const { return max_pairs_per_pass_; }

  // How the scratch must grow to hold a pass of `count` pairs of
  // `tile_count` tiles (the keys' width): not at all
  // (`needed` false), or to this layout. It grows by half again at least
  // (within the budget), so an animation whose pair count creeps up
  // reallocates, and so synchronizes, now and then rather than every frame.
  struct Growth {
    bool needed = false;
    std::size_t count = 0;
    int tile_count = 0;
    std::size_t capacity = 0;
    std::size_t sort_bytes = 0;
    std::size_t bytes = 0;
  };
  Growth growth_for(std::size_t count, int tile_count) const;

  // Replaces the scratch with the grown one (the old one is freed first).
  // Throws common::CudaError naming the pairs and `frame`'s size when it
  // does not fit.
  void grow(const Growth& growth, const FrameGeometry& frame);

  const PairScratch& scratch() const { return pairs_; }

private:
  ScratchArena arena_{"CUDA renderer: binned pairs"};
  PairScratch pairs_;
  std::size_t max_pairs_per_pass_ = 0;
};

} // namespace render::gpu
