#include <algorithm>
#include <cstdint>

#include "common/cuda_check.h"
#include "saxpy/saxpy.h"

namespace saxpy {

namespace {

// Explicit roundings: a*x+y must not contract into an FMA, or the result
// would differ from the serial reference in the last bit.
__device__ __forceinline__ float saxpy_one(float a, float x, float y) {
  return __fadd_rn(__fmul_rn(a, x), y);
}

__global__ void course_kernel(std::size_t n, float a, const float* x, const float* y, float* r) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) r[i] = saxpy_one(a, x[i], y[i]);
}

// One trip per thread, no loop: kVecsPerThread float4s, all loads issued
// before the first store: it reached the device-to-device memcpy rate where
// the grid-stride loop it replaced did not (docs/saxpy.md).
constexpr int kVecsPerThread = 2;

__global__ void tuned_kernel(std::size_t n, float a, const float4* __restrict__ x,
                             const float4* __restrict__ y, float4* __restrict__ r,
                             const float* __restrict__ x_tail, const float* __restrict__ y_tail,
                             float* __restrict__ r_tail, std::size_t tail) {
  const std::size_t first =
      static_cast<std::size_t>(blockIdx.x) * blockDim.x * kVecsPerThread + threadIdx.x;
  float4 xs[kVecsPerThread], ys[kVecsPerThread];
#pragma unroll
  for (int u = 0; u < kVecsPerThread; ++u) {
    const std::size_t i = first + static_cast<std::size_t>(u) * blockDim.x;
    if (i < n) {
      xs[u] = x[i];
      ys[u] = y[i];
    }
  }
#pragma unroll
  for (int u = 0; u < kVecsPerThread; ++u) {
    const std::size_t i = first + static_cast<std::size_t>(u) * blockDim.x;
    if (i < n)
      r[i] = make_float4(saxpy_one(a, xs[u].x, ys[u].x), saxpy_one(a, xs[u].y, ys[u].y),
                         saxpy_one(a, xs[u].z, ys[u].z), saxpy_one(a, xs[u].w, ys[u].w));
  }
  // The last n % 4 floats (or all of them when the pointers are not 16-byte
  // aligned) go one per thread.
  const std::size_t t = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t < tail) r_tail[t] = saxpy_one(a, x_tail[t], y_tail[t]);
}

constexpr int kCourseThreads = 512; // the course's block size
constexpr int kTunedThreads = 256;

bool aligned16(const void* p) {
  return reinterpret_cast<std::uintptr_t>(p) % 16 == 0;
}

} // namespace

void launch_course_kernel(std::size_t n, float a, const float* d_x, const float* d_y,
                          float* d_result, cudaStream_t stream) {
  if (n == 0) return;
  const std::size_t blocks = (n + kCourseThreads - 1) / kCourseThreads;
  course_kernel<<<static_cast<unsigned>(blocks), kCourseThreads, 0, stream>>>(n, a, d_x, d_y,
                                                                              d_result);
  CUDA_CHECK_LAUNCH();
}

void launch_tuned_kernel(std::size_t n, float a, const float* d_x, const float* d_y,
                         float* d_result, cudaStream_t stream) {
  if (n == 0) return;
  const bool vector_ok = aligned16(d_x) && aligned16(d_y) && aligned16(d_result);
  const std::size_t vecs = vector_ok ? n / 4 : 0;
  const std::size_t tail = n - vecs * 4;
  // Enough blocks for every vector and for every tail float (one thread each).
  const std::size_t per_block = static_cast<std::size_t>(kTunedThreads) * kVecsPerThread;
  const std::size_t blocks = std::max<std::size_t>(
      {(vecs + per_block - 1) / per_block, (tail + kTunedThreads - 1) / kTunedThreads, 1});
  tuned_kernel<<<static_cast<unsigned>(blocks), kTunedThreads, 0, stream>>>(
      vecs, a, reinterpret_cast<const float4*>(d_x), reinterpret_cast<const float4*>(d_y),
      reinterpret_cast<float4*>(d_result), d_x + vecs * 4, d_y + vecs * 4, d_result + vecs * 4,
      tail);
  CUDA_CHECK_LAUNCH();
}

} // namespace saxpy
