// Runs the animation steps of animation.h on the GPU, for the test that the
// device produces the host's bits. Plain C++ interface; the kernel is in
// gpu_advance.cu.
#pragma once

#include "scenes/scene.h"

namespace scenes_test {

// Advances `scene` by `frames` frames on device 0, one launch per frame with
// one thread per circle, and copies the result back into `scene`.
void advance_on_gpu(scenes::Scene& scene, int frames);

} // namespace scenes_test
