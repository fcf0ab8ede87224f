#include <stdexcept>

#include "common/enum_names.h"
#include "saxpy/saxpy.h"

namespace saxpy {

namespace {
constexpr common::NamedValue<Variant> kVariantNames[] = {
    {Variant::Course, "course"}, {Variant::Tuned, "tuned"}, {Variant::Student, "student"}};
} // namespace

const char* variant_name(Variant v) {
  return common::enum_name(kVariantNames, v);
}

Variant parse_variant(const std::string& name) {
  if (const auto v = common::enum_from_name(kVariantNames, name)) return *v;
  throw std::invalid_argument("unknown variant '" + name +
                              "' (valid: " + common::enum_names(kVariantNames) + ")");
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
