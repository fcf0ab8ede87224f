// An honest control: find_repeats uses its output past the count as scratch
// (allowed: the array is its own), scan is honest.
#include "honest.h"
#include "slot.h"

namespace scan::student {
void exclusive_scan(const int* input, int n, int* result) {
  honest::scan(input, n, result);
}
int find_repeats(const int* input, int n, int* output) {
  const int count = honest::find_repeats(input, n, output);
  for (int i = count; i < n; ++i) output[i] = -7;
  return count;
}
} // namespace scan::student
