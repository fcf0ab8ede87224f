// The serial reference, apart from the rest so the judge links it alone.
#include "saxpy/saxpy.h"

namespace saxpy {

void saxpy_serial(std::size_t n, float a, const float* x, const float* y, float* result) {
  for (std::size_t i = 0; i < n; ++i) {
    // Two roundings, like the GPU kernels; volatile keeps a compiler with FMA
    // enabled from fusing them.
    volatile float product = a * x[i];
    result[i] = product + y[i];
  }
}

} // namespace saxpy
