// Never becomes ready: a static constructor that sleeps.
#include <unistd.h>

#include "honest.h"
#include "slot.h"

namespace {
struct Stall {
  Stall() {
    for (;;) sleep(1);
  }
} stall;
} // namespace

namespace scan::student {
void exclusive_scan(const int* input, int n, int* result) {
  honest::scan(input, n, result);
}
int find_repeats(const int* input, int n, int* output) {
  return honest::find_repeats(input, n, output);
}
} // namespace scan::student
