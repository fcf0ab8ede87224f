// The renderer factory: the renderer kinds as -r names them, the choice
// that auto makes, and a new renderer of a kind. It knows every renderer;
// the interface (render/renderer.h) knows none of them.
#pragma once

#include <memory>
#include <string>

#include "render/renderer.h"

namespace render {

// Student: the student slot, render/student/student_renderer.cu.
enum class RendererKind { CpuRef, Cpu, Cuda, Auto, Student };

// "cpuref", "cpu", "cuda", "auto", "student".
const char* renderer_kind_name(RendererKind kind);

// Inverse of renderer_kind_name, also taking the course's "ref" for cpuref;
// throws std::invalid_argument naming the valid choices.
RendererKind parse_renderer_kind(const std::string& text);

// Which renderer a request resolves to, and why, in words for the user:
// auto is cuda when a CUDA device answers, else cpu ("no CUDA device available:
// ...", common::no_device_message()); in a handout, which has no parallel CPU
// renderer, cpuref (the reason says so).
struct RendererChoice {
  RendererKind kind;
  std::string reason;
};
RendererChoice choose_renderer(RendererKind requested);

// A new renderer of the given kind (auto resolved by choose_renderer), the
// CUDA one in auto mode (render/cuda_mode.h takes others). For
// cuda, throws std::runtime_error when no device answers.
std::unique_ptr<Renderer> make_renderer(RendererKind kind);

// The parallel CPU renderer (render/src/cpu/cpu_renderer.cpp); in a handout it
// throws std::runtime_error saying it is not part of it.
std::unique_ptr<Renderer> make_cpu_renderer();

} // namespace render
