// YOUR SCAN: exclusive_scan and find_repeats on the GPU.
//
// This file is yours to edit; `cudaScan -a student` runs it (in a handout,
// plain `cudaScan` does). The program fills the input, calls your function,
// times it, and checks the result against the serial versions in
// scan/src/reference.cpp (exclusive_scan_serial, find_repeats_serial).
//
//   cudaScan -m scan -n 1000 -a student          # check one size
//   cudaScan -m find_repeats -n 1000 -a student
//   scripts/grade.sh scan find_repeats           # the score table
//
// Read first: docs/students.md (how to build, check and grade).
//
// Both functions take device pointers and must return when the result is
// complete (call cudaDeviceSynchronize() before returning). Check every CUDA
// call with CUDA_CHECK(...) and every launch with CUDA_CHECK_LAUNCH(): a
// failure then stops the program with a message naming this file and line.
// For scratch device memory use common::DeviceBuffer<int> buffer(count),
// which frees itself (common/include/common/device_buffer.h).
#include <stdexcept>

#include "common/cuda_check.h"
#include "common/device_buffer.h"
#include "slot.h"

namespace scan::student {

namespace {

// TODO: your kernels. The course's work-efficient scan (see the handout's
// pseudocode) runs on an array whose length is rounded up to a power of two:
//
//   upsweep:   for (two_d = 1; two_d <= N/2; two_d *= 2)
//                two_dplus1 = 2 * two_d
//                parallel for (i = 0; i < N; i += two_dplus1)
//                  output[i + two_dplus1 - 1] += output[i + two_d - 1]
//   output[N-1] = 0
//   downsweep: for (two_d = N/2; two_d >= 1; two_d /= 2)
//                two_dplus1 = 2 * two_d
//                parallel for (i = 0; i < N; i += two_dplus1)
//                  t = output[i + two_d - 1]
//                  output[i + two_d - 1] = output[i + two_dplus1 - 1]
//                  output[i + two_dplus1 - 1] += t
//
// Each `parallel for` is one kernel launch with one thread per i. Sums wrap
// modulo 2^32 like the serial version (add as unsigned to avoid signed overflow).

} // namespace

// result[i] = input[0] + ... + input[i-1], result[0] = 0, for i < n.
// `input` and `result` are distinct device arrays of n ints each (n >= 1).
// result has room for n ints only: for a power-of-two working array,
// allocate one (common::DeviceBuffer<int>), scan it, and copy n ints back.
void exclusive_scan(const int* input, int n, int* result) {
  (void)input, (void)n, (void)result;
  // TODO: delete this line and write the scan.
  throw std::runtime_error("not implemented yet: write exclusive_scan in "
                           "scan/student/student_scan.cu (its TODOs say what to write)");
}

// Writes, in increasing order, every index i with input[i] == input[i+1] to
// `output` (room for n - 1 ints) and returns how many it wrote (n >= 2).
// TODO: the course's way, in parallel steps: flags[i] = input[i] == input[i+1];
// exclusive_scan the flags to get each repeat's position in the output; then
// one kernel writes output[position[i]] = i wherever flags[i] is set. The
// count is the last position plus the last flag (copy them to the host).
int find_repeats(const int* input, int n, int* output) {
  (void)input, (void)n, (void)output;
  // TODO: delete this line and write find_repeats.
  throw std::runtime_error("not implemented yet: write find_repeats in "
                           "scan/student/student_scan.cu (its TODOs say what to write)");
}

} // namespace scan::student
