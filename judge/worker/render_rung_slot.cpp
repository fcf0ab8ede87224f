// The renderer slot done by one of the suite's CUDA modes (RENDER_RUNG, a
// name render --cuda-mode takes), so the judge can time our rungs, the
// course-design reference (classic) among them, exactly as it times a
// student's renderer.
#include <memory>

#include "render/cuda_renderer.h"
#include "student_renderer.h"

#ifndef RENDER_RUNG
#error "RENDER_RUNG names the CUDA mode (CMake sets it)"
#endif

namespace render {

std::unique_ptr<Renderer> make_student_renderer() {
  CudaRendererOptions options;
  options.mode = parse_cuda_mode(RENDER_RUNG);
  options.warm_up = false; // the judge would charge the frame drawn at setup
  // Auto times its trials in the decoy's setup, untimed, and the timed
  // load keeps that choice: the trials are not the frame's work.
  options.reuse_auto_choice = true;
  // Each timed frame follows a new setup, so a graph would be recorded in
  // the frame and never replayed: plain launches cost less there.
  options.use_graphs = false;
  return make_cuda_renderer(options);
}

} // namespace render
