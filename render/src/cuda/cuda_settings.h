// The CUDA renderer's tuning settings, resolved once when a renderer is
// made: each option's value when given, else its RENDER_CUDA_* environment
// variable (for measurements), else the default. Plain C++; a bad value is
// std::invalid_argument naming the option or the variable.
#pragma once

#include <cstdint>

namespace render::gpu::settings {

// Binned mode's pixels per thread (1, 2 or 4); 0: RENDER_CUDA_ROWS, else 2.
int binned_rows(int requested);
// Tiled mode's blocks per SM (4, 6 or 8); 0: RENDER_CUDA_TILED_BLOCKS, else 8.
int tiled_blocks(int requested);
// The suffix threshold in pairs (0: off); requested 0:
// RENDER_CUDA_SUFFIX_MIN_PAIRS (a number or "off"), else 256; negative: off.
std::uint32_t suffix_min_pairs(int requested);
// The share of whole-tile pairs a tile needs to try the suffix, in percent
// (0: any share); requested 0: RENDER_CUDA_SUFFIX_MIN_FULL, else 25.
std::uint32_t suffix_min_full(int requested);
// Whether frames replay as CUDA graphs: `requested`, unless
// RENDER_CUDA_GRAPHS says "off" ("on" or unset: `requested`).
bool graphs_wanted(bool requested);

} // namespace render::gpu::settings
