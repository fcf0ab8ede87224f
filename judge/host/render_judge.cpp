#include "judge/render_judge.h"

#include <string>

#include "judge/judge_options.h"
#include "render_pair.h"

namespace judge {

RenderRow judge_render(const std::string& scene_name, const RenderJudgeOptions& options,
                       const SandboxPlan& plan) {
  return judge_render_pair(scene_name, options, "", plan).graded;
}

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
