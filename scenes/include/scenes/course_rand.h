// The course-compatible random generator: our own implementation of the GNU C
// library's default rand() (the "TYPE_3" additive feedback generator), so every
// scene is the same on every platform and equal to the course's for a seed.
// docs/scenes.md, "Random numbers", is the specification.
#pragma once

#include <array>
#include <cstdint>

namespace scenes {

class CourseRand {
public:
  static constexpr std::uint32_t kRandMax = 2147483647u;

  explicit CourseRand(std::uint32_t seed = 1) { reseed(seed); }

  // Restarts the sequence; seed 0 is treated as 1, like srand().
  void reseed(std::uint32_t seed);

  // The next value in [0, kRandMax], as rand() returns it.
  std::uint32_t next();

  // float(next()) / 2^31, in [0, 1].
  float rand01();

private:
  // r[i] depends on r[i - 31] and r[i - 3], so the last 34 values suffice.
  static constexpr int kHistory = 34;
  std::array<std::uint32_t, kHistory> ring_{};
  int pos_ = 0; // slot the next r[i] goes to (i mod kHistory)
};

} // namespace scenes
