// The honest control: a correct saxpy on host memory, so the judge's checks
// can be shown to pass.
#include "honest.h"
#include "saxpy/saxpy.h"

void saxpy::launch_student_kernel(std::size_t n, float a, const float* x, const float* y,
                                  float* result, cudaStream_t) {
  honest::saxpy(n, a, x, y, result);
}
