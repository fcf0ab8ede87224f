// SAXPY: result = a * x + y over n floats, on the CPU (the reference) and on
// the GPU two ways: the course's version and a tuned one.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>
#include <vector>

#include "saxpy/chunks.h"

namespace saxpy {

enum class Variant {
  Course,  // pageable host memory, whole arrays copied, one element per thread
  Tuned,   // pinned host memory, chunks copied in order on one stream while earlier
           // chunks compute and copy out on others, 16-byte vector loads,
           // two per thread with no loop
  Student, // the student slot: saxpy/student/student_saxpy.cu, the course's trip
};

const char* variant_name(Variant v);
// "course", "tuned" or "student"; throws std::invalid_argument otherwise.
Variant parse_variant(const std::string& name);

// What cudaSaxpy runs without -v: course and tuned, or in a handout
// (SUITE_HANDOUT) the student slot.
std::vector<Variant> default_variants();

// The serial reference. The GPU kernels round the product and the sum
// separately (no fused multiply-add), exactly as this loop does, so results
// are bitwise equal.
void saxpy_serial(std::size_t n, float a, const float* x, const float* y, float* result);

// Kernels on device pointers, launched on `stream` (no synchronization).
void launch_course_kernel(std::size_t n, float a, const float* d_x, const float* d_y,
                          float* d_result, cudaStream_t stream);
void launch_tuned_kernel(std::size_t n, float a, const float* d_x, const float* d_y,
                         float* d_result, cudaStream_t stream);
// The student slot (saxpy/student/student_saxpy.cu); unfilled, it throws
// std::runtime_error naming the file to edit.
void launch_student_kernel(std::size_t n, float a, const float* d_x, const float* d_y,
                           float* d_result, cudaStream_t stream);

struct Timing {
  double total_ms = 0;  // host arrays in, host result out: copies and kernel
  double kernel_ms = 0; // the kernel alone, on data already on the device
};

// One whole trip from host arrays to a host result, timed as the course does
// (device allocation outside the timed region), then the kernel alone timed
// with events. For Variant::Tuned the host arrays should be pinned (see
// common::PinnedBuffer); pageable arrays work but do not overlap. `chunk` is
// the tuned trip's floats per chunk (saxpy/chunks.h; the others ignore it);
// 0 throws std::invalid_argument.
Timing run(Variant variant, std::size_t n, float a, const float* x, const float* y, float* result,
           std::size_t chunk = kDefaultChunk);

// Bytes a SAXPY over n floats must move: read x and y, write the result.
inline double saxpy_bytes(std::size_t n) {
  return 3.0 * 4.0 * static_cast<double>(n);
}

} // namespace saxpy
