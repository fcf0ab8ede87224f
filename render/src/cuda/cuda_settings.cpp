#include "cuda_settings.h"

#include <algorithm>
#include <cstdlib>
#include <initializer_list>
#include <stdexcept>
#include <string>

namespace render::gpu::settings {

namespace {

// A kernel shape chosen for tuning runs: `requested` when not 0, else the
// environment variable `env` (exactly one of the allowed numbers), else
// `fallback`; one of `allowed`, else std::invalid_argument naming `what` (and
// the variable, when the value came from it).
int kernel_shape(int requested, const char* env, int fallback, std::initializer_list<int> allowed,
                 const char* what) {
  std::string list;
  for (const int a : allowed) list += (list.empty() ? "" : ", ") + std::to_string(a);
  if (requested == 0) {
    const char* value = std::getenv(env);
    if (!value || !*value) return fallback;
    for (const int a : allowed)
      if (std::to_string(a) == value) return a;
    throw std::invalid_argument(std::string(env) + "='" + value + "': " + what +
                                " must be one of " + list);
  }
  if (std::find(allowed.begin(), allowed.end(), requested) == allowed.end())
    throw std::invalid_argument(std::string(what) + " must be one of " + list + ", not " +
                                std::to_string(requested));
  return requested;
}

} // namespace

// Binned mode's pixels per thread; RENDER_CUDA_ROWS overrides it.
int binned_rows(int requested) {
  return kernel_shape(requested, "RENDER_CUDA_ROWS", 2, {1, 2, 4}, "binned rows per thread");
}

// Tiled mode's blocks per SM; RENDER_CUDA_TILED_BLOCKS overrides it. 8 (32
// registers) had the lowest median on pattern, the scene with many batches
// that tiled mode is chosen for (docs/cuda_renderer.md).
int tiled_blocks(int requested) {
  return kernel_shape(requested, "RENDER_CUDA_TILED_BLOCKS", 8, {4, 6, 8}, "tiled blocks per SM");
}

namespace {

// Suffix compositing by default in tiles of at least 256 pairs of which at
// least 25% cover the whole tile (and at least 48 do: the window needs
// them): the thresholds that sped up every dense scene on the H200 and
// slowed none (docs/cuda_renderer.md, section 6, has the measurements;
// lower thresholds cost rand10k time).
// RENDER_CUDA_SUFFIX_MIN_PAIRS and RENDER_CUDA_SUFFIX_MIN_FULL (a number, or
// "off") change them for measurements.
constexpr char kSuffixVariable[] = "RENDER_CUDA_SUFFIX_MIN_PAIRS";
constexpr std::uint32_t kDefaultSuffixPairs = 256;
constexpr std::uint32_t kDefaultSuffixFullPercent = 25;

// A setting from its option (`requested` from 1 to `max`), else from
// `variable` (the same, or "off" for 0), else `fallback`; negative
// `requested`: 0.
std::uint32_t suffix_setting(int requested, const char* variable, std::uint32_t max,
                             std::uint32_t fallback, const char* what) {
  if (requested < 0) return 0;
  if (requested > 0) {
    if (static_cast<std::uint32_t>(requested) > max)
      throw std::invalid_argument(std::string(what) + ", not " + std::to_string(requested));
    return static_cast<std::uint32_t>(requested);
  }
  const char* value = std::getenv(variable);
  if (!value || !*value) return fallback;
  const std::string text = value;
  if (text == "off") return 0;
  constexpr std::size_t kMaxDigits = 9; // below 2^30, the most pairs a pass holds
  if (text.size() <= kMaxDigits && text.find_first_not_of("0123456789") == std::string::npos) {
    const auto number = static_cast<std::uint32_t>(std::stoul(text));
    if (number > 0 && number <= max) return number;
  }
  throw std::invalid_argument(std::string(variable) + "='" + text + "': " + what + " or 'off'");
}

} // namespace

// The suffix threshold in pairs, 0 for off.
std::uint32_t suffix_min_pairs(int requested) {
  return suffix_setting(requested, kSuffixVariable, ~0u, kDefaultSuffixPairs,
                        "the suffix threshold must be a positive number of pairs");
}

// Whether frames replay as CUDA graphs: the option, unless the
// RENDER_CUDA_GRAPHS environment variable says "off" (for measurements);
// any other value is an error.
bool graphs_wanted(bool requested) {
  const char* value = std::getenv("RENDER_CUDA_GRAPHS");
  if (!value || !*value || std::string(value) == "on") return requested;
  if (std::string(value) == "off") return false;
  throw std::invalid_argument(std::string("RENDER_CUDA_GRAPHS='") + value +
                              "': frame graphs must be 'on' or 'off'");
}

// The share of whole-tile pairs a tile needs to try the suffix, in percent
// (0: any share).
std::uint32_t suffix_min_full(int requested) {
  return suffix_setting(requested, "RENDER_CUDA_SUFFIX_MIN_FULL", 100, kDefaultSuffixFullPercent,
                        "the share of whole-tile pairs must be a percentage from 1 to 100");
}

} // namespace render::gpu::settings
