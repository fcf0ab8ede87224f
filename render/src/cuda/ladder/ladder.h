// The renderer's design ladder: the designs a learner goes through on the
// way to the tuned modes, one small kernel file each (docs/ladder.md):
//   circles.cu  one thread per circle, blending straight into the image
//               (wrong on purpose)
//   pixels.cu   one thread per pixel, walking every circle
//   tiles.cu    one block per 16x16 tile, batches of circles tested
//               against the tile, every thread walking the whole batch
//   classic.cu  the same, the batch's hits compacted by a shared-memory
//               scan first: the design the course asks for
// Each draws every circle of `scene` over the image in `pixels` (already
// cleared by the renderer), with the shading rule of render/shade.h, and
// returns once its kernel is queued on `stream`. Plain C++.
#pragma once

#include <cuda_runtime_api.h>

#include "kernels.h"

namespace render::gpu::ladder {

void draw_circles(const SceneArrays& scene, const FrameGeometry& frame, bool snow, float4* pixels,
                  cudaStream_t stream);
void draw_pixels(const SceneArrays& scene, const FrameGeometry& frame, bool snow, float4* pixels,
                 cudaStream_t stream);
void draw_tiles(const SceneArrays& scene, const FrameGeometry& frame, bool snow, float4* pixels,
                cudaStream_t stream);
void draw_classic(const SceneArrays& scene, const FrameGeometry& frame, bool snow, float4* pixels,
                  cudaStream_t stream);

} // namespace render::gpu::ladder
