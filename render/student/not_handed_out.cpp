// Stands in for the suite's CUDA and parallel CPU renderers in a handout
// (cmake/Handout.cmake): `-r cuda` there is the student's renderer
// (student_renderer.cu), as the course's `render -r cuda` runs the student's
// code; --cuda-mode chooses among renderers the handout does not hold.
#include <stdexcept>

#include "render/cuda_mode.h"
#include "render/renderer_factory.h"
#include "student_renderer.h"

namespace render {

const char* cuda_mode_name(CudaMode) {
  return "student";
}

std::string cuda_mode_names() {
  return "none in the handout";
}

CudaMode parse_cuda_mode(const std::string&) {
  throw std::invalid_argument("--cuda-mode chooses among the suite's CUDA renderers, which are "
                              "not part of the handout");
}

std::unique_ptr<Renderer> make_cuda_renderer(CudaMode) {
  return make_student_renderer();
}

std::string describe_cuda_mode(const Renderer&) {
  return "";
}

std::unique_ptr<Renderer> make_cpu_renderer() {
  throw std::runtime_error("the parallel CPU renderer is not part of the handout: -r cpuref is "
                           "the serial reference, -r cuda your renderer");
}

} // namespace render
