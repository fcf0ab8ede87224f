#include "setup/mode_choice.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <mutex>
#include <tuple>

#include "common/timer.h"
#include "tuning.h"

namespace render::gpu {

namespace {

// Auto does not time tiled mode when every tile would test more circles than
// this in total; frames timed per mode (tuning.h).
constexpr double kMaxTiledTrialTests = tuning::kMaxTiledTrialTests;
constexpr int kAutoTrials = tuning::kAutoTrials;

std::string format_ms(double ms) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f ms", ms);
  return text;
}

// The mode and its tuning, e.g. "binned, 2 pixel rows per thread, suffix
// from 256 pairs per tile with 25% whole-tile" (", sorted pairs" when the
// binning is forced to the sort).
std::string mode_label(CudaMode m, const settings::Settings& s, bool suffix) {
  const bool tuned = m == CudaMode::Tiled || m == CudaMode::Binned;
  const std::string launches = tuned && !s.graphs ? ", plain launches" : "";
  if (m == CudaMode::Binned)
    return "binned, " + std::to_string(s.rows_per_thread) + " pixel rows per thread" +
           (suffix
                ? ", suffix from " + std::to_string(s.suffix_min_pairs) + " pairs per tile" +
                      (s.suffix_min_full_percent
                           ? " with " + std::to_string(s.suffix_min_full_percent) + "% whole-tile"
                           : "")
                : "") +
           (s.binning == settings::kDefaultBinning ? ""
            : s.binning == CudaBinning::Sort       ? ", sorted pairs"
                                                   : ", counted pairs") +
           launches;
  return cuda_mode_name(m) + launches;
}

// A frame drawn from the clear color.
void draw(TrialFrames& frames, CudaMode m) {
  frames.clear();
  frames.render(m);
}

// Best wall time of a frame's render in mode m, after one warm-up frame.
double time_render(TrialFrames& frames, CudaMode m) {
  draw(frames, m);
  double best = 0;
  for (int trial = 0; trial < kAutoTrials; ++trial) {
    frames.clear();
    const common::Stopwatch watch;
    frames.render(m);
    const double ms = watch.elapsed_ms();
    best = trial == 0 ? ms : std::min(best, ms);
  }
  return best;
}

// Auto's choices so far in this process, by the scene's shape
// (reuse_auto_choice).
class RememberedChoices {
public:
  bool find(const TrialShape& shape, ModeChoice& choice) {
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto it = choices_.find(key(shape));
    if (it == choices_.end()) return false;
    choice = it->second;
    return true;
  }
  void keep(const TrialShape& shape, const ModeChoice& choice) {
    const std::lock_guard<std::mutex> lock(mutex_);
    choices_[key(shape)] = choice;
  }

private:
  using Key = std::tuple<int, int, bool>;
  static Key key(const TrialShape& s) { return {s.tile_count, s.circle_count, s.snow}; }
  std::mutex mutex_;
  std::map<Key, ModeChoice> choices_;
};

RememberedChoices& remembered() {
  static RememberedChoices choices;
  return choices;
}

} // namespace

ModeChoice choose_mode(const settings::Settings& settings, const TrialShape& shape,
                       TrialFrames& frames) {
  const bool suffix = shape.suffix;
  const int tile_count = shape.tile_count, circle_count = shape.circle_count;
  ModeChoice choice;
  if (settings.mode == CudaMode::Auto && settings.reuse_auto_choice &&
      remembered().find(shape, choice)) {
    choice.description = mode_label(choice.mode, settings, shape.suffix) +
                         " (auto: kept from an earlier setup of the same shape)";
    if (settings.warm_up) draw(frames, choice.mode);
    return choice;
  }
  if (settings.mode != CudaMode::Auto) {
    choice.mode = settings.mode;
    choice.description = mode_label(choice.mode, settings, suffix) + " (requested)";
    if (!settings.warm_up) return choice;
    draw(frames, choice.mode);
  } else if (static_cast<double>(tile_count) * circle_count > kMaxTiledTrialTests) {
    choice.mode = CudaMode::Binned;
    draw(frames, choice.mode);
    choice.description = mode_label(choice.mode, settings, suffix) + " (auto: tiled not timed, " +
                         std::to_string(tile_count) + " tiles x " + std::to_string(circle_count) +
                         " circles)";
  } else {
    const double tiled_ms = time_render(frames, CudaMode::Tiled);
    const double binned_ms = time_render(frames, CudaMode::Binned);
    choice.mode = binned_ms < tiled_ms ? CudaMode::Binned : CudaMode::Tiled;
    choice.description = mode_label(choice.mode, settings, suffix) + " (auto: tiled " +
                         format_ms(tiled_ms) + ", binned " + format_ms(binned_ms) + " per render)";
  }
  if (settings.mode == CudaMode::Auto) remembered().keep(shape, choice);
  // One more frame in the chosen mode, so the first timed frame finds its
  // graph recorded.
  draw(frames, choice.mode);
  return choice;
}

} // namespace render::gpu
