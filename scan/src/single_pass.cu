// The single-pass algorithms: scan and fused find_repeats with decoupled look-back.
#include "kernels.h"
#include "single_pass_kernels.cuh"

namespace scan::detail {

// Tilings: threads per block, 16-byte vectors per thread (4 items each), and
// the look-back's pause between polls. Chosen by tools/scan_tune on the H200
// (docs/scan.md, "Tuning"): with one tile per block, 8 vectors per thread beat
// 2, 4 and 6 at 10M and 2^28 random ints (scan 128x8: 36.0 us and 752 us
// against 39.5 us and 866 us for 256x4; find_repeats 256x8: 28.4 us against
// 32.0 us at 10M), and a 100 ns pause was faster in every pairing measured
// (scan 2^28 866 -> 854 us, find_repeats 10M 32.0 -> 29.4 us).
using ScanTiling = Tiling<128, 8, 100>;
using RepeatsTiling = Tiling<256, 8, 100>;

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
