// Right but for the last element, one unit in the last place off: the
// judge checks every element bit for bit.
#include <cmath>

#include "honest.h"
#include "saxpy/saxpy.h"

void saxpy::launch_student_kernel(std::size_t n, float a, const float* x, const float* y,
                                  float* result, cudaStream_t) {
  honest::saxpy(n, a, x, y, result);
  if (n > 0) result[n - 1] = std::nextafter(result[n - 1], 10.0f);
}
