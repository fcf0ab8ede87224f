// YOUR SAXPY: result[i] = alpha * x[i] + y[i] on the GPU.
//
// This file is yours to edit; `cudaSaxpy -v student` runs it (in a handout,
// plain `cudaSaxpy` does). The program copies x and y to the device, calls
// launch_student_kernel, copies the result back, times the whole trip and
// the kernel alone, and checks every element against the serial version
// (saxpy/src/saxpy_serial.cpp) bit for bit.
//
// Read first: docs/students.md (how to build, check and grade, and what the
// timings mean).
#include <stdexcept>

#include "common/cuda_check.h"
#include "saxpy/saxpy.h"

namespace saxpy {

namespace {

// TODO: write the kernel. Each thread computes one element:
//   - compute this thread's index from blockIdx.x, blockDim.x and threadIdx.x;
//   - threads past the end (index >= n) must do nothing;
//   - write result[index] = alpha * x[index] + y[index].
// Bitwise equality with the CPU needs two roundings, a product then a sum:
// write __fadd_rn(__fmul_rn(alpha, x[i]), y[i]) (a plain a * x + y may be
// fused into one fma instruction, which rounds once and differs in the last bit).
__global__ void student_saxpy_kernel(std::size_t n, float alpha, const float* x, const float* y,
                                     float* result) {
  (void)n, (void)alpha, (void)x, (void)y, (void)result;
}

} // namespace

void launch_student_kernel(std::size_t n, float alpha, const float* d_x, const float* d_y,
                           float* d_result, cudaStream_t stream) {
  // TODO: delete this line once the kernel is written.
  throw std::runtime_error(
      "not implemented yet: write the kernel in saxpy/student/student_saxpy.cu "
      "(its TODOs say what to write)");

  // TODO: choose the block size (threads per block, e.g. 512) and the number
  // of blocks so that every element gets a thread; n may not be a multiple
  // of the block size.
  if (n == 0) return;
  const unsigned threads_per_block = 1;
  const unsigned blocks = 1;
  student_saxpy_kernel<<<blocks, threads_per_block, 0, stream>>>(n, alpha, d_x, d_y, d_result);
  CUDA_CHECK_LAUNCH(); // reports a bad launch (for example too many threads per block)
}

} // namespace saxpy
