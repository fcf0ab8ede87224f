// Binned mode's host side, step by step: each circle's tile count and their
// scan (the pairs' offsets), the pair count read back (once for a scene that
// never moves), and the passes that emit, sort and shade consecutive runs of
// the circle-major pair order within the pair memory's budget. The
// renderer's State puts the steps in a frame's order. Plain C++.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/device_buffer.h"
#include "frame/graphs.h"
#include "kernels.h"
#include "memory/layouts.h"
#include "memory/pair_memory.h"

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
};

class BinnedPasses {
public:
  BinnedPasses() : pair_total_(1, "CUDA renderer: pair count") {}

  PairMemory& memory() { return memory_; }

  // A new scene or image: the pair count must be read again.
  void forget_pair_count() { pair_count_known_ = false; }
  bool pair_count_known() const { return pair_count_known_; }
  // The last pair count read back.
  std::uint64_t pair_count() const { return pair_count_; }

  // Counts the tiles and reads the pair count back (waiting for the device).
  // The count stays known when the scene is `still`: it cannot change then.
  void read_pair_count(const BinnedFrame& f, bool still);

  // Queues the tile counts and their scan.
  void count_tiles(const BinnedFrame& f) const;

  // Room for a pass of pairs_per_pass() pairs; when the pair scratch must
  // grow, `graphs` (which name it) are dropped first.
  void reserve(const FrameGeometry& frame, FrameGraphs& graphs);

  // Queues the passes over all pair_count() pairs; the first draws from
  // `start`, the others over the image. Each pixel still receives its
  // circles in index order across passes.
  void shade_passes(const BinnedFrame& f, PixelStart start) const;

private:
  std::size_t pairs_per_pass() const;

  PairMemory memory_;
  common::PinnedBuffer<std::uint64_t> pair_total_;
  bool pair_count_known_ = false;
  std::uint64_t pair_count_ = 0;
};

} // namespace render::gpu
