// The chunk schedule of the tuned whole trip: which floats each chunk copies
// in, computes and copies out. Host-only arithmetic, so it is tested on the CPU.
#pragma once

#include <cstddef>
#include <vector>

namespace saxpy {

// Floats per chunk of the tuned trip unless --chunk says otherwise: 8M floats
// (32 MB per array), large enough that each copy runs at the link's full rate;
// the best of a sweep of chunk sizes on the H200.
inline constexpr std::size_t kDefaultChunk = std::size_t{1} << 23;
// Chunks near the end of the trip halve down to this size (1 MB per array),
// unless the chunk size is smaller still.
inline constexpr std::size_t kTailChunk = std::size_t{1} << 18;
// The largest chunk the program accepts: 4 GiB per array, past any course
// input (a chunk larger than n is one chunk).
inline constexpr std::size_t kMaxChunk = std::size_t{1} << 30;

struct Chunk {
  std::size_t offset = 0;
  std::size_t count = 0;
  bool operator==(const Chunk& other) const {
    return offset == other.offset && count == other.count;
  }
};

// How many floats the chunk that starts `remaining` floats before the end
// covers (remaining > 0, chunk > 0; at least 1, at most remaining).
//
// Why the taper: the copies in run back to back, so the trip lasts as long as
// all of them plus what follows the last one, the last chunk's kernel and its
// copy out, which overlap nothing. Full chunks keep each copy at full rate;
// once fewer than two full chunks remain, each chunk takes about half of what
// is left (rounded up to 1024 floats, so offsets stay 16-byte aligned when the
// chunk size is), down to kTailChunk, so the last copy out is short.
std::size_t next_chunk_count(std::size_t remaining, std::size_t chunk);

// The chunks covering [0, n) in order, each float exactly once. Throws
// std::invalid_argument when chunk is 0. Builds a list of n / chunk entries:
// the trip itself walks the same steps with next_chunk_count.
std::vector<Chunk> chunk_schedule(std::size_t n, std::size_t chunk);

} // namespace saxpy
