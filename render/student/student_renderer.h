// The student slot of the renderer (student_renderer.cu). Plain C++.
#pragma once

#include <memory>

#include "render/renderer.h"

namespace render {

// The student's CUDA renderer, as `render -r student` (in a handout, `-r
// cuda`) runs it. Throws std::runtime_error naming the reason when no CUDA
// device answers.
std::unique_ptr<Renderer> make_student_renderer();

} // namespace render
