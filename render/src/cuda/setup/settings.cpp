#include "setup/settings.h"

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <stdexcept>
#include <string>

namespace render::gpu::settings {

namespace {

// The kernel shapes each mode is compiled for (tuning.h).
using tuning::kRowsChoices;
using tuning::kTiledBlocksChoices;
constexpr char kRowsWhat[] = "binned rows per thread";
constexpr char kTiledBlocksWhat[] = "tiled blocks per SM";

// The suffix thresholds' bounds (their defaults: tuning.h).
constexpr std::uint32_t kMaxPercent = 100;
constexpr char kSuffixPairsWhat[] = "the suffix threshold must be a positive number of pairs";
constexpr char kSuffixFullWhat[] =
    "the share of whole-tile pairs must be a percentage from 1 to 100";

// "1, 2, 4".
template <std::size_t N> std::string list_of(const int (&choices)[N]) {
  std::string list;
  for (const int c : choices) list += (list.empty() ? "" : ", ") + std::to_string(c);
  return list;
}

// `value` when it is one of `choices`, else std::invalid_argument naming `what`.
template <std::size_t N> int checked_shape(int value, const int (&choices)[N], const char* what) {
  if (std::find(std::begin(choices), std::end(choices), value) == std::end(choices))
    throw std::invalid_argument(std::string(what) + " must be one of " + list_of(choices) +
                                ", not " + std::to_string(value));
  return value;
}

// The variable's value; not given when it is unset or empty.
std::optional<std::string> variable(const char* name) {
  const char* value = std::getenv(name);
  if (!value || !*value) return std::nullopt;
  return std::string(value);
}

std::invalid_argument bad_variable(const char* name, const std::string& value,
                                   const std::string& why) {
  return std::invalid_argument(std::string(name) + "='" + value + "': " + why);
}

// A kernel shape from `name`: exactly one of `choices`, as written.
template <std::size_t N>
std::optional<int> shape_variable(const char* name, const int (&choices)[N], const char* what) {
  const std::optional<std::string> value = variable(name);
  if (!value) return std::nullopt;
  for (const int c : choices)
    if (std::to_string(c) == *value) return c;
  throw bad_variable(name, *value, std::string(what) + " must be one of " + list_of(choices));
}

// A suffix setting from `name`: a number from 1 to `max`, or "off" for 0.
std::optional<std::uint32_t> suffix_variable(const char* name, std::uint32_t max,
                                             const char* what) {
  const std::optional<std::string> value = variable(name);
  if (!value) return std::nullopt;
  if (*value == "off") return 0u;
  constexpr std::size_t kMaxDigits = 9; // below 2^30, the most pairs a pass holds
  if (value->size() <= kMaxDigits && value->find_first_not_of("0123456789") == std::string::npos) {
    const auto number = static_cast<std::uint32_t>(std::stoul(*value));
    if (number > 0 && number <= max) return number;
  }
  throw bad_variable(name, *value, std::string(what) + " or 'off'");
}

// RENDER_CUDA_GRAPHS: "on" or "off".
std::optional<bool> graphs_variable() {
  constexpr char kName[] = "RENDER_CUDA_GRAPHS";
  const std::optional<std::string> value = variable(kName);
  if (!value) return std::nullopt;
  if (*value == "on" || *value == "off") return *value == "on";
  throw bad_variable(kName, *value, "frame graphs must be 'on' or 'off'");
}

// RENDER_CUDA_BINNING: "count" or "sort".
std::optional<CudaBinning> binning_variable() {
  constexpr char kName[] = "RENDER_CUDA_BINNING";
  const std::optional<std::string> value = variable(kName);
  if (!value) return std::nullopt;
  if (*value == "count") return CudaBinning::Count;
  if (*value == "sort") return CudaBinning::Sort;
  throw bad_variable(kName, *value, "binning must be 'count' or 'sort'");
}

} // namespace

Settings resolve(const CudaRendererOptions& options) {
  Settings s;
  s.mode = options.mode;
  if (options.max_pairs_per_pass && *options.max_pairs_per_pass == 0)
    throw std::invalid_argument("binned mode's pairs per pass must be at least 1, not 0");
  s.max_pairs_per_pass = options.max_pairs_per_pass;
  s.allow_fused_blend = options.allow_fused_blend;
  s.warm_up = options.warm_up;
  s.reuse_auto_choice = options.reuse_auto_choice;
  s.rows_per_thread = checked_shape(options.binned_rows_per_thread.value_or(kDefaultRowsPerThread),
                                    kRowsChoices, kRowsWhat);
  s.tiled_blocks_per_sm =
      checked_shape(options.tiled_blocks_per_sm.value_or(kDefaultTiledBlocksPerSm),
                    kTiledBlocksChoices, kTiledBlocksWhat);
  s.suffix_min_pairs = options.suffix_min_pairs.value_or(kDefaultSuffixMinPairs);
  s.suffix_min_full_percent =
      options.suffix_min_full_percent.value_or(kDefaultSuffixMinFullPercent);
  if (s.suffix_min_full_percent > kMaxPercent)
    throw std::invalid_argument(
        "the share of whole-tile pairs must be a percentage from 0 (any share) to 100, not " +
        std::to_string(s.suffix_min_full_percent));
  s.graphs = options.use_graphs.value_or(true);
  s.binning = options.binning.value_or(kDefaultBinning);
  return s;
}

CudaRendererOptions with_environment(CudaRendererOptions options) {
  if (!options.binned_rows_per_thread)
    options.binned_rows_per_thread = shape_variable("RENDER_CUDA_ROWS", kRowsChoices, kRowsWhat);
  if (!options.tiled_blocks_per_sm)
    options.tiled_blocks_per_sm =
        shape_variable("RENDER_CUDA_TILED_BLOCKS", kTiledBlocksChoices, kTiledBlocksWhat);
  if (!options.suffix_min_pairs)
    options.suffix_min_pairs =
        suffix_variable("RENDER_CUDA_SUFFIX_MIN_PAIRS", ~0u, kSuffixPairsWhat);
  if (!options.suffix_min_full_percent)
    options.suffix_min_full_percent =
        suffix_variable("RENDER_CUDA_SUFFIX_MIN_FULL", kMaxPercent, kSuffixFullWhat);
  if (!options.use_graphs) options.use_graphs = graphs_variable();
  if (!options.binning) options.binning = binning_variable();
  return options;
}

} // namespace render::gpu::settings
