// The CUDA renderer's device memory, as layouts: each carves one allocation
// into aligned typed arrays with a ScratchCarver (memory/scratch.h). Run on a
// null base a layout only measures, setting `bytes` to the size it needs;
// the size and the arrays come from the same code. Also the scene's upload
// through its layout. Plain C++ on the CUDA runtime.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/device_buffer.h"
#include "kernels.h"
#include "scenes/scene.h"

namespace render::gpu {

// The scene's arrays, `count` floats each.
SceneArrays lay_out_scene(void* base, int count, std::size_t& bytes);

// `scene` in a new allocation of its own, put in `memory` (the old one freed
// first); returns once the copies, queued on `stream`, are done.
SceneArrays upload_scene(const scenes::Scene& scene, common::DeviceBuffer<unsigned char>& memory,
                         cudaStream_t stream);

// What every frame needs, sized by the circle and tile counts.
struct CircleScratch {
  CircleRecords records;
  BinCounts bins;
  void* scan_scratch = nullptr;
  std::size_t scan_bytes = 0;
  uint2* tile_ranges = nullptr;
};

CircleScratch lay_out_circles(void* base, int count, int tile_count, std::size_t scan_bytes,
                              std::size_t& bytes);

// One binned pass's pairs (the sort's double buffers, keys as wide as
// `tile_count` needs) and the sort's scratch.
struct PairScratch {
  PairKeys keys[2];
  std::uint32_t* values[2] = {nullptr, nullptr};
  void* sort_scratch = nullptr;
  std::size_t sort_bytes = 0;
  std::size_t capacity = 0;
  bool narrow = false;
};

PairScratch lay_out_pairs(void* base, std::size_t capacity, int tile_count, std::size_t sort_bytes,
                          std::size_t& bytes);

// Counting placement's count matrix (PlacementChunks::entries) and its
// scan's scratch; the pairs themselves go to PairScratch::values[0].
struct PlacementScratch {
  std::uint32_t* matrix = nullptr;
  void* scan_scratch = nullptr;
  std::size_t scan_bytes = 0;
};

PlacementScratch lay_out_placement(void* base, std::size_t entries, std::size_t scan_bytes,
                                   std::size_t& bytes);

} // namespace render::gpu
