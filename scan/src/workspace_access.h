// The library's view of a Workspace (internal): where each piece of scratch
// lives and how much each call needs.
//
// Layout of the device buffer:
// - [0, 256): the header, zeroed on allocation;
// - [256, + 8 * words): status words, zeroed on allocation;
// - [aligned to 256, ...): scratch: CUB's temporary storage.
// suite-only
// The header holds the single-pass tile counter (u32) at 0 and the blelloch
// carry (u32) at 16; the status words are the single-pass look-back words,
// one per tile, stamped per launch; the scratch is also the composition's
// positions.
// /suite-only
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels.h"
#include "scan/scan.h"

namespace scan::detail {

// What one call needs: status words and scratch bytes.
struct ScratchNeed {
  std::size_t status_words = 0;
  std::size_t scratch_bytes = 0;
};

ScratchNeed scan_need(std::int64_t n, Algorithm algorithm);
ScratchNeed find_repeats_need(std::int64_t n, Algorithm algorithm);

struct WorkspaceAccess {
  static std::size_t total_bytes(const ScratchNeed& need);
  static void reserve(Workspace& ws, const ScratchNeed& need, cudaStream_t stream) {
    ws.reserve(need.status_words, need.scratch_bytes, stream);
  }
  static unsigned* carry(Workspace& ws); // suite-only
  // find_repeats' count slot: mapped pinned host memory, allocated on first
  // use; the kernels write it through count_for_device.
  static std::int64_t* count_for_host(Workspace& ws);
  static std::int64_t* count_for_device(Workspace& ws);
  static void* scratch(Workspace& ws);
  static std::size_t scratch_bytes(const Workspace& ws) { return ws.scratch_bytes_; }
  // suite-only
  // Stamps a new launch: the next epoch, re-zeroing the words when it wraps.
  static LookbackState next_lookback(Workspace& ws, cudaStream_t stream);
  // /suite-only
};

} // namespace scan::detail
