#include "render_empty.h"

#include <iomanip>
#include <stdexcept>

#include "judge/session.h"
#include "render_frames.h"

namespace judge {

EmptyRenderer::EmptyRenderer(const std::string& scene_name, std::size_t circles,
                             const RenderJudgeOptions& options, const SandboxPlan& plan,
                             std::mt19937_64& seeds)
    : scene_name_(scene_name), options_(options), seeds_(seeds),
      run_(options.empty_worker, scene_name, circles, "empty-render", options, plan),
      costs_(options.log_dir + "/judge-render-" + scene_name + ".empty.tsv"),
      image_(options.size, options.size) {
  std::string why = run_.session().wait_ready(options.start_timeout_s);
  if (why.empty()) why = run_.session().pause(kPauseSeconds);
  fail_if(why);
}

EmptyRenderer::~EmptyRenderer() {
  run_.session().quit();
}

void EmptyRenderer::warm(bool placed) {
  fail_if(run_.session().resume());
  std::string note;
  std::string why = warm_up(run_, scene_name_, options_, seeds_, image_,
                            placed ? Placing::kTrusted : Placing::kNo, &note);
  if (why.empty() && placed && !run_.placed()) why = "its frames could not be placed: " + note;
  if (why.empty()) why = run_.session().pause(kPauseSeconds);
  costs_ << std::fixed << std::setprecision(4) << protocol_line(run_.placed(), "") << kCostsHeader;
  fail_if(why);
}

void EmptyRenderer::frame(int number) {
  fail_if(run_.session().resume());
  const Variants v = next_variants(scene_name_, options_, seeds_);
  const Frame f = run_.frame("empty frame " + std::to_string(number), v.decoy, v.scene, image_);
  fail_if(f.reason);
  spans_.push_back(f.untimed_ms);
  costs_ << number << '\t' << f.setup_ms << '\t' << f.load_ms << '\t' << f.frame_ms << '\t'
         << f.read_back_ms << '\t' << f.untimed_ms << "\t-\t" << f.probe_charged_ms << "\t-\n";
  fail_if(run_.session().pause(kPauseSeconds));
}

double EmptyRenderer::allowance_ms() const {
  return median_of(spans_);
}

void EmptyRenderer::fail_if(const std::string& why) {
  if (!why.empty())
    throw std::runtime_error("the judge's empty renderer " + options_.empty_worker + " failed on " +
                             scene_name_ + ": " + why);
}

} // namespace judge
