#include "scenes/course_rand.h"

namespace scenes {

namespace {
constexpr std::int32_t kModulus = 2147483647; // 2^31 - 1
constexpr std::int32_t kMultiplier = 16807;
// Schrage's factors of kModulus = kMultiplier * kQuotient + kRemainder, which
// keep 16807 * r mod (2^31 - 1) inside signed 32 bits.
constexpr std::int32_t kQuotient = 127773;
constexpr std::int32_t kRemainder = 2836;
// Outputs start at r[344]: r[34..343] are computed and dropped.
constexpr int kDiscarded = 310;
} // namespace

void CourseRand::reseed(std::uint32_t seed) {
  if (seed == 0) seed = 1;
  // glibc keeps the seed in a signed 32-bit word; seeds above 2^31 - 1 wrap to
  // negative values, and the Schrage steps below then follow C's truncating
  // division, exactly as srand() does.
  auto word = static_cast<std::int32_t>(seed);
  ring_[0] = static_cast<std::uint32_t>(word);
  for (int i = 1; i < 31; ++i) {
    const std::int32_t hi = word / kQuotient;
    const std::int32_t lo = word % kQuotient;
    word = kMultiplier * lo - kRemainder * hi;
    if (word < 0) word += kModulus;
    ring_[i] = static_cast<std::uint32_t>(word);
  }
  for (int i = 31; i < kHistory; ++i) ring_[i] = ring_[i - 31];
  pos_ = 0; // slot of r[34]: 34 mod kHistory
  for (int k = 0; k < kDiscarded; ++k) next();
}

std::uint32_t CourseRand::next() {
  // r[i] = r[i - 31] + r[i - 3] modulo 2^32 (unsigned wrap-around).
  const std::uint32_t value =
      ring_[(pos_ + kHistory - 31) % kHistory] + ring_[(pos_ + kHistory - 3) % kHistory];
  ring_[pos_] = value;
  pos_ = (pos_ + 1) % kHistory;
  return value >> 1;
}

float CourseRand::rand01() {
  return static_cast<float>(next()) / 2147483648.0f;
}

} // namespace scenes
