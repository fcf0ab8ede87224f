// Floods its output.
#include <cstdio>

#include "slot.h"

namespace {
[[noreturn]] void flood() {
  for (;;) std::fputs("Student GPU time: 0.001 ms\n", stdout);
}
} // namespace

namespace scan::student {
void exclusive_scan(const int*, int, int*) {
  flood();
}
int find_repeats(const int*, int, int*) {
  flood();
}
} // namespace scan::student
