// The single-pass algorithms: scan and fused find_repeats with decoupled look-back.
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <stdexcept>

#include "common/cli.h"
#include "kernels.h"
#include "pipeline.cuh"
#include "single_pass_kernels.cuh"
#include "tuning.h"

namespace scan::detail {

// The kernels of each path, from their named policies (tuning.h).
template <const tuning::RegisterTiles& P>
using TilingOf = Tiling<P.threads, P.vectors, P.sleep_ns, P.lookback>;
template <const tuning::HopperPipeline& P>
using PipelineOf = Pipeline<P.tile_items, P.stages, P.store_warps, P.blocks_per_sm,
                            P.lookback_warps, P.prefetch_tiles, P.reduce_warps, P.sleep_ns>;

using RegisterScanTiling = TilingOf<tuning::kRegisterScan>;
using RepeatsTiling = TilingOf<tuning::kRegisterRepeats>;
using ScanPipeline = PipelineOf<tuning::kPipelineScan>;
using RepeatsPipeline = PipelineOf<tuning::kPipelineRepeats>;
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

namespace {

// The size from which the pipeline runs: the policy's, or SCAN_PIPELINE_FROM
// (items) where set, so that the checks can hold either kernel to any size.
long long pipeline_from(long long tuned) {
  static const long long forced = [] {
    const char* value = std::getenv("SCAN_PIPELINE_FROM");
    if (value == nullptr || *value == '\0') return -1LL;
    // A setting of the checks, not an option: its error is no usage error
    // (--help does not describe it).
    try {
      return static_cast<long long>(common::parse_int(value, "SCAN_PIPELINE_FROM", 0,
                                                      std::numeric_limits<std::int64_t>::max()));
    } catch (const common::UsageError& e) {
      throw std::invalid_argument(e.what());
    }
  }();
  return forced >= 0 ? forced : tuned;
}

} // namespace

void single_pass_scan(const unsigned* in, unsigned* out, std::int64_t n, const LookbackState& state,
                      cudaStream_t stream) {
  if (n >= pipeline_from(tuning::kPipelineScan.from_items) &&
      pipeline_slots<ScanPipeline, ScanOp>() > 0)
    launch_pipelined<ScanPipeline>(in, n, state, stream, ScanOp{out, aligned16(out)});
  else
    launch_single_pass_scan<RegisterScanTiling>(in, out, n, state, stream);
}

void fused_find_repeats(const int* in, std::int64_t n, int* out, std::int64_t* count,
                        const LookbackState& state, cudaStream_t stream) {
  auto* count_word = reinterpret_cast<long long*>(count);
  if (n >= pipeline_from(tuning::kPipelineRepeats.from_items) &&
      pipeline_slots<RepeatsPipeline, RepeatsOp>() > 0)
    launch_pipelined<RepeatsPipeline>(reinterpret_cast<const unsigned*>(in), n, state, stream,
                                      RepeatsOp{out, count_word});
  else
    launch_fused_find_repeats<RepeatsTiling>(in, n, out, count_word, state, stream);
}

} // namespace scan::detail
