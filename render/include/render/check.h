// The correctness check's rules and messages: how close a renderer's image
// must be to the reference, and how a failure is reported.
#pragma once

#include <ostream>

#include "render/image.h"
#include "render/renderer_factory.h"
#include "scenes/scene.h"

namespace render {

// Snow shading calls expf, which the GPU computes slightly differently from
// the host; every other scene, and every CPU renderer, must match exactly.
constexpr float kSnowTolerance = 1e-4f;

// The per-channel tolerance for the scene drawn by that renderer:
// kSnowTolerance for the CUDA renderer on snow scenes, else 0.
float check_tolerance(const scenes::Scene& scene, RendererKind renderer);

// The course's mismatch line for the first differing pixel,
//   "Mismatch detected at pixel [x][y], value = V, expected E"
// (the first differing channel), then both pixels, the mismatch count and
// the largest error. Prints the size difference instead when sizes differ.
void print_mismatch(const ImageComparison& comparison, int frame, float tolerance,
                    std::ostream& out);

} // namespace render
