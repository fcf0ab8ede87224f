// find_repeats' per-vector work, shared by the single-pass kernels: which of
// four items equal their right neighbour, and where their indices go.
#pragma once

namespace scan::detail {

// Bit c (0-3) set where item c of a vector equals its right neighbour (item
// c + 1; `after` for item 3) and that neighbour is in the input: `left` is n
// minus the index of item 0.
__device__ __forceinline__ unsigned repeat_bits(uint4 v, unsigned after, long long left) {
  unsigned bits = static_cast<unsigned>(v.x == v.y) | static_cast<unsigned>(v.y == v.z) << 1 |
                  static_cast<unsigned>(v.z == v.w) << 2 | static_cast<unsigned>(v.w == after) << 3;
  if (left < 5) bits &= left > 1 ? (1u << (left - 1)) - 1u : 0u;
  return bits;
}

// Stores the indices `g + c` of the set bits c at ranks from `rank` on.
__device__ __forceinline__ void store_repeats(int* out, unsigned rank, long long g, unsigned bits) {
#pragma unroll
  for (int c = 0; c < 4; ++c)
    if (bits >> c & 1u) out[rank++] = static_cast<int>(g + c);
}

} // namespace scan::detail
