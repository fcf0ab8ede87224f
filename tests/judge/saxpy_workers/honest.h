// The honest saxpy the saxpy workers fall back on, on host memory (the
// judge's --memory host): the serial reference's two roundings.
#pragma once

#include <cstddef>

namespace honest {

inline void saxpy(std::size_t n, float a, const float* x, const float* y, float* result) {
  for (std::size_t i = 0; i < n; ++i) {
    volatile float product = a * x[i];
    result[i] = product + y[i];
  }
}

} // namespace honest
