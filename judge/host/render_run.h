// One worker under the render judge's protocol (render_judge.cpp): the
// scene and image it shares with the judge, its device arena on the GPU, its
// session, and one frame of it, loaded or placed (docs/design/judge.md,
// "Placed frames"). Internal to the judge.
#pragma once

#include <cstddef>
#include <string>

#include "judge/render_judge.h"
#include "judge/render_placement.h"
#include "judge/session.h"
#include "judge/shared_array.h"
#include "render/image.h"
#include "scenes/scene.h"

namespace judge {

// One frame of the protocol as the judge saw it. `reason` is set when the
// worker failed it; the image is in `actual` otherwise. A placed frame has
// no setup; its load is the worker's copy of the scene to where the
// renderer keeps it.
struct Frame {
  std::string reason;
  double setup_ms = 0, load_ms = 0, frame_ms = 0, read_back_ms = 0;
  double untimed_ms = 0;       // the clock's whole span less the frame: load, read-back, probe
  double probe_charged_ms = 0; // after the decoy's setup and after the read-back
};

// A worker under the render protocol: the shared scene and image, and its
// session.
class RenderRun {
public:
  RenderRun(const std::string& worker, const std::string& scene_name, std::size_t circles,
            const std::string& log_name, const RenderJudgeOptions& options,
            const SandboxPlan& plan);

  Session& session() { return session_; }
  bool placed() const { return placed_; }

  // From here, placed frames: a decoy set up in a new renderer, and where it
  // keeps the scene and the image. Empty when its frames can be placed, else
  // why not; `f.reason` is set when the worker failed.
  std::string place(const scenes::Scene& decoy, Frame& f);

  // Back to loaded frames.
  void unplace() { placed_ = false; }

  // `scene` drawn and read back into `actual`: loaded (the decoy's setup,
  // then `scene` loaded into a new renderer) or placed (no setup; the worker
  // loads `scene` by copying it to where the placement's renderer keeps it,
  // and reads the image back from where that renderer keeps it).
  Frame frame(const std::string& name, const scenes::Scene& decoy, const scenes::Scene& scene,
              render::Image& actual);

private:
  Frame& rejected(Frame& f, const std::string& reason);
  Answer call(Command command, const std::string& what, double seconds, Frame& f);
  // The probe after an answer outside the clock's span: false (and the
  // frame rejected) when GPU work was left running, else its charge added.
  bool probe(Frame& f, const std::string& what, double call_ms);

  const RenderJudgeOptions& options_;
  std::size_t circles_, image_size_;
  SharedMemory scene_memory_, image_memory_;
  SharedArray arena_; // none for a renderer on the host
  Session session_;
  bool placed_ = false;
  Placement placement_;
};

} // namespace judge
