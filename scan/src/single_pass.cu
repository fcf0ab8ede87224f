// The single-pass algorithms: scan and fused find_repeats with decoupled look-back.
#include "kernels.h"
#include "single_pass_kernels.cuh"

namespace scan::detail {

// Tilings: threads per block and 16-byte vectors per thread (4 items each).
// Chosen by tools/scan_tune on the H200 at 10M and 2^28 random ints; the
// measurements are in docs/scan.md ("Tuning").
using ScanTiling = Tiling<256, 4>;
using RepeatsTiling = Tiling<256, 4>;

std::int64_t single_pass_scan_tiles(std::int64_t n) {
  return tiles_for<ScanTiling>(n);
}
std::int64_t fused_repeats_tiles(std::int64_t n) {
  return tiles_for<RepeatsTiling>(n);
}

void single_pass_scan(const unsigned* in, unsigned* out, std::int64_t n, const LookbackState& state,
                      cudaStream_t stream) {
  launch_single_pass_scan<ScanTiling>(in, out, n, state, stream);
}

void fused_find_repeats(const int* in, std::int64_t n, int* out, std::int64_t* count,
                        const LookbackState& state, cudaStream_t stream) {
  launch_fused_find_repeats<RepeatsTiling>(in, n, out, reinterpret_cast<long long*>(count), state,
                                           stream);
}

} // namespace scan::detail
