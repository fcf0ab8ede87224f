// The host functions behind each algorithm (internal to the library). They take
// device pointers, valid arguments and ready scratch memory, and a stream; the
// public calls in dispatch.cpp check arguments and carve the scratch memory.
// Scans work on unsigned values so that wrapping sums are defined behaviour.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace scan::detail {

// n >= 1 in every function here.
std::size_t cub_scan_scratch_bytes(std::int64_t n);
void cub_scan(const unsigned* in, unsigned* out, std::int64_t n, void* scratch,
              std::size_t scratch_bytes, cudaStream_t stream);
std::size_t cub_find_repeats_scratch_bytes(std::int64_t n);
void cub_find_repeats(const int* in, std::int64_t n, int* out, std::int64_t* count, void* scratch,
                      std::size_t scratch_bytes, cudaStream_t stream);

// suite-only
// The suite's own algorithms (a handout has none: make_handout.sh cuts them).
//
// What a single-pass kernel needs for its look-back (see lookback.cuh).
struct LookbackState {
  unsigned long long* status = nullptr; // one word per tile
  unsigned* tile_counter = nullptr;     // 0 between launches: the last tile resets it
  unsigned epoch = 1;                   // stamp of this launch, 1 to 2^30 - 1
};

// Tiles (and so look-back words) a single-pass launch over n elements uses.
std::int64_t single_pass_scan_tiles(std::int64_t n);
std::int64_t fused_repeats_tiles(std::int64_t n);

// kogge_stone_scan's block sums: kogge_stone_scratch_elements(n) unsigned values.
std::size_t kogge_stone_scratch_elements(std::int64_t n);
void kogge_stone_scan(const unsigned* in, unsigned* out, std::int64_t n, unsigned* block_sums,
                      cudaStream_t stream);
void blelloch_scan(const unsigned* in, unsigned* out, std::int64_t n, unsigned* carry,
                   cudaStream_t stream);
void single_pass_scan(const unsigned* in, unsigned* out, std::int64_t n, const LookbackState& state,
                      cudaStream_t stream);

// The scan inside the course's composition, with its scratch: kogge_stone_scan
// (block sums) or blelloch_scan (carry).
using ComposedScan = void (*)(const unsigned* in, unsigned* out, std::int64_t n, unsigned* scratch,
                              cudaStream_t stream);

// `positions` holds n unsigned values of scratch.
void composed_find_repeats(const int* in, std::int64_t n, int* out, std::int64_t* count,
                           unsigned* positions, ComposedScan scan, unsigned* scan_scratch,
                           cudaStream_t stream);
void fused_find_repeats(const int* in, std::int64_t n, int* out, std::int64_t* count,
                        const LookbackState& state, cudaStream_t stream);
// /suite-only

} // namespace scan::detail
