// Whole trips from host arrays to a host result: the timed part of cudaSaxpy.
#include <algorithm>
#include <stdexcept>
#include <vector>

#include "common/cuda_check.h"
#include "common/device_buffer.h"
#include "common/stream.h"
#include "common/timer.h"
#include "saxpy/saxpy.h"

namespace saxpy {

namespace {

struct DeviceArrays {
  explicit DeviceArrays(std::size_t n) : x(n, "x"), y(n, "y"), result(n, "result") {}
  common::DeviceBuffer<float> x, y, result;
};

using Launcher = void (*)(std::size_t, float, const float*, const float*, float*, cudaStream_t);

// The kernel alone, on data already on the device: the median of several
// launches, each timed with events after one untimed launch, the way the
// memcpy rate it is compared with is measured (common/bandwidth.h).
constexpr int kKernelTimings = 7;

double time_kernel(Launcher launch, std::size_t n, float a, DeviceArrays& d) {
  common::CudaEventTimer timer;
  launch(n, a, d.x.data(), d.y.data(), d.result.data(), nullptr);
  std::vector<double> ms;
  for (int i = 0; i < kKernelTimings; ++i) {
    timer.start();
    launch(n, a, d.x.data(), d.y.data(), d.result.data(), nullptr);
    timer.stop();
    ms.push_back(timer.elapsed_ms());
  }
  return common::summarize(ms).median;
}

// The course's trip: copy both arrays in, one launch, copy the result out.
Timing run_course(Launcher launch, std::size_t n, float a, const float* x, const float* y,
                  float* result) {
  DeviceArrays d(n);
  Timing t;
  common::Stopwatch clock;
  d.x.copy_from_host(x, n);
  d.y.copy_from_host(y, n);
  launch(n, a, d.x.data(), d.y.data(), d.result.data(), nullptr);
  CUDA_CHECK(cudaDeviceSynchronize());
  d.result.copy_to_host(result, n);
  t.total_ms = clock.elapsed_ms();
  t.kernel_ms = time_kernel(launch, n, a, d);
  return t;
}

// Chunks of 4M floats (16 MB per array): small enough that the first copy in
// and the last copy out, which cannot overlap anything, are short; large
// enough that each copy runs at full bandwidth.
constexpr std::size_t kChunk = std::size_t{1} << 22;
constexpr int kStreams = 4;

Timing run_tuned(std::size_t n, float a, const float* x, const float* y, float* result) {
  DeviceArrays d(n);
  std::vector<common::CudaStream> streams(kStreams);
  Timing t;
  // Host clock around issue and completion, as the course times its trip:
  // issuing the chunks' calls is part of the trip.
  CUDA_CHECK(cudaDeviceSynchronize());
  common::Stopwatch clock;
  for (std::size_t offset = 0, k = 0; offset < n; offset += kChunk, ++k) {
    const std::size_t count = std::min(kChunk, n - offset);
    const cudaStream_t s = streams[k % kStreams].get();
    CUDA_CHECK(cudaMemcpyAsync(d.x.data() + offset, x + offset, count * sizeof(float),
                               cudaMemcpyHostToDevice, s));
    CUDA_CHECK(cudaMemcpyAsync(d.y.data() + offset, y + offset, count * sizeof(float),
                               cudaMemcpyHostToDevice, s));
    launch_tuned_kernel(count, a, d.x.data() + offset, d.y.data() + offset,
                        d.result.data() + offset, s);
    CUDA_CHECK(cudaMemcpyAsync(result + offset, d.result.data() + offset, count * sizeof(float),
                               cudaMemcpyDeviceToHost, s));
  }
  CUDA_CHECK(cudaDeviceSynchronize());
  t.total_ms = clock.elapsed_ms();
  t.kernel_ms = time_kernel(launch_tuned_kernel, n, a, d);
  return t;
}

} // namespace

Timing run(Variant variant, std::size_t n, float a, const float* x, const float* y, float* result) {
  switch (variant) {
  case Variant::Course:
    return run_course(launch_course_kernel, n, a, x, y, result);
  case Variant::Tuned:
    return run_tuned(n, a, x, y, result);
  case Variant::Student: // the course's trip around the student's kernel
    return run_course(launch_student_kernel, n, a, x, y, result);
  }
  throw std::invalid_argument("saxpy::run: unknown variant");
}

} // namespace saxpy
