// Right answers, but it writes past the end of its output.
#include "honest.h"
#include "slot.h"

namespace scan::student {
void exclusive_scan(const int* input, int n, int* result) {
  honest::scan(input, n, result);
  result[n] = 0;
}
int find_repeats(const int* input, int n, int* output) {
  const int count = honest::find_repeats(input, n, output);
  output[n] = 0;
  return count;
}
} // namespace scan::student
