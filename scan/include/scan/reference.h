// Serial references: the definition of correct for every GPU algorithm.
#pragma once

#include <cstdint>

namespace scan {

// out[i] = in[0] + ... + in[i-1]; sums wrap modulo 2^32 like the GPU versions
// (computed in unsigned arithmetic, so the wrap is defined). in == out works.
void exclusive_scan_serial(const int* in, int* out, std::int64_t n);

// Writes each index i < n - 1 with in[i] == in[i+1] to out, in increasing
// order, and returns how many there are. out must not overlap in.
std::int64_t find_repeats_serial(const int* in, std::int64_t n, int* out);

// The first index where got and want differ, or n when they agree.
std::int64_t first_mismatch(const int* got, const int* want, std::int64_t n);

} // namespace scan
