// Right, and one element written past the result: the judge's guard.
#include "honest.h"
#include "saxpy/saxpy.h"

void saxpy::launch_student_kernel(std::size_t n, float a, const float* x, const float* y,
                                  float* result, cudaStream_t) {
  honest::saxpy(n, a, x, y, result);
  result[n] = 1.0f;
}
