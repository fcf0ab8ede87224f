#include "render/renderer_factory.h"

#include <stdexcept>

#include "common/device.h"
#include "common/enum_names.h"
#include "render/cuda_mode.h"
#include "render/ref_renderer.h"
#include "student_renderer.h"

namespace render {

namespace {

constexpr common::NamedValue<RendererKind> kKindNames[] = {{RendererKind::CpuRef, "cpuref"},
                                                           {RendererKind::Cpu, "cpu"},
                                                           {RendererKind::Cuda, "cuda"},
                                                           {RendererKind::Auto, "auto"},
                                                           {RendererKind::Student, "student"}};

} // namespace

const char* renderer_kind_name(RendererKind kind) {
  return common::enum_name(kKindNames, kind, "unknown");
}

RendererKind parse_renderer_kind(const std::string& text) {
  if (const auto kind = common::enum_from_name(kKindNames, text)) return *kind;
  // "ref": the name the course's help text gives its serial renderer.
  if (text == "ref") return RendererKind::CpuRef;
  throw std::invalid_argument("unknown renderer '" + text +
                              "' (valid renderers: cpuref or ref, cpu, cuda, auto, student)");
}

RendererChoice choose_renderer(RendererKind requested) {
  if (requested != RendererKind::Auto) return {requested, "requested"};
  const std::string no_device = common::no_device_message();
#ifdef SUITE_HANDOUT
  if (!no_device.empty())
    return {RendererKind::CpuRef, no_device + "; the serial reference renderer draws instead"};
#else
  if (!no_device.empty()) return {RendererKind::Cpu, no_device};
#endif
  return {RendererKind::Cuda, "CUDA device found"};
}

std::unique_ptr<Renderer> make_renderer(RendererKind kind) {
  switch (choose_renderer(kind).kind) {
  case RendererKind::CpuRef:
    return std::make_unique<RefRenderer>();
  case RendererKind::Cpu:
    return make_cpu_renderer();
  case RendererKind::Cuda: // its constructor says when no device answers
    return make_cuda_renderer(CudaMode::Auto);
  case RendererKind::Student:
    return make_student_renderer();
  case RendererKind::Auto:
    break;
  }
  throw std::logic_error("make_renderer: unresolved renderer kind");
}

} // namespace render
