// Stands in for the suite's CUDA and parallel CPU renderers in a handout
// (cmake/Handout.cmake):
// `-r cuda` there is the student's renderer (student_renderer.cu), as the
// course's `render -r cuda` runs the student's code.
#include <stdexcept>

#include "render/cuda_renderer.h"
#include "render/renderer_factory.h"
#include "student_renderer.h"

namespace render {

namespace {

[[noreturn]] void not_handed_out() {
  throw std::runtime_error("the suite's CUDA renderer is not part of the handout: -r cuda runs "
                           "yours (render/student/student_renderer.cu); render_ref is the "
                           "reference to compare with");
}

} // namespace

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

std::unique_ptr<Renderer> make_cpu_renderer() {
  throw std::runtime_error("the parallel CPU renderer is not part of the handout: -r cpuref is "
                           "the serial reference, -r cuda your renderer");
}

std::unique_ptr<Renderer> make_cuda_renderer(const CudaRendererOptions&) {
  return make_student_renderer();
}

// The class stays defined so that code asking whether a renderer is one
// links; none is ever made.
struct CudaRenderer::State {};
CudaRenderer::CudaRenderer(const CudaRendererOptions&) {
  not_handed_out();
}
CudaRenderer::~CudaRenderer() = default;
void CudaRenderer::setup(const scenes::Scene&, int, int) {
  not_handed_out();
}
void CudaRenderer::clear() {
  not_handed_out();
}
void CudaRenderer::advance() {
  not_handed_out();
}
void CudaRenderer::render() {
  not_handed_out();
}
const Image& CudaRenderer::image() {
  not_handed_out();
}
CudaMode CudaRenderer::mode() const {
  not_handed_out();
}
std::string CudaRenderer::describe() const {
  not_handed_out();
}
CudaSuffixTiles CudaRenderer::suffix_tiles() const {
  not_handed_out();
}

} // namespace render
