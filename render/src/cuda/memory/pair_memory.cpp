#include "memory/pair_memory.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include "common/cuda_check.h"
#include "tuning.h"

namespace render::gpu {

namespace {

// A pass never holds more pairs than this: the sort's item count and the
// tile ranges are 32-bit.
constexpr std::size_t kMaxPairsPerPass = std::size_t{1} << 30;
// With no limit given, binning may use this share of the device memory left
// free after the image and the circle records (tuning.h).
constexpr double kPairMemoryShare = tuning::kPairMemoryShare;
// Two key and two value buffers (the sort's double buffers), keys at their
// widest.
constexpr std::size_t kBytesPerPair = 4 * sizeof(std::uint32_t);
// Below this many pairs per pass the device is too full to bin sensibly.
constexpr std::size_t kMinPairsPerPass = tuning::kMinPairsPerPass;

} // namespace

void PairMemory::set_budget(std::optional<std::size_t> max) {
  if (max) {
    max_pairs_per_pass_ = std::min(*max, kMaxPairsPerPass);
    return;
  }
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const auto budget = static_cast<std::size_t>(free_bytes * kPairMemoryShare) / kBytesPerPair;
  max_pairs_per_pass_ = std::clamp(budget, kMinPairsPerPass, kMaxPairsPerPass);
}

PairMemory::Growth PairMemory::growth_for(std::size_t count, int tile_count) const {
  Growth g;
  g.count = count;
  g.tile_count = tile_count;
  const std::size_t sort_bytes = sort_scratch_bytes(count, tile_count);
  if (count <= pairs_.capacity && sort_bytes <= pairs_.sort_bytes &&
      narrow_pair_keys(tile_count) == pairs_.narrow)
    return g;
  g.needed = true;
  const std::size_t grown = std::min(pairs_.capacity + pairs_.capacity / 2, max_pairs_per_pass_);
  g.capacity = std::max(count, grown);
  g.sort_bytes = std::max(sort_bytes, sort_scratch_bytes(g.capacity, tile_count));
  lay_out_pairs(nullptr, g.capacity, tile_count, g.sort_bytes, g.bytes);
  return g;
}

void PairMemory::grow(const Growth& growth, const FrameGeometry& frame) {
  try {
    pairs_ = PairScratch();
    std::size_t bytes = 0;
    pairs_ = lay_out_pairs(arena_.reserve(growth.bytes), growth.capacity, growth.tile_count,
                           growth.sort_bytes, bytes);
  } catch (const common::CudaError& e) {
    throw common::CudaError(e.code(),
                            "the CUDA renderer cannot bin " + std::to_string(growth.count) +
                                " tile-circle pairs of a " + std::to_string(frame.width) + "x" +
                                std::to_string(frame.height) + " image in device memory (" +
                                e.what() + "); a smaller image or pass size fits");
  }
}

} // namespace render::gpu
