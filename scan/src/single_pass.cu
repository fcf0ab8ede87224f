// The single-pass algorithms: scan and fused find_repeats with decoupled look-back.
#include "kernels.h"
#include "pipeline.cuh"
#include "single_pass_kernels.cuh"

namespace scan::detail {

// Tilings: threads per block, 16-byte vectors per thread (4 items each), the
// look-back's pause between polls, and its predecessors per lane and round.
// Chosen by tools/scan_tune on the H200 (docs/scan.md, "Algorithms" and its
// change log, has the measurements). Held in registers, scan tiles peak at
// 128x8 because registers cap the bytes in flight per SM; find_repeats'
// tile needs fewer registers, so 256x12 keeps more bytes in flight.
//
// On Hopper and newer both run the warp-specialized pipeline instead
// (pipeline.cuh), one block per SM with 7 stages of 32 KB tiles: the scan
// with 8 store warps and 2 reducers, find_repeats, whose store warps do more
// per item, with 16 store warps and 4 reducers; 2 look-back warps and the L2
// prefetch 2 MB ahead of each claim in both (docs/scan.md, change 15). Every
// other GPU (sm_75 to sm_89, sm_120's 100 KB), and any build without sm_90
// code, runs the register kernels: no dynamic shared memory, so they fit
// every architecture's limits (sm_75: 64 KB per SM).
using RegisterScanTiling = Tiling<128, 8, 100>;
using RepeatsTiling = Tiling<256, 12, 100>;
using ScanPipeline = Pipeline<8192, 7, 8, 1, 2, 64, 2>;
using RepeatsPipeline = Pipeline<8192, 7, 16, 1, 2, 64, 4>;
// Short inputs gain nothing from smaller register tiles, and at 4M they were
// slower (docs/scan.md, change 14).
static_assert(RegisterScanTiling::kTileItems <= ScanPipeline::kTileItems &&
                  RepeatsPipeline::kTileItems <= RepeatsTiling::kTileItems,
              "the look-back words are sized for the smaller tile of each call");

// The workspace is sized before the kernel is chosen, so it holds the words
// of the smaller tile, enough for either kernel.
std::int64_t single_pass_scan_tiles(std::int64_t n) {
  return tiles_for<RegisterScanTiling>(n);
}
std::int64_t fused_repeats_tiles(std::int64_t n) {
  return tiles_for<RepeatsPipeline>(n);
}

void single_pass_scan(const unsigned* in, unsigned* out, std::int64_t n, const LookbackState& state,
                      cudaStream_t stream) {
  if (pipeline_slots<ScanPipeline, ScanOp>() > 0)
    launch_pipelined<ScanPipeline>(in, n, state, stream, ScanOp{out, aligned16(out)});
  else
    launch_single_pass_scan<RegisterScanTiling>(in, out, n, state, stream);
}

void fused_find_repeats(const int* in, std::int64_t n, int* out, std::int64_t* count,
                        const LookbackState& state, cudaStream_t stream) {
  auto* count_word = reinterpret_cast<long long*>(count);
  if (pipeline_slots<RepeatsPipeline, RepeatsOp>() > 0)
    launch_pipelined<RepeatsPipeline>(reinterpret_cast<const unsigned*>(in), n, state, stream,
                                      RepeatsOp{out, count_word});
  else
    launch_fused_find_repeats<RepeatsTiling>(in, n, out, count_word, state, stream);
}

} // namespace scan::detail
