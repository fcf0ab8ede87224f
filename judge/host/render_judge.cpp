#include "judge/render_judge.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <optional>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include "common/timer.h"
#include "judge/channel.h"
#include "judge/contract.h"
#include "judge/render_share.h"
#include "judge/seeds.h"
#include "judge/session.h"
#include "render/banded_ref_renderer.h"
#include "render/image.h"
#include "render/image_io.h"
#include "render_run.h"

namespace judge {

namespace {

// Where the empty renderer's seeds start in the row's stream: past any
// frame count the judge takes.
constexpr unsigned long long kEmptyStreamOffset = 1ull << 20;
// Where a row judged again on loaded frames draws its variants: past the
// first attempt's and the empty renderer's, so no frame of the first
// attempt comes again.
constexpr unsigned long long kRetryStreamOffset = 1ull << 21;
// The empty renderer's frames, at least: enough that its median is one
// that no single slow frame sets.
constexpr int kEmptyFrames = 5;
// Snow shading calls expf, which the GPU rounds differently (render's
// check.h says the same); every other scene must match exactly.
constexpr float kSnowTolerance = 1e-4f;

// The reference image of one frame: the serial reference, its rows split
// among the cores (the same bits: render_tests checks it).
render::Image reference_frame(const scenes::Scene& scene, int size) {
  render::BandedRefRenderer renderer;
  renderer.setup(scene, size, size);
  renderer.clear();
  renderer.advance();
  renderer.render();
  return renderer.image();
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

} // namespace

scenes::Scene scene_variant(const std::string& name, std::uint32_t seed, std::uint64_t draw) {
  scenes::Scene scene = scenes::load_scene(name, seed);
  std::mt19937_64 rng(draw);
  std::uniform_real_distribution<float> factor(0.5f, 1.0f);
  // The geometry moves too (the course's generator fixes rgb's and
  // pattern's): the whole scene by up to 2% of the image, each circle by up
  // to 0.2% more, each radius by up to 3%. The work stays the scene's.
  std::uniform_real_distribution<float> shift(-0.02f, 0.02f), jitter(-0.002f, 0.002f),
      grow(0.97f, 1.03f);
  const float dx = shift(rng), dy = shift(rng);
  for (std::size_t i = 0; i < scene.size(); ++i) {
    scene.r[i] *= factor(rng);
    scene.g[i] *= factor(rng);
    scene.b[i] *= factor(rng);
    scene.x[i] += dx + jitter(rng);
    scene.y[i] += dy + jitter(rng);
    scene.radius[i] *= grow(rng);
  }
  return scene;
}

namespace {

// Each frame's variant and its decoy: `seeds` gives both, fresh.
struct Variants {
  scenes::Scene decoy, scene;
  std::string fingerprint;
};

Variants next_variants(const std::string& scene_name, const RenderJudgeOptions& options,
                       std::mt19937_64& seeds) {
  Variants v;
  const auto decoy_seed = static_cast<std::uint32_t>(seeds() % 4294967295u + 1);
  v.decoy = scene_variant(scene_name, decoy_seed, seeds());
  const auto seed = static_cast<std::uint32_t>(seeds() % 4294967295u + 1);
  const std::uint64_t draw = seeds();
  v.scene = scene_variant(scene_name, seed, draw);
  v.fingerprint = fingerprint(options.secret, seed, draw);
  return v;
}

// A scene of `like`'s size and kind whose every value is drawn afresh: what
// a placement's setup() sees. Nothing setup() computes from it (a binning,
// a culling) holds for the scene's frames, whose geometry the course's
// generator fixes on rgb and pattern.
scenes::Scene random_like(const scenes::Scene& like, std::uint64_t draw) {
  scenes::Scene s = like;
  std::mt19937_64 rng(draw);
  std::uniform_real_distribution<float> unit(0.f, 1.f), speed(-0.01f, 0.01f), radius(0.001f, 0.05f);
  for (std::size_t i = 0; i < s.size(); ++i) {
    s.x[i] = unit(rng);
    s.y[i] = unit(rng);
    s.z[i] = unit(rng);
    s.vx[i] = speed(rng);
    s.vy[i] = speed(rng);
    s.vz[i] = speed(rng);
    s.r[i] = unit(rng);
    s.g[i] = unit(rng);
    s.b[i] = unit(rng);
    s.radius[i] = radius(rng);
  }
  return s;
}

float tolerance_for(const scenes::Scene& scene, const RenderJudgeOptions& options) {
  return scene.snow && options.memory == MemoryKind::kDevice ? kSnowTolerance : 0.f;
}

// Whether a warm-up tries placed frames, and whether it checks the placed
// frame it draws (the empty renderer's draws nothing: trusted).
enum class Placing { kNo, kChecked, kTrusted };

// An untimed frame on decoys first, for the empty renderer and the worker
// alike: what a first frame pays once (pages of the shared memory mapped,
// caches filled) is then in no timed frame nor allowance. On the GPU it
// places the frames when it can: setup() copied each scene array, and
// image() read the image, where the judge can reach them, and the frame it
// then draws on the scene the judge placed is that scene's. Otherwise the
// frames are loaded, `note` says why, and one more frame warms that up.
// Returns why the worker failed, or nothing.
std::string warm_up(RenderRun& run, const std::string& scene_name,
                    const RenderJudgeOptions& options, std::mt19937_64& seeds, render::Image& image,
                    Placing placing, std::string* note = nullptr) {
  if (placing != Placing::kNo && options.memory == MemoryKind::kDevice) {
    const Variants v = next_variants(scene_name, options, seeds);
    Frame f;
    std::string why = run.place(random_like(v.decoy, seeds()), f);
    if (!f.reason.empty()) return f.reason;
    if (why.empty()) {
      f = run.frame("the warm-up frame", v.decoy, v.scene, image);
      if (!f.reason.empty()) return f.reason;
      if (placing == Placing::kTrusted) return {};
      const render::ImageComparison c = render::compare_images(
          image, reference_frame(v.scene, options.size), tolerance_for(v.scene, options));
      if (c.sizes_match && c.mismatches == 0) return {};
      run.unplace();
      why = "the placed warm-up frame differs from the scene the judge placed (" +
            std::to_string(c.mismatches) + " pixels)";
    }
    if (note) *note = why;
  }
  const Variants v = next_variants(scene_name, options, seeds);
  return run.frame("the warm-up frame", v.decoy, v.scene, image).reason;
}

// The costs file's first line: how the frames reached the worker.
std::string protocol_line(bool placed, const std::string& loaded_because) {
  if (placed) return "# frames placed: the judge wrote each scene where setup() kept the decoy's\n";
  if (loaded_because.empty()) return "# frames loaded\n";
  return "# frames loaded: " + loaded_because + "\n";
}

const char* const kCostsHeader =
    "# frame\tsetup_ms\tload_ms\tframe_ms\tread_back_ms\tuntimed_ms\tallowance_ms\t"
    "probe_charged_ms\tcharged_ms\n";

// The judge's empty renderer, beside the worker: its frames interleaved
// with the worker's, so a machine that grows busier or quieter moves the
// allowance as it moves the worker's spans. Each one holds still while the
// other is timed. The allowance is the median of its load and read-back
// spans (ms), set against the median of the worker's (judge_render), so one
// slow frame on either side moves neither. Its failures are the judge's
// own.
class EmptyRenderer {
public:
  // Started, ready and held still before the worker starts, so that
  // nothing the worker takes (GPU memory above all) keeps it from starting.
  EmptyRenderer(const std::string& scene_name, std::size_t circles,
                const RenderJudgeOptions& options, const SandboxPlan& plan, std::mt19937_64& seeds)
      : scene_name_(scene_name), options_(options), seeds_(seeds),
        run_(options.empty_worker, scene_name, circles, "empty-render", options, plan),
        costs_(options.log_dir + "/judge-render-" + scene_name + ".empty.tsv"),
        image_(options.size, options.size) {
    std::string why = run_.session().wait_ready(options.start_timeout_s);
    if (why.empty()) why = run_.session().pause(kPauseSeconds);
    fail_if(why);
  }

  // Its warm-up, its frames placed as the worker's are (`placed`) or loaded;
  // the worker held still meanwhile.
  void warm(bool placed) {
    fail_if(run_.session().resume());
    std::string note;
    std::string why = warm_up(run_, scene_name_, options_, seeds_, image_,
                              placed ? Placing::kTrusted : Placing::kNo, &note);
    if (why.empty() && placed && !run_.placed()) why = "its frames could not be placed: " + note;
    if (why.empty()) why = run_.session().pause(kPauseSeconds);
    costs_ << std::fixed << std::setprecision(4) << protocol_line(run_.placed(), "")
           << kCostsHeader;
    fail_if(why);
  }

  // Its frame `number`, the worker held still meanwhile.
  void frame(int number) {
    fail_if(run_.session().resume());
    const Variants v = next_variants(scene_name_, options_, seeds_);
    const Frame f = run_.frame("empty frame " + std::to_string(number), v.decoy, v.scene, image_);
    fail_if(f.reason);
    spans_.push_back(f.untimed_ms);
    costs_ << number << '\t' << f.setup_ms << '\t' << f.load_ms << '\t' << f.frame_ms << '\t'
           << f.read_back_ms << '\t' << f.untimed_ms << "\t-\t" << f.probe_charged_ms << "\t-\n";
    fail_if(run_.session().pause(kPauseSeconds));
  }

  double allowance_ms() const { return median_of(spans_); }
  ~EmptyRenderer() { run_.session().quit(); }

private:
  void fail_if(const std::string& why) {
    if (!why.empty())
      throw std::runtime_error("the judge's empty renderer " + options_.empty_worker +
                               " failed on " + scene_name_ + ": " + why);
  }

  std::string scene_name_;
  const RenderJudgeOptions& options_;
  std::mt19937_64& seeds_;
  RenderRun run_;
  std::ofstream costs_;
  render::Image image_;
  std::vector<double> spans_;
};

} // namespace

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

} // namespace

RenderRow judge_render(const std::string& scene_name, const RenderJudgeOptions& options,
                       const SandboxPlan& plan) {
  return judge_render_pair(scene_name, options, "", plan).graded;
}

namespace {

// judge_render_pair with placed frames allowed, or, given why not
// (`loaded_because`), loaded. `retry` is set when a placed timed frame
// differs: the row is then judged again on loaded frames (a renderer that
// keeps more of the decoy than the judge places is not wrong on loaded
// ones).
RenderPair judge_render_pair_once(const std::string& scene_name, const RenderJudgeOptions& options,
                                  const std::string& reference_worker, const SandboxPlan& plan,
                                  const std::string* loaded_because, bool* retry) {
  const bool allow_placed = loaded_because == nullptr;
  RenderPair pair;
  RenderRow& row = pair.graded;
  RenderRow& ref_row = pair.reference;
  row.scene = ref_row.scene = scene_name;
  std::mt19937_64 seeds = input_seeds(options.secret, options.seed);
  if (!allow_placed) seeds.discard(kRetryStreamOffset);
  const std::size_t circles = scenes::load_scene(scene_name, 1).size();
  // A stream of its own for the empty renderer, so the worker's variants
  // are the same whether it runs or not (a trusted reference's run, a
  // graded worker's): a draw far down the worker's stream.
  std::mt19937_64 empty_seeds = seeds;
  empty_seeds.discard(kEmptyStreamOffset);
  std::optional<EmptyRenderer> empty;
  if (options.charge_untimed) empty.emplace(scene_name, circles, options, plan, empty_seeds);
  const Placing placing = allow_placed ? Placing::kChecked : Placing::kNo;

  render::Image actual(options.size, options.size);
  // The reference beside the worker (trusted: its frame alone is timed, as
  // the course times it): ready, warmed up on the worker's own warm-up
  // variant and held, before the worker starts; then each timed frame's
  // variant is drawn by both.
  std::optional<RenderRun> ref;
  if (!reference_worker.empty()) {
    ref.emplace(reference_worker, scene_name, circles, "reference-render", options, plan);
    ref_row.reason = ref->session().wait_ready(options.start_timeout_s);
    if (!ref_row.reason.empty()) return pair;
    ref_row.empty_ms = ref->session().empty_round_trip(5, options.call_timeout_s);
    std::mt19937_64 warm = seeds;
    ref_row.reason = warm_up(*ref, scene_name, options, warm, actual, placing);
    if (ref_row.reason.empty()) ref_row.reason = ref->session().pause(kPauseSeconds);
    if (!ref_row.reason.empty()) return pair;
  }

  RenderRun run(options.worker, scene_name, circles, "worker-render", options, plan);
  pair.graded_started = true;
  row.reason = run.session().wait_ready(options.start_timeout_s);
  if (!row.reason.empty()) return pair;
  row.empty_ms = run.session().empty_round_trip(5, options.call_timeout_s);

  row.reason = warm_up(run, scene_name, options, seeds, actual, placing, &row.loaded_because);
  if (loaded_because) row.loaded_because = *loaded_because;
  if (!row.reason.empty()) return pair;
  row.placed = run.placed();
  // The empty renderer's frames reach it as the worker's do: its fixed
  // cost is that of the worker's protocol.
  if (empty) {
    // Held still meanwhile, as for every frame of the empty renderer's.
    row.reason = run.session().pause(kPauseSeconds);
    if (!row.reason.empty()) return pair;
    empty->warm(row.placed);
    row.reason = run.session().resume();
    if (!row.reason.empty()) return pair;
  }
  // Each call's cost and the allowance, per frame: why a frame was charged.
  std::ofstream costs(options.log_dir + "/judge-render-" + scene_name + ".tsv");
  // Which variant each frame drew, as a fingerprint: a regrade with the
  // same seed and secret shows the same lines.
  std::ofstream variants(options.log_dir + "/judge-render-" + scene_name + ".variants");
  costs << std::fixed << std::setprecision(4) << protocol_line(row.placed, row.loaded_because)
        << kCostsHeader;
  std::vector<Frame> frames;
  const int empty_frames = empty ? std::max(kEmptyFrames, options.runs) : 0;
  // With a reference, frames are repeated until the score settles.
  const int limit = ref ? std::max(options.runs, contract::kMaxRuns) : options.runs;
  const ScoreRule& rule = *part_rule("render");
  // GPU work the worker left to run beside the empty renderer or the
  // reference: charged to its next frame.
  double left_running_ms = 0;
  // Holds the worker still (its GPU work probed for) while another is timed.
  const auto hold_worker = [&]() -> bool {
    row.reason = run.session().pause(kPauseSeconds);
    if (!row.reason.empty()) return false;
    const LateWork late =
        probe_late_work(options.memory, options.switch_ms, "the worker's last call", 0);
    row.reason = late.reason;
    left_running_ms += late.charged_ms;
    return row.reason.empty();
  };
  for (int frame = 1; frame <= std::max(limit, empty_frames); ++frame) {
    // The judge's time is up: the graded row ends, the reference's stands.
    if (seconds_left(options) <= 0) {
      row.reason = time_limit_reason(true);
      return pair;
    }
    if (frame <= empty_frames) {
      // Nothing of the worker runs while the empty renderer is timed, so
      // nothing it starts can swell the allowance.
      if (!hold_worker()) return pair;
      empty->frame(frame);
      row.reason = run.session().resume();
      if (!row.reason.empty()) return pair;
    }
    if (frame > limit) continue;
    const Variants v = next_variants(scene_name, options, seeds);
    variants << v.fingerprint << std::endl;
    const render::Image expected = reference_frame(v.scene, options.size);
    const float tolerance = tolerance_for(v.scene, options);
    const std::string name = "timed frame " + std::to_string(frame);
    // The reference's frame, the worker held still: first on odd frames,
    // after the worker's on even ones.
    const auto reference_frame_of = [&]() -> bool {
      if (!hold_worker()) return false;
      ref_row.reason = ref->session().resume();
      if (!ref_row.reason.empty()) return false;
      const Frame f = ref->frame(name, v.decoy, v.scene, actual);
      ref_row.reason = f.reason;
      if (ref_row.reason.empty()) {
        const render::ImageComparison c = render::compare_images(actual, expected, tolerance);
        if ((!c.sizes_match || c.mismatches > 0) && ref->placed() && allow_placed) {
          *retry = true; // the pair again, both on loaded frames
          row.loaded_because = "the reference's placed " + name + " differs";
          return false;
        }
        if (!c.sizes_match || c.mismatches > 0) ref_row.reason = describe_mismatch(frame, c);
      }
      if (!ref_row.reason.empty()) return false;
      ref_row.times_ms.push_back(f.frame_ms);
      ref_row.reason = ref->session().pause(kPauseSeconds);
      if (!ref_row.reason.empty()) return false;
      row.reason = run.session().resume();
      return row.reason.empty();
    };
    if (ref && frame % 2 == 1 && !reference_frame_of()) return pair;
    Frame f = run.frame(name, v.decoy, v.scene, actual);
    if (!f.reason.empty()) {
      row.reason = f.reason;
      return pair;
    }
    f.probe_charged_ms += std::exchange(left_running_ms, 0);
    const render::ImageComparison c = render::compare_images(actual, expected, tolerance);
    if ((!c.sizes_match || c.mismatches > 0) && row.placed && allow_placed) {
      *retry = true;
      row.loaded_because = "placed " + name + " differs from the scene the judge placed";
      return pair;
    }
    if (!c.sizes_match || c.mismatches > 0) {
      row.reason = describe_mismatch(frame, c) +
                   pictures(actual, expected, tolerance, options.log_dir,
                            "judge-render-" + scene_name + "-frame" + std::to_string(frame));
      run.session().quit();
      return pair;
    }
    frames.push_back(f);
    if (ref && frame % 2 == 0 && !reference_frame_of()) return pair;
    // With a reference: repeated until the score no longer rests on which
    // frames were fastest (and the empty renderer has its frames).
    if (ref && frame >= std::max(options.runs, empty_frames)) {
      const std::vector<double> times =
          charged_times(frames, options.charge_untimed, empty ? empty->allowance_ms() : 0);
      const RowScores s = row_scores(rule, best_of(ref_row.times_ms), median_of(ref_row.times_ms),
                                     best_of(times), median_of(times));
      pair.stable = std::abs(s.low - s.score) <= rule.steady_within &&
                    std::abs(s.high - s.score) <= rule.steady_within;
      if (pair.stable) break;
    }
  }
  if (empty) row.allowance_ms = empty->allowance_ms();
  std::vector<double> charges;
  row.times_ms = charged_times(frames, options.charge_untimed, row.allowance_ms, &charges);
  for (std::size_t i = 0; i < frames.size(); ++i) {
    const Frame& f = frames[i];
    costs << i + 1 << '\t' << f.setup_ms << '\t' << f.load_ms << '\t' << f.frame_ms << '\t'
          << f.read_back_ms << '\t' << f.untimed_ms << '\t';
    if (options.charge_untimed)
      costs << row.allowance_ms;
    else
      costs << '-'; // --trusted-untimed
    costs << '\t' << f.probe_charged_ms << '\t' << charges[i] << std::endl;
    row.charged_ms = std::max(row.charged_ms, charges[i]);
  }
  row.reason = run.session().quit();
  row.correct = row.reason.empty();
  if (ref) {
    ref_row.reason = ref->session().quit();
    ref_row.correct = ref_row.reason.empty() && !ref_row.times_ms.empty();
  }
  return pair;
}

} // namespace

RenderPair judge_render_pair(const std::string& scene_name, const RenderJudgeOptions& options,
                             const std::string& reference_worker, const SandboxPlan& plan) {
  if (seconds_left(options) <= 0) {
    RenderPair none;
    none.graded.scene = none.reference.scene = scene_name;
    none.graded.reason = time_limit_reason(false);
    return none;
  }
  bool retry = false;
  RenderPair pair =
      judge_render_pair_once(scene_name, options, reference_worker, plan, nullptr, &retry);
  if (retry)
    pair = judge_render_pair_once(scene_name, options, reference_worker, plan,
                                  &pair.graded.loaded_because, &retry);
  // A reference that failed once the graded worker was beside it draws
  // again alone (trusted, as beside it): passing then, its failure was the
  // graded worker's doing, and the graded row is rejected for it; failing
  // alone too, it is the grader's (the part is not graded).
  RenderJudgeOptions alone = options;
  alone.worker = reference_worker;
  alone.charge_untimed = false;
  if (pair.graded_started && !reference_worker.empty() && pair.reference.reason.empty() &&
      pair.reference.times_ms.empty() && !pair.graded.reason.empty() && seconds_left(options) > 0) {
    // The graded worker failed before the reference's first timed frame:
    // the reference draws alone, so that the scene keeps its row.
    pair.reference = judge_render(scene_name, alone, plan);
  } else if (pair.graded_started && !reference_worker.empty() && !pair.reference.reason.empty() &&
             pair.graded.reason.empty() && seconds_left(options) > 0) {
    const RenderRow again = judge_render(scene_name, alone, plan);
    if (again.correct) {
      pair.graded.correct = false;
      pair.graded.reason =
          "made the reference fail beside it (" + pair.reference.reason + "; alone, it passed)";
      pair.reference = again;
    }
  }
  return pair;
}

} // namespace judge
