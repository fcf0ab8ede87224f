// Float arithmetic that rounds the same way on the host and on the GPU, for
// code that both run (animation steps, scene generators).
//
// nvcc fuses a*b + c into one FMA by default, which rounds once instead of
// twice and so changes results. On the device these helpers are the explicitly
// rounded intrinsics, which are never fused. On the host, compile callers
// without contraction (-ffp-contract=off; the scenes library does); x86-64
// code built without -mfma never contracts anyway.
#pragma once

#include <cmath>

#if defined(__CUDACC__)
#define SCENES_HD __host__ __device__
#else
#define SCENES_HD
#endif

namespace scenes::fp {

SCENES_HD inline float add(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fadd_rn(a, b);
#else
  return a + b;
#endif
}

SCENES_HD inline float sub(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fsub_rn(a, b);
#else
  return a - b;
#endif
}

SCENES_HD inline float mul(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fmul_rn(a, b);
#else
  return a * b;
#endif
}

SCENES_HD inline float div(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fdiv_rn(a, b);
#else
  return a / b;
#endif
}

SCENES_HD inline float sqrt(float a) {
#if defined(__CUDA_ARCH__)
  return __fsqrt_rn(a);
#else
  return std::sqrt(a);
#endif
}

// a + b * c, rounded after the product and again after the sum.
SCENES_HD inline float add_mul(float a, float b, float c) {
  return add(a, mul(b, c));
}

} // namespace scenes::fp
