#include "scan/reference.h"

namespace scan {

void exclusive_scan_serial(const int* in, int* out, std::int64_t n) {
  unsigned sum = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const unsigned value = static_cast<unsigned>(in[i]); // read first: in may be out
    out[i] = static_cast<int>(sum);
    sum += value;
  }
}

std::int64_t find_repeats_serial(const int* in, std::int64_t n, int* out) {
  std::int64_t count = 0;
  for (std::int64_t i = 0; i + 1 < n; ++i)
    if (in[i] == in[i + 1]) out[count++] = static_cast<int>(i);
  return count;
}

std::int64_t first_mismatch(const int* got, const int* want, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i)
    if (got[i] != want[i]) return i;
  return n;
}

} // namespace scan
