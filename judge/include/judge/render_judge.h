// The trusted judge of a renderer. Per timed frame it shares a new variant
// of the scene (a fresh seed, and every circle's color scaled by a fresh
// random factor: the same work, a different image), asks the worker to set
// it up, to draw one frame (clear, advance, render: the course's timed
// frame) and to read the image back into memory the judge owns, then checks
// that image against its own reference renderer. Work hidden in the untimed
// calls (setup, read-back) or left running on the GPU is added to the
// frame's time beyond what such a call costs the judge itself.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "judge/sandbox.h"
#include "judge/shared_array.h"
#include "scenes/scene.h"

namespace judge {

struct RenderJudgeOptions {
  std::string worker;                      // absolute path of the worker program
  MemoryKind memory = MemoryKind::kDevice; // device: the worker uses the GPU
  std::string log_dir;                     // the worker's output: LOG_DIR/worker-render-SCENE.log
  int runs = 3;                            // timed frames, each a new variant, each checked
  int size = 1024;                         // image side
  double call_timeout_s = 10;
  double start_timeout_s = 60;
  std::uint64_t seed = 0; // 0: drawn from the system's entropy
  std::string secret;     // the grader's (seeds.h); with `seed`, the variants
  double switch_ms = 0;   // as ScanJudgeOptions::switch_ms
  // An honest worker's setup and read-back (ms), e.g. the reference's: the
  // untimed calls' allowance is at least what these would get.
  double honest_setup_ms = 0, honest_read_back_ms = 0;
  // false: setup and read-back are never charged (a trusted reference,
  // whose frame time is what the course times).
  bool charge_untimed = true;
  SandboxOptions sandbox;
};

struct RenderRow {
  std::string scene;
  bool correct = false;
  std::vector<double> times_ms; // each timed frame, with what was charged to it
  double charged_ms = 0;        // the most added to one frame
  double empty_ms = 0;          // the fastest round trip of an empty request
  std::string reason;           // why it is not correct; empty when it is
};

// What an untimed call may cost before the excess is charged: `floor_ms`
// (the judge's own cost of that transfer) times a margin, plus a constant.
double untimed_allowance_ms(double floor_ms);

// The scene variant of timed frame `draw`: `name` from seed `seed`, its
// colors scaled by factors in [0.5, 1] drawn from `draw`.
scenes::Scene scene_variant(const std::string& name, std::uint32_t seed, std::uint64_t draw);

// One worker, one scene. Failures of the worker are the row's reason;
// failures of the judge itself (no GPU, no memory, an unknown scene) throw.
RenderRow judge_render(const std::string& scene, const RenderJudgeOptions& options,
                       const SandboxPlan& plan);

} // namespace judge
