// Launch arithmetic for the one-thread-per-item kernels, written once.
#pragma once

#include <cstdint>

namespace scan::detail {

constexpr int kFlatThreads = 256;

// Blocks to cover `threads` threads (at most 2^31 * 256 threads, far above any launch here).
inline unsigned flat_blocks(std::int64_t threads) {
  return static_cast<unsigned>((threads + kFlatThreads - 1) / kFlatThreads);
}

} // namespace scan::detail
