// The single-pass scan's tunings, one named policy per path: what each
// number is, and where the measurement that chose it lives. Chosen with
// tools/scan_tune on the H200 (docs/scan.md: "Per architecture" and the
// change log's entries 14 and 15). Plain constants; single_pass.cu turns
// them into the kernels' template arguments.
#pragma once

namespace scan::detail::tuning {

// The register-tile kernels: every GPU without the Hopper pipeline (sm_75 to
// sm_89, sm_120, and any build without sm_90 code). No dynamic shared
// memory, so they fit every architecture's limits (sm_75: 64 KB per SM).
struct RegisterTiles {
  int threads;      // per block
  int vectors;      // 16-byte vectors per thread, 4 items each
  int sleep_ns;     // the look-back's pause between polls
  int lookback = 1; // predecessors each lane reads per look-back round
};

// Scan tiles peak at 128x8: registers cap the bytes in flight per SM.
inline constexpr RegisterTiles kRegisterScan{128, 8, 100};
// find_repeats' tile needs fewer registers, so 256x12 keeps more in flight.
inline constexpr RegisterTiles kRegisterRepeats{256, 12, 100};

// The warp-specialized pipeline (pipeline.cuh), sm_90 and newer: bulk
// copies into shared-memory stages, one block per SM.
struct HopperPipeline {
  int tile_items;     // items per tile, one stage (8192: 32 KB)
  int stages;         // tiles in flight per block
  int store_warps;    // warps scanning and storing, each a region of the tile
  int blocks_per_sm;  // resident blocks the launch needs to fit
  int lookback_warps; // warps taking the block's tiles in turn
  int prefetch_tiles; // the L2 is asked for the tile this far past each claim
  int reduce_warps;   // warps sharing the reducer's work
  int sleep_ns = 100; // the look-back's pause between polls
  // Below this many items the register kernel runs instead: the pipeline's
  // start (its barriers, the first bulk copy) costs more than it brings.
  long long from_items = 0;
};

// The scan: 8 store warps, 2 reducers; 2 look-back warps and the L2
// prefetch 64 tiles (2 MB) ahead in both. Below 2M items the scan's
// register kernel, below 8M find_repeats' (docs/scan.md, change 17).
inline constexpr HopperPipeline kPipelineScan{8192, 7, 8, 1, 2, 64, 2, 100, 2'000'000};
// find_repeats' store warps do more per item: 16 of them, 4 reducers.
inline constexpr HopperPipeline kPipelineRepeats{8192, 7, 16, 1, 2, 64, 4, 100, 8'000'000};

} // namespace scan::detail::tuning
