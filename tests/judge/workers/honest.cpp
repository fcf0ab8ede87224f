// The honest control: a correct scan and find_repeats on host memory (the
// judge's --memory host), so the judge's checks can be shown to pass.
#include "honest.h"
#include "slot.h"

namespace scan::student {

void exclusive_scan(const int* input, int n, int* result) {
  honest::scan(input, n, result);
}
int find_repeats(const int* input, int n, int* output) {
  return honest::find_repeats(input, n, output);
}

} // namespace scan::student
