#include <stdexcept>

#include "saxpy/saxpy.h"

namespace saxpy {

const char* variant_name(Variant v) {
  switch (v) {
  case Variant::Course:
    return "course";
  case Variant::Tuned:
    return "tuned";
  case Variant::Student:
    return "student";
  }
  return "?";
}

Variant parse_variant(const std::string& name) {
  for (Variant v : {Variant::Course, Variant::Tuned, Variant::Student})
    if (name == variant_name(v)) return v;
  throw std::invalid_argument("unknown variant '" + name + "' (valid: course, tuned, student)");
}

std::vector<Variant> default_variants() {
#ifdef SUITE_HANDOUT
  return {Variant::Student};
#else
  return {Variant::Course, Variant::Tuned};
#endif
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
