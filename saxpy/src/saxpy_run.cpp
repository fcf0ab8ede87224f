// Whole trips from host arrays to a host result: the timed part of cudaSaxpy.
#include <stdexcept>
#include <vector>

#include "common/cuda_check.h"
#include "common/device_buffer.h"
#include "common/event.h"
#include "common/stream.h"
#include "common/timer.h"
#include "saxpy/chunks.h"
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

// The tuned trip. Copies in run in order on one stream, so each chunk arrives
// at the link's full rate as early as it can: copies in issued on several
// streams share the link, finish late and together, and leave several
// chunks' work to run after the last copy in. Each chunk's kernel waits only
// for its own copy in; its copy out waits only for its kernel and runs on the
// other copy engine while later chunks copy in. What remains after the last
// copy in, the last chunk's kernel and copy out, is short because the
// schedule tapers (saxpy/chunks.h).
Timing run_tuned(std::size_t n, float a, const float* x, const float* y, float* result,
                 std::size_t chunk) {
  DeviceArrays d(n);
  common::CudaStream copy_in, compute, copy_out;
  common::CudaEvent copied_in, computed;
  Timing t;
  // Host clock around issue and completion, as the course times its trip:
  // issuing the chunks' calls is part of the trip.
  CUDA_CHECK(cudaDeviceSynchronize());
  common::Stopwatch clock;
  for (std::size_t offset = 0; offset < n;) {
    const std::size_t count = next_chunk_count(n - offset, chunk);
    const std::size_t bytes = count * sizeof(float);
    float *dx = d.x.data() + offset, *dy = d.y.data() + offset, *dr = d.result.data() + offset;
    CUDA_CHECK(cudaMemcpyAsync(dx, x + offset, bytes, cudaMemcpyHostToDevice, copy_in.get()));
    CUDA_CHECK(cudaMemcpyAsync(dy, y + offset, bytes, cudaMemcpyHostToDevice, copy_in.get()));
    // Re-recording an event moves its mark; a wait already queued keeps the
    // mark it was given, so one event per stage serves every chunk.
    copied_in.record(copy_in.get());
    copied_in.make_wait(compute.get());
    launch_tuned_kernel(count, a, dx, dy, dr, compute.get());
    computed.record(compute.get());
    computed.make_wait(copy_out.get());
    CUDA_CHECK(cudaMemcpyAsync(result + offset, dr, bytes, cudaMemcpyDeviceToHost, copy_out.get()));
    offset += count;
  }
  CUDA_CHECK(cudaDeviceSynchronize());
  t.total_ms = clock.elapsed_ms();
  t.kernel_ms = time_kernel(launch_tuned_kernel, n, a, d);
  return t;
}

} // namespace

Timing run(Variant variant, std::size_t n, float a, const float* x, const float* y, float* result,
           std::size_t chunk) {
  if (chunk == 0) throw std::invalid_argument("saxpy::run: chunk must be positive");
  switch (variant) {
  case Variant::Course:
    return run_course(launch_course_kernel, n, a, x, y, result);
  case Variant::Tuned:
    return run_tuned(n, a, x, y, result, chunk);
  case Variant::Student: // the course's trip around the student's kernel
    return run_course(launch_student_kernel, n, a, x, y, result);
  }
  throw std::invalid_argument("saxpy::run: unknown variant");
}

} // namespace saxpy
