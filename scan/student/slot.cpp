// Adapts the library's calls to the course-style functions of the student
// slot: int counts, distinct arrays, and no stream (the student's code runs
// on the default stream once `stream` has finished).
#include "slot.h"

#include <climits>
#include <stdexcept>
#include <string>

#include "common/cuda_check.h"
#include "common/device_buffer.h"

namespace scan::detail {

namespace {

int int_count(const char* call, std::int64_t n) {
  if (n > INT_MAX)
    throw std::invalid_argument(std::string(call) + " (student): n = " + std::to_string(n) +
                                " is more than the slot's int count takes (" +
                                std::to_string(INT_MAX) + ")");
  return static_cast<int>(n);
}

} // namespace

void student_scan(const unsigned* in, unsigned* out, std::int64_t n, cudaStream_t stream) {
  const int count = int_count("exclusive_scan", n);
  CUDA_CHECK(cudaStreamSynchronize(stream));
  const int* input = reinterpret_cast<const int*>(in);
  // The course's signature has distinct input and result arrays: an in-place
  // call scans a copy of the input.
  common::DeviceBuffer<int> copy;
  if (static_cast<const void*>(in) == static_cast<const void*>(out)) {
    copy = common::DeviceBuffer<int>(static_cast<std::size_t>(count), "student scan input copy");
    CUDA_CHECK(cudaMemcpy(copy.data(), input, static_cast<std::size_t>(count) * sizeof(int),
                          cudaMemcpyDeviceToDevice));
    input = copy.data();
  }
  student::exclusive_scan(input, count, reinterpret_cast<int*>(out));
  CUDA_CHECK(cudaDeviceSynchronize());
}

void student_find_repeats(const int* in, std::int64_t n, int* out, std::int64_t* d_count,
                          cudaStream_t stream) {
  const int count = int_count("find_repeats", n);
  CUDA_CHECK(cudaStreamSynchronize(stream));
  const std::int64_t repeats = student::find_repeats(in, count, out);
  CUDA_CHECK(cudaDeviceSynchronize());
  if (repeats < 0 || repeats > n - 1)
    throw std::runtime_error("find_repeats (student): returned count " + std::to_string(repeats) +
                             " is outside 0.." + std::to_string(n - 1));
  // A synchronous copy: `repeats` lives on this function's stack. The kind is
  // inferred from the addresses, as d_count may be device memory or mapped host
  // memory (the blocking find_repeats' count slot).
  CUDA_CHECK(cudaMemcpy(d_count, &repeats, sizeof repeats, cudaMemcpyDefault));
}

} // namespace scan::detail
