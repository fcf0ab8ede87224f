// Bit-exact comparison of scenes for the scenes tests.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "scenes/scene.h"

namespace scenes_test {

inline bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

// Every field, every float compared as bits (so -0 differs from 0).
inline testing::AssertionResult scenes_identical(const scenes::Scene& a, const scenes::Scene& b) {
  if (a.name != b.name) return testing::AssertionFailure() << "names " << a.name << " " << b.name;
  if (a.snow != b.snow) return testing::AssertionFailure() << "snow flags differ";
  if (a.animation != b.animation) return testing::AssertionFailure() << "animations differ";
  const std::vector<float> scenes::Scene::*fields[] = {
      &scenes::Scene::x,  &scenes::Scene::y,     &scenes::Scene::z, &scenes::Scene::vx,
      &scenes::Scene::vy, &scenes::Scene::vz,    &scenes::Scene::r, &scenes::Scene::g,
      &scenes::Scene::b,  &scenes::Scene::radius};
  const char* names[] = {"x", "y", "z", "vx", "vy", "vz", "r", "g", "b", "radius"};
  for (std::size_t f = 0; f < std::size(fields); ++f) {
    if (!same_bits(a.*fields[f], b.*fields[f])) {
      return testing::AssertionFailure() << "array " << names[f] << " differs";
    }
  }
  return testing::AssertionSuccess();
}

} // namespace scenes_test
