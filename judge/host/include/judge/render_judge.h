// The trusted judge of a renderer. Per timed frame it shares a decoy
// variant of the scene and asks the worker to set it up (untimed: the
// worker allocates, and nothing it computes is of use), then starts its
// clock, shares the frame's own variant (a fresh seed, the colors scaled,
// the circles moved and resized: the scene's work, a different image) and
// asks the worker to load it into a new renderer, to draw one frame (clear,
// advance, render: the course's timed frame) and to read the image back
// into memory the judge owns; then it checks that image against its own
// reference renderer. Everything the worker does once it can see the
// frame's variant is on the clock: the load and the read-back are charged
// beyond what the judge's empty renderer (render_empty_slot.cpp) takes for
// them in the same run, its frames interleaved with the worker's and each
// held still while the other is timed, and GPU work left running is charged
// too.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "judge/judge_options.h"
#include "judge/sandbox.h"
#include "judge/shared_array.h"
#include "scenes/scene.h"

namespace judge {

struct RenderJudgeOptions : JudgeOptions {
  int size = contract::kSize; // image side
  // The judge's empty renderer for this memory kind (absolute path): its
  // load and read-back, timed between the worker's frames, are the allowance.
  std::string empty_worker;
  // false: nothing beyond the frame is charged, load, read-back and GPU
  // work seen after an answer alike (a trusted reference, whose frame time
  // is what the course times), and no empty renderer runs.
  bool charge_untimed = true;
};

struct RenderRow {
  std::string scene;
  bool correct = false;
  std::vector<double> times_ms; // each timed frame, with what was charged to it
  double charged_ms = 0;        // the most added to one frame
  double empty_ms = 0;          // the fastest round trip of an empty request
  double allowance_ms = 0;      // the empty renderer's load and read-back (median)
  bool placed = false;          // the judge wrote each frame's scene into the renderer's memory
  std::string loaded_because;   // why the frames were loaded instead, when known
  std::string reason;           // why it is not correct; empty when it is
};

// The scene variant of timed frame `draw`: `name` from seed `seed`, its
// colors scaled by factors in [0.5, 1] drawn from `draw`, the scene and
// each circle moved and each radius scaled by amounts drawn from it.
scenes::Scene scene_variant(const std::string& name, std::uint32_t seed, std::uint64_t draw);

// One worker, one scene. Failures of the worker are the row's reason;
// failures of the judge itself (no GPU, no memory, an unknown scene, its
// empty renderer failing) throw.
RenderRow judge_render(const std::string& scene, const RenderJudgeOptions& options,
                       const SandboxPlan& plan);

// The graded worker and a reference (`reference_worker`; trusted: only its
// frame is timed, as the course times it) in one run: the reference ready
// and held before the worker starts, each timed frame's variant drawn by
// both, the reference first on odd frames, each held still while the
// other (or the empty renderer) is timed. At least `runs` frames (and the
// empty renderer's), then more, up to the contract's kMaxRuns, until the
// row's score is the same at the medians' times as at the best ones. An
// empty `reference_worker`: judge_render.
struct RenderPair {
  RenderRow reference, graded;
  bool stable = false;
  bool graded_started = false; // the graded worker ran beside the reference
};
RenderPair judge_render_pair(const std::string& scene, const RenderJudgeOptions& options,
                             const std::string& reference_worker, const SandboxPlan& plan);

} // namespace judge
