// One scene's pair under the render judge: the empty renderer, the
// reference and the graded worker, step by step (render_pair.cpp). Internal
// to the judge; judge_render_pair (render_judge.cpp) runs it, again on
// loaded frames where placed ones failed, and protects the reference.
#pragma once

#include <string>

#include "judge/render_judge.h"

namespace judge {

// The pair with placed frames allowed, or, given why not
// (`loaded_because`), loaded. `retry` is set when a placed timed frame
// differs: the row is then judged again on loaded frames (a renderer that
// keeps more of the decoy than the judge places is not wrong on loaded
// ones).
RenderPair judge_render_pair_once(const std::string& scene_name, const RenderJudgeOptions& options,
                                  const std::string& reference_worker, const SandboxPlan& plan,
                                  const std::string* loaded_because, bool* retry);

} // namespace judge
