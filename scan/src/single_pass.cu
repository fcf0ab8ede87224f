// The single-pass algorithms: scan and fused find_repeats with decoupled look-back.
#include "kernels.h"
#include "single_pass_kernels.cuh"

namespace scan::detail {

// Tilings: threads per block, 16-byte vectors per thread (4 items each), the
// look-back's pause between polls, and its predecessors per lane and round.
// Chosen by tools/scan_tune on the H200 (docs/scan.md, "Tuning"). The scan
// stages its tiles in shared memory (staged_scan_kernel): held in registers,
// tiles peaked at 128x8 (738 us at 2^28, 68% of memcpy) because registers
// capped the bytes in flight per SM. Staged, 128x32 (64 KB tiles, 3 per SM)
// took 660-670 us, and with the L2 prefetch (tile.cuh) 593 us; 128x24 tied it
// there (594 us) and at 40M, but took 34.7 us at 10M against 33.4 us.
// find_repeats keeps its tiles in registers: 256x12 took 463 us at 2^28
// against 607 us for 256x8, and 76 us against 97 us at 40M; the prefetch
// brought 256x12 to 431 us at 2^28.
//
// Per architecture: the staged scan needs Hopper's bulk copies and 228 KB of
// shared memory per SM (sm_90, sm_100). Every other GPU (sm_75 to sm_89,
// sm_120's 100 KB), and any build without sm_90 code, runs the register
// kernel at its best H200 tiling: no dynamic shared memory, so it fits every
// architecture's limits (sm_75: 64 KB per SM). find_repeats runs the same
// kernel everywhere; the L2 prefetch exists from sm_90 on.
using StagedScanTiling = Tiling<128, 32, 100>;
using RegisterScanTiling = Tiling<128, 8, 100>;
using RepeatsTiling = Tiling<256, 12, 100>;
// Short inputs gain nothing from smaller tiles: at 1M items, where the
// staged scan has 61 tiles for 132 SMs and find_repeats 81, tiles of 2048 to
// 8192 items took 9.2-10.4 us against 10.0 and 8.7 us, and at 4M they were
// slower (docs/scan.md, change 14).
static_assert(RegisterScanTiling::kTileItems <= StagedScanTiling::kTileItems,
              "the look-back words are sized for the smaller tile");

// The workspace is sized before the kernel is chosen, so it holds the words
// of the smaller tile, enough for either kernel.
std::int64_t single_pass_scan_tiles(std::int64_t n) {
  return tiles_for<RegisterScanTiling>(n);
}
std::int64_t fused_repeats_tiles(std::int64_t n) {
  return tiles_for<RepeatsTiling>(n);
}

void single_pass_scan(const unsigned* in, unsigned* out, std::int64_t n, const LookbackState& state,
                      cudaStream_t stream) {
  if (staged_scan_runs_here<StagedScanTiling>())
    launch_staged_scan<StagedScanTiling>(in, out, n, state, stream);
  else
    launch_single_pass_scan<RegisterScanTiling>(in, out, n, state, stream);
}

void fused_find_repeats(const int* in, std::int64_t n, int* out, std::int64_t* count,
                        const LookbackState& state, cudaStream_t stream) {
  launch_fused_find_repeats<RepeatsTiling>(in, n, out, reinterpret_cast<long long*>(count), state,
                                           stream);
}

} // namespace scan::detail
