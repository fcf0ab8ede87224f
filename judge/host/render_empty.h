// The render judge's empty renderer (judge/worker/render_empty_slot.cpp),
// run beside the graded worker: its load and read-back spans set the
// allowance a worker's spans are measured against (docs/design/judge.md,
// "The renderer's judge"). Internal to the judge.
#pragma once

#include <cstddef>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "judge/render_judge.h"
#include "render/image.h"
#include "render_run.h"

namespace judge {

// The empty renderer's frames, at least: enough that its median is one
// that no single slow frame sets.
constexpr int kEmptyFrames = 5;

// The judge's empty renderer, beside the worker: its frames interleaved
// with the worker's, so a machine that grows busier or quieter moves the
// allowance as it moves the worker's spans. Each one holds still while the
// other is timed. The allowance is the median of its load and read-back
// spans (ms), set against the median of the worker's, so one slow frame on
// either side moves neither. Its failures are the judge's own: they throw.
class EmptyRenderer {
public:
  // Started, ready and held still before the worker starts, so that
  // nothing the worker takes (GPU memory above all) keeps it from starting.
  EmptyRenderer(const std::string& scene_name, std::size_t circles,
                const RenderJudgeOptions& options, const SandboxPlan& plan, std::mt19937_64& seeds);
  ~EmptyRenderer();
  EmptyRenderer(const EmptyRenderer&) = delete;
  EmptyRenderer& operator=(const EmptyRenderer&) = delete;

  // Its warm-up, its frames placed as the worker's are (`placed`) or loaded;
  // the worker held still meanwhile.
  void warm(bool placed);

  // Its frame `number`, the worker held still meanwhile.
  void frame(int number);

  double allowance_ms() const;

private:
  void fail_if(const std::string& why);

  std::string scene_name_;
  const RenderJudgeOptions& options_;
  std::mt19937_64& seeds_;
  RenderRun run_;
  std::ofstream costs_;
  render::Image image_;
  std::vector<double> spans_;
};

} // namespace judge
