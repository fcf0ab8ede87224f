#include "gpu_advance.h"

#include <array>
#include <vector>

#include "common/cuda_check.h"
#include "common/device_buffer.h"
#include "scenes/animation.h"

namespace scenes_test {

namespace {

// The library's own dispatch, one thread per circle, as the renderer runs it.
__global__ void step_kernel(scenes::Animation animation, int n, scenes::CircleArrays c) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) scenes::advance_circle(animation, i, c);
}

} // namespace

void advance_on_gpu(scenes::Scene& scene, int frames) {
  scenes::validate_scene(scene);
  const std::size_t n = scene.size();
  if (n == 0) return;
  std::array<std::vector<float>*, 7> host = {&scene.x,  &scene.y,  &scene.z,     &scene.vx,
                                             &scene.vy, &scene.vz, &scene.radius};
  std::vector<common::DeviceBuffer<float>> device;
  for (std::vector<float>* array : host) {
    device.emplace_back(n, "scene array");
    device.back().copy_from_host(array->data(), n);
  }
  const scenes::CircleArrays circles{device[0].data(), device[1].data(), device[2].data(),
                                     device[3].data(), device[4].data(), device[5].data(),
                                     device[6].data()};
  constexpr int kBlock = 256;
  const int blocks = static_cast<int>((n + kBlock - 1) / kBlock);
  for (int frame = 0; frame < frames; ++frame) {
    step_kernel<<<blocks, kBlock>>>(scene.animation, static_cast<int>(n), circles);
    CUDA_CHECK_LAUNCH();
  }
  CUDA_CHECK(cudaDeviceSynchronize());
  for (std::size_t k = 0; k < host.size(); ++k) device[k].copy_to_host(host[k]->data(), n);
}

} // namespace scenes_test
