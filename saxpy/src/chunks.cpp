#include "saxpy/chunks.h"

#include <algorithm>
#include <stdexcept>

namespace saxpy {

namespace {
// Tail chunks are rounded up to this many floats (4 KiB).
constexpr std::size_t kTailRounding = 1024;
} // namespace

std::size_t next_chunk_count(std::size_t remaining, std::size_t chunk) {
  const std::size_t half = (remaining / 2 + kTailRounding - 1) / kTailRounding * kTailRounding;
  return std::min({chunk, remaining, std::max(kTailChunk, half)});
}

std::vector<Chunk> chunk_schedule(std::size_t n, std::size_t chunk) {
  if (chunk == 0) throw std::invalid_argument("saxpy::chunk_schedule: chunk must be positive");
  std::vector<Chunk> chunks;
  for (std::size_t offset = 0; offset < n;) {
    const std::size_t count = next_chunk_count(n - offset, chunk);
    chunks.push_back({offset, count});
    offset += count;
  }
  return chunks;
}

} // namespace saxpy
