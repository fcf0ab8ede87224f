// The CUDA renderer's modes as the program names them (--cuda-mode), and a
// CUDA renderer of a mode, as a Renderer. render/cuda_renderer.h has the
// renderer itself and its options; a handout holds only this header.
//
// Plain C++: programs and tests include this without nvcc.
#pragma once

#include <memory>
#include <string>

#include "render/renderer.h"

namespace render {

// In a handout none of the modes is there (make_handout.sh cuts them):
// -r cuda runs the student's renderer, and Auto stands for it.
// suite-only
// The first four are the design ladder, small kernels a learner reads in
// one sitting: circles is wrong on purpose (order and atomicity). The next
// two are the tuned designs; auto picks one of them at setup.
// The rungs are named as rungs (RungTiles is not Tiled).
// /suite-only
enum class CudaMode {
  // suite-only
  RungCircles,
  RungPixels,
  RungTiles,
  RungClassic,
  Tiled,
  Binned,
  // /suite-only
  Auto
};

// The mode's name, as --cuda-mode takes it.
// "circles", "pixels", "tiles", "classic", "tiled", "binned", "auto". // suite-only
const char* cuda_mode_name(CudaMode mode);

// Inverse of cuda_mode_name; throws std::invalid_argument naming the choices.
CudaMode parse_cuda_mode(const std::string& text);

// Every mode, in ladder order, for messages.
// "circles, pixels, tiles, classic, tiled, binned, auto". // suite-only
std::string cuda_mode_names();

// A CUDA renderer in `mode`, as the programs make it: its tuning at the
// defaults, or taken from the environment for measurements (the variables
// are in render/cuda_renderer.h). Throws std::invalid_argument naming a
// variable with a bad value, and std::runtime_error naming the reason when
// no CUDA device answers.
std::unique_ptr<Renderer> make_cuda_renderer(CudaMode mode);

// For a CUDA renderer after setup, one line on its mode and why; empty for
// any other renderer.
// For example "binned (auto: ...)". // suite-only
std::string describe_cuda_mode(const Renderer& renderer);

} // namespace render
