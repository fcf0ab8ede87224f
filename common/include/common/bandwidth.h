// Ceilings measured in the same run as a benchmark, so results can be given
// as a ratio to what this GPU can do right now.
#pragma once

#include <cstddef>

namespace common {

// Device-to-device cudaMemcpy of `bytes`, median of `reps` after a warm-up.
// Returns GB/s (1e9 bytes per second) counting bytes read plus bytes written.
double measure_d2d_gbs(std::size_t bytes, int reps = 20);

// Pinned host-to-device cudaMemcpy of `bytes`, median of `reps`, GB/s of
// bytes moved.
double measure_h2d_pinned_gbs(std::size_t bytes, int reps = 10);

} // namespace common
