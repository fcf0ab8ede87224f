#include "common/bandwidth.h"

#include <vector>

#include "common/cuda_check.h"
#include "common/device_buffer.h"
#include "common/timer.h"

namespace common {

namespace {
// Times `reps` copies of `bytes` with events; returns the median in ms.
double median_copy_ms(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind,
                      int reps) {
  CudaEventTimer timer;
  CUDA_CHECK(cudaMemcpy(dst, src, bytes, kind)); // warm-up
  std::vector<double> ms;
  for (int i = 0; i < reps; ++i) {
    timer.start();
    CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, kind, nullptr));
    timer.stop();
    ms.push_back(timer.elapsed_ms());
  }
  return summarize(ms).median;
}

double gbs(double bytes, double ms) {
  return ms > 0 ? bytes / (ms * 1e-3) / 1e9 : 0.0;
}
} // namespace

double measure_d2d_gbs(std::size_t bytes, int reps) {
  DeviceBuffer<unsigned char> src(bytes, "memcpy source"), dst(bytes, "memcpy destination");
  CUDA_CHECK(cudaMemset(src.data(), 1, bytes));
  const double ms = median_copy_ms(dst.data(), src.data(), bytes, cudaMemcpyDeviceToDevice, reps);
  return gbs(2.0 * static_cast<double>(bytes), ms);
}

double measure_h2d_pinned_gbs(std::size_t bytes, int reps) {
  PinnedBuffer<unsigned char> host(bytes, "pinned host buffer");
  DeviceBuffer<unsigned char> dev(bytes, "device buffer");
  for (std::size_t i = 0; i < bytes; i += 4096) host[i] = 1;
  return gbs(static_cast<double>(bytes),
             median_copy_ms(dev.data(), host.data(), bytes, cudaMemcpyHostToDevice, reps));
}

} // namespace common
