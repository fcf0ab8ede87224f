// --bench: every algorithm timed with CUDA events against CUB and memcpy.
#pragma once

#include "options.h"

namespace scan_app {

// Checks each algorithm against the serial reference, then times it: CUDA
// events, warm-up, median of many runs over buffers rotated so that the
// working set is several times the L2 cache. Prints one table per test.
// Returns 0, or 1 when a result was wrong.
int run_bench(const Options& opt);

} // namespace scan_app
