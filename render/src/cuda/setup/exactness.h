// What setup proves of a scene, so the CUDA renderer may take an exact
// shortcut: where the fused blend gives the reference's bits, and the color
// bounds of suffix compositing. Plain C++ (docs/design/cuda_renderer.md,
// "Exactness", has the arguments in full).
#pragma once

#include "kernels.h"
#include "scenes/scene.h"

namespace render::gpu {

// Where the fused blend (Shading::FlatFused) gives the reference's bits for
// every pixel of a scene: nowhere, in every frame, or in frames that start
// from the clear color.
enum class FusedBlend { Never, Always, AfterClear };

FusedBlend fused_blend_scope(const scenes::Scene& scene);

// Suffix compositing's color bounds into `plan`, when it applies to the
// scene: flat, with colors that never change and are all safe
// (render/suffix.h). false, `plan` untouched, when it does not.
bool suffix_bounds(const scenes::Scene& scene, SuffixPlan& plan);

} // namespace render::gpu
