// A fork bomb in the timed call.
#include <unistd.h>

#include "slot.h"

namespace {
[[noreturn]] void bomb() {
  for (;;) fork();
}
} // namespace

namespace scan::student {
void exclusive_scan(const int*, int, int*) {
  bomb();
}
int find_repeats(const int*, int, int*) {
  bomb();
}
} // namespace scan::student
