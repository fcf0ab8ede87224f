// The judge's probe of the GPU: an empty kernel on its own context (see
// probe_device_ms in shared_array.h).
#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "common/cuda_check.h"
#include "common/device_buffer.h"
#include "common/timer.h"
#include "judge/shared_array.h"

namespace judge {

namespace {
__global__ void empty_kernel() {}
} // namespace

double device_setup_ms(std::size_t scene_bytes, std::size_t image_bytes) {
  std::vector<unsigned char> host(scene_bytes, 1);
  double best = 0;
  for (int i = 0; i < 3; ++i) {
    common::Stopwatch clock;
    {
      common::DeviceBuffer<unsigned char> scene(scene_bytes, "judge's setup probe: scene");
      common::DeviceBuffer<unsigned char> image(image_bytes, "judge's setup probe: image");
      CUDA_CHECK(cudaMemcpy(scene.data(), host.data(), scene_bytes, cudaMemcpyHostToDevice));
      CUDA_CHECK(cudaDeviceSynchronize());
    }
    const double ms = clock.elapsed_ms();
    best = i == 0 ? ms : std::min(best, ms);
  }
  return best;
}

double device_read_back_ms(std::size_t image_bytes) {
  common::DeviceBuffer<unsigned char> image(image_bytes, "judge's read-back probe");
  CUDA_CHECK(cudaMemset(image.data(), 0, image_bytes));
  std::vector<unsigned char> host(image_bytes);
  double best = 0;
  for (int i = 0; i < 3; ++i) {
    common::Stopwatch clock;
    CUDA_CHECK(cudaMemcpy(host.data(), image.data(), image_bytes, cudaMemcpyDeviceToHost));
    const double ms = clock.elapsed_ms();
    best = i == 0 ? ms : std::min(best, ms);
  }
  return best;
}

double probe_device_ms() {
  common::Stopwatch clock;
  empty_kernel<<<1, 1>>>();
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaDeviceSynchronize());
  return clock.elapsed_ms();
}

} // namespace judge
