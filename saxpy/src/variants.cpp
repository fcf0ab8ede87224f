// The variants' names, and which cudaSaxpy runs by default.
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

} // namespace saxpy
