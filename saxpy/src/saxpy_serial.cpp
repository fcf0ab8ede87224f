#include <stdexcept>

#include "saxpy/saxpy.h"

namespace saxpy {

const char* variant_name(Variant v) {
  return v == Variant::Course ? "course" : "tuned";
}

Variant parse_variant(const std::string& name) {
  if (name == "course") return Variant::Course;
  if (name == "tuned") return Variant::Tuned;
  throw std::invalid_argument("unknown variant '" + name + "' (valid: course, tuned)");
}

void saxpy_serial(std::size_t n, float a, const float* x, const float* y, float* result) {
  for (std::size_t i = 0; i < n; ++i) {
    // Two roundings, like the GPU kernels; volatile keeps a compiler with FMA
    // enabled from fusing them.
    volatile float product = a * x[i];
    result[i] = product + y[i];
  }
}

} // namespace saxpy
