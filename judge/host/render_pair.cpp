#include "render_pair.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <optional>
#include <random>
#include <utility>
#include <vector>

#include "judge/contract.h"
#include "judge/seeds.h"
#include "judge/session.h"
#include "render/image.h"
#include "render/image_io.h"
#include "render_empty.h"
#include "render_frames.h"
#include "render_run.h"

namespace judge {

namespace {

// Each kept frame's time with what is charged to it (`charges`, when given,
// gets the charge alone). Work moved into the load or the read-back is in
// every frame's span: the median of the spans beyond the allowance is
// charged to each frame, so one slow span of the empty renderer's does not
// count; and a frame is charged at least its own span beyond the
// allowance, so a frame whose work was moved out of it alone (into its
// load) is no best frame.
std::vector<double> charged_times(const std::vector<Frame>& frames, bool charge_untimed,
                                  double allowance_ms, std::vector<double>* charges = nullptr) {
  std::vector<double> spans;
  for (const Frame& f : frames) spans.push_back(f.untimed_ms);
  const double moved = charge_untimed ? std::max(0.0, median_of(spans) - allowance_ms) : 0;
  std::vector<double> times;
  for (const Frame& f : frames) {
    const double own = std::max(moved, f.untimed_ms - allowance_ms);
    const double charged = charge_untimed ? own + f.probe_charged_ms : 0;
    times.push_back(f.frame_ms + charged);
    if (charges) charges->push_back(charged);
  }
  return times;
}

std::string describe_mismatch(int frame, const render::ImageComparison& c) {
  if (!c.sizes_match)
    return "image of timed frame " + std::to_string(frame) + " has the wrong size";
  return "image of timed frame " + std::to_string(frame) +
         " differs from the reference at pixel [" + std::to_string(c.first_x) + "][" +
         std::to_string(c.first_y) + "] (" + std::to_string(c.mismatches) + " pixels differ)";
}

// The pictures of a wrong frame in the log folder, for the student to see
// where it differs: the note naming them, or nothing if they could not be
// written (the verdict stands either way).
std::string pictures(const render::Image& actual, const render::Image& expected, float tolerance,
                     const std::string& log_dir, const std::string& name) {
  try {
    const std::vector<std::string> paths =
        render::write_mismatch_pictures(actual, expected, tolerance, log_dir + "/" + name);
    return " (pictures: " + name + "_yours.png, _reference.png" +
           (paths.size() > 2 ? ", _difference.png" : "") + " in the worker's log folder)";
  } catch (const std::exception&) {
    return "";
  }
}

bool differs(const render::ImageComparison& c) {
  return !c.sizes_match || c.mismatches > 0;
}

// One timed frame as both workers draw it: its variant and the reference's
// image of it.
struct TimedFrame {
  int number;
  std::string name;
  Variants variants;
  render::Image expected;
  float tolerance;
};

// The protocol of docs/design/judge.md ("The renderer's judge"), one step
// per method: the empty renderer, then the reference, then the graded
// worker start and warm up (each later one starting with the earlier held
// still); then each timed frame is the empty renderer's, the reference's
// (first on odd frames, after the worker's on even ones) and the worker's,
// each drawn with the others held still, until the score settles; then the
// costs. A step that fails sets its row's reason and returns false.
class PairJudging {
public:
  PairJudging(const std::string& scene_name, const RenderJudgeOptions& options,
              const std::string& reference_worker, const SandboxPlan& plan,
              const std::string* loaded_because, bool* retry)
      : scene_name_(scene_name), options_(options), reference_worker_(reference_worker),
        plan_(plan), loaded_because_(loaded_because), retry_(retry),
        allow_placed_(loaded_because == nullptr),
        placing_(allow_placed_ ? Placing::kChecked : Placing::kNo),
        seeds_(input_seeds(options.secret, options.seed)),
        circles_(scenes::load_scene(scene_name, 1).size()), actual_(options.size, options.size),
        rule_(*part_rule("render")) {
    pair_.graded.scene = pair_.reference.scene = scene_name;
    if (!allow_placed_) seeds_.discard(kRetryStreamOffset);
  }

  RenderPair judge() {
    start_empty();
    if (!start_reference() || !start_worker() || !warm_empty()) return pair_;
    open_logs();
    // With a reference, frames are repeated until the score settles.
    const int limit = ref_ ? std::max(options_.runs, contract::kMaxRuns) : options_.runs;
    const int empty_frames = empty_ ? std::max(kEmptyFrames, options_.runs) : 0;
    for (int number = 1; number <= std::max(limit, empty_frames); ++number) {
      // The judge's time is up: the graded row ends, the reference's stands.
      if (seconds_left(options_) <= 0) {
        graded().reason = time_limit_reason(true);
        return pair_;
      }
      if (number <= empty_frames && !time_empty(number)) return pair_;
      if (number > limit) continue;
      const TimedFrame frame = next_frame(number);
      if (ref_ && number % 2 == 1 && !time_reference(frame)) return pair_;
      if (!time_worker(frame)) return pair_;
      if (ref_ && number % 2 == 0 && !time_reference(frame)) return pair_;
      if (ref_ && number >= std::max(options_.runs, empty_frames) && settled()) break;
    }
    finish();
    return pair_;
  }

private:
  RenderRow& graded() { return pair_.graded; }
  RenderRow& reference() { return pair_.reference; }

  // A stream of its own for the empty renderer, so the worker's variants
  // are the same whether it runs or not (a trusted reference's run, a
  // graded worker's): a draw far down the worker's stream.
  void start_empty() {
    if (!options_.charge_untimed) return;
    empty_seeds_ = seeds_;
    empty_seeds_.discard(kEmptyStreamOffset);
    empty_.emplace(scene_name_, circles_, options_, plan_, empty_seeds_);
  }

  // The reference beside the worker (trusted: its frame alone is timed, as
  // the course times it): ready, warmed up on the worker's own warm-up
  // variant and held, before the worker starts.
  bool start_reference() {
    if (reference_worker_.empty()) return true;
    ref_.emplace(reference_worker_, scene_name_, circles_, "reference-render", options_, plan_);
    RenderRow& row = reference();
    row.reason = ref_->session().wait_ready(options_.start_timeout_s);
    if (!row.reason.empty()) return false;
    row.empty_ms = ref_->session().empty_round_trip(5, options_.call_timeout_s);
    std::mt19937_64 warm = seeds_;
    row.reason = warm_up(*ref_, scene_name_, options_, warm, actual_, placing_);
    if (row.reason.empty()) row.reason = ref_->session().pause(kPauseSeconds);
    return row.reason.empty();
  }

  // The graded worker started and warmed up: placed from here when it can
  // be (and placing is allowed), else loaded, saying why.
  bool start_worker() {
    run_.emplace(options_.worker, scene_name_, circles_, "worker-render", options_, plan_);
    pair_.graded_started = true;
    RenderRow& row = graded();
    row.reason = run_->session().wait_ready(options_.start_timeout_s);
    if (!row.reason.empty()) return false;
    row.empty_ms = run_->session().empty_round_trip(5, options_.call_timeout_s);
    row.reason =
        warm_up(*run_, scene_name_, options_, seeds_, actual_, placing_, &row.loaded_because);
    if (loaded_because_) row.loaded_because = *loaded_because_;
    if (!row.reason.empty()) return false;
    row.placed = run_->placed();
    return true;
  }

  // The empty renderer's frames reach it as the worker's do (its fixed
  // cost is that of the worker's protocol); the worker held still
  // meanwhile, as for every frame of the empty renderer's.
  bool warm_empty() {
    if (!empty_) return true;
    if (!pause_worker()) return false;
    empty_->warm(graded().placed);
    return resume_worker();
  }

  void open_logs() {
    // Each call's cost and the allowance, per frame: why a frame was charged.
    costs_.open(options_.log_dir + "/judge-render-" + scene_name_ + ".tsv");
    // Which variant each frame drew, as a fingerprint: a regrade with the
    // same seed and secret shows the same lines.
    variants_.open(options_.log_dir + "/judge-render-" + scene_name_ + ".variants");
    costs_ << std::fixed << std::setprecision(4)
           << protocol_line(graded().placed, graded().loaded_because) << kCostsHeader;
  }

  bool pause_worker() {
    graded().reason = run_->session().pause(kPauseSeconds);
    return graded().reason.empty();
  }

  bool resume_worker() {
    graded().reason = run_->session().resume();
    return graded().reason.empty();
  }

  // Holds the worker still and probes its GPU work while another is timed:
  // work it left running is charged to its next frame.
  bool hold_worker() {
    if (!pause_worker()) return false;
    const LateWork late =
        probe_late_work(options_.memory, options_.switch_ms, "the worker's last call", 0);
    graded().reason = late.reason;
    left_running_ms_ += late.charged_ms;
    return graded().reason.empty();
  }

  // Nothing of the worker runs while the empty renderer is timed, so
  // nothing it starts can swell the allowance.
  bool time_empty(int number) {
    if (!hold_worker()) return false;
    empty_->frame(number);
    return resume_worker();
  }

  TimedFrame next_frame(int number) {
    Variants v = next_variants(scene_name_, options_, seeds_);
    variants_ << v.fingerprint << std::endl;
    render::Image expected = reference_frame(v.scene, options_.size);
    const float tolerance = tolerance_for(v.scene, options_);
    return {number, "timed frame " + std::to_string(number), std::move(v), std::move(expected),
            tolerance};
  }

  // The reference's frame, the worker held still. A placed one that
  // differs sends the pair to loaded frames.
  bool time_reference(const TimedFrame& t) {
    if (!hold_worker()) return false;
    RenderRow& row = reference();
    row.reason = ref_->session().resume();
    if (!row.reason.empty()) return false;
    const Frame f = ref_->frame(t.name, t.variants.decoy, t.variants.scene, actual_);
    row.reason = f.reason;
    if (row.reason.empty()) {
      const render::ImageComparison c = render::compare_images(actual_, t.expected, t.tolerance);
      if (differs(c) && ref_->placed() && allow_placed_) {
        *retry_ = true; // the pair again, both on loaded frames
        graded().loaded_because = "the reference's placed " + t.name + " differs";
        return false;
      }
      if (differs(c)) row.reason = describe_mismatch(t.number, c);
    }
    if (!row.reason.empty()) return false;
    row.times_ms.push_back(f.frame_ms);
    row.reason = ref_->session().pause(kPauseSeconds);
    if (!row.reason.empty()) return false;
    return resume_worker();
  }

  // The worker's frame, checked against the reference's image; what it
  // left running beside the others is charged to it.
  bool time_worker(const TimedFrame& t) {
    RenderRow& row = graded();
    Frame f = run_->frame(t.name, t.variants.decoy, t.variants.scene, actual_);
    if (!f.reason.empty()) {
      row.reason = f.reason;
      return false;
    }
    f.probe_charged_ms += std::exchange(left_running_ms_, 0);
    const render::ImageComparison c = render::compare_images(actual_, t.expected, t.tolerance);
    if (differs(c) && row.placed && allow_placed_) {
      *retry_ = true;
      row.loaded_because = "placed " + t.name + " differs from the scene the judge placed";
      return false;
    }
    if (differs(c)) {
      row.reason = describe_mismatch(t.number, c) +
                   pictures(actual_, t.expected, t.tolerance, options_.log_dir,
                            "judge-render-" + scene_name_ + "-frame" + std::to_string(t.number));
      run_->session().quit();
      return false;
    }
    frames_.push_back(f);
    return true;
  }

  // Whether the score no longer rests on which frames were fastest.
  bool settled() {
    const std::vector<double> times =
        charged_times(frames_, options_.charge_untimed, empty_ ? empty_->allowance_ms() : 0);
    const RowScores s =
        row_scores(rule_, best_of(reference().times_ms), median_of(reference().times_ms),
                   best_of(times), median_of(times));
    pair_.stable = std::abs(s.low - s.score) <= rule_.steady_within &&
                   std::abs(s.high - s.score) <= rule_.steady_within;
    return pair_.stable;
  }

  // The frames' charged times and the costs file; both workers end.
  void finish() {
    RenderRow& row = graded();
    if (empty_) row.allowance_ms = empty_->allowance_ms();
    std::vector<double> charges;
    row.times_ms = charged_times(frames_, options_.charge_untimed, row.allowance_ms, &charges);
    for (std::size_t i = 0; i < frames_.size(); ++i) {
      const Frame& f = frames_[i];
      costs_ << i + 1 << '\t' << f.setup_ms << '\t' << f.load_ms << '\t' << f.frame_ms << '\t'
             << f.read_back_ms << '\t' << f.untimed_ms << '\t';
      if (options_.charge_untimed)
        costs_ << row.allowance_ms;
      else
        costs_ << '-'; // --trusted-untimed
      costs_ << '\t' << f.probe_charged_ms << '\t' << charges[i] << std::endl;
      row.charged_ms = std::max(row.charged_ms, charges[i]);
    }
    row.reason = run_->session().quit();
    row.correct = row.reason.empty();
    if (ref_) {
      reference().reason = ref_->session().quit();
      reference().correct = reference().reason.empty() && !reference().times_ms.empty();
    }
  }

  const std::string& scene_name_;
  const RenderJudgeOptions& options_;
  const std::string& reference_worker_;
  const SandboxPlan& plan_;
  const std::string* loaded_because_;
  bool* retry_;
  const bool allow_placed_;
  const Placing placing_;
  std::mt19937_64 seeds_, empty_seeds_;
  const std::size_t circles_;
  render::Image actual_;
  const ScoreRule& rule_;
  RenderPair pair_;
  // Ended in the reverse order: the worker first, the empty renderer last.
  std::optional<EmptyRenderer> empty_;
  std::optional<RenderRun> ref_, run_;
  std::ofstream costs_, variants_;
  std::vector<Frame> frames_;
  // GPU work the worker left to run beside the empty renderer or the
  // reference: charged to its next frame.
  double left_running_ms_ = 0;
};

} // namespace

RenderPair judge_render_pair_once(const std::string& scene_name, const RenderJudgeOptions& options,
                                  const std::string& reference_worker, const SandboxPlan& plan,
                                  const std::string* loaded_because, bool* retry) {
  return PairJudging(scene_name, options, reference_worker, plan, loaded_because, retry).judge();
}

} // namespace judge
