// Binned mode's host side: one frame's stages in order (draw), and what
// they keep between frames: the pair count (read back once for a scene that
// never moves), the pair memory and counting placement's matrix. Plain C++.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

#include "common/device_buffer.h"
#include "frame/graphs.h"
#include "kernels.h"
#include "memory/layouts.h"
#include "memory/pair_memory.h"
#include "memory/scratch.h"

namespace render::gpu {

// What a binned frame's launches read and write besides the pairs.
struct BinnedFrame {
  SceneArrays scene;
  FrameGeometry frame;
  CircleScratch circles;
  Shading shading = Shading::FlatExact;
  int rows_per_thread = 0;
  const SuffixPlan* suffix = nullptr; // null: no suffix compositing
  float4* pixels = nullptr;
  cudaStream_t stream = nullptr;
  bool counting = true; // counting placement where it applies, else the sort
};

class BinnedPasses {
public:
  BinnedPasses() : pair_total_(1, "CUDA renderer: pair count") {}

  PairMemory& memory() { return memory_; }

  // A new scene or image: the pair count must be read again.
  void forget_pair_count() { pair_count_known_ = false; }

  // Queues a binned frame, its stages in this order:
  //   1. each circle's record and tile count (prepare_circles,
  //      count_tiles_by_warp), and their scan: each circle's first pair;
  //   2. while the pair count is not known, the count read back (waiting
  //      for the device); it stays known when the scene is `still`;
  //   3. room in the pair memory for a pass (dropping `graphs` when the
  //      pair scratch they name must grow);
  //   4. with counting placement (f.counting, at most kMaxCountTiles
  //      tiles and the pairs in one pass): count each chunk's pairs per
  //      tile, scan the matrix, place every pair in its tile's slots
  //      (binning/placement.h), shade;
  //   4'. else the passes over consecutive runs of the circle-major pair
  //      order, each: emit the run's (tile, circle) pairs, sort them by tile
  //      (stable: a tile's circles stay in index order), find each tile's
  //      range, shade.
  // The first shading draws from take_start(), called once and only when
  // there are pairs; later passes over the image. A frame whose count is
  // known needs no answer from the host, so its stages 1 and 4 are recorded
  // in `graphs` and replayed; there counting placement needs of stage 1
  // only the circles' records and kinds.
  void draw(const BinnedFrame& f, bool still, FrameGraphs& graphs,
            const std::function<PixelStart()>& take_start);

private:
  void prepare(const BinnedFrame& f) const;
  void count_tiles(const BinnedFrame& f) const;
  bool placing(const BinnedFrame& f) const;
  void place(const BinnedFrame& f, PixelStart start) const;
  void read_pair_count(const BinnedFrame& f, bool still);
  void reserve(const BinnedFrame& f, FrameGraphs& graphs);
  void shade_passes(const BinnedFrame& f, PixelStart start) const;
  std::size_t pairs_per_pass() const;

  PairMemory memory_;
  ScratchArena placement_arena_{"CUDA renderer: binning counts"};
  PlacementScratch placement_;
  common::PinnedBuffer<std::uint64_t> pair_total_;
  bool pair_count_known_ = false;
  std::uint64_t pair_count_ = 0;
};

} // namespace render::gpu
