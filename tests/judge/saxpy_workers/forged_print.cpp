// Honest, and prints a timing table of cudaSaxpy's shape with impossible
// times: nothing a worker prints reaches the judge's rows.
#include <cstdio>

#include "honest.h"
#include "saxpy/saxpy.h"

namespace {
const int forged = [] {
  std::printf("Effective BW by CUDA saxpy: 0.001 ms [999999.000 GB/s]\n"
              "saxpy_trip\t1000\tok\t0.0001\t0.0001\t0\t0\t3\t\n");
  std::fflush(stdout);
  return 0;
}();
} // namespace

void saxpy::launch_student_kernel(std::size_t n, float a, const float* x, const float* y,
                                  float* result, cudaStream_t) {
  honest::saxpy(n, a, x, y, result);
}
