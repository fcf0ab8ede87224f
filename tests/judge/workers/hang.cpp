// Never returns.
#include <atomic>

#include "slot.h"

namespace {
std::atomic<int> spin{0};
[[noreturn]] void hang() {
  for (;;) spin.fetch_add(1, std::memory_order_relaxed);
}
} // namespace

namespace scan::student {
void exclusive_scan(const int*, int, int*) {
  hang();
}
int find_repeats(const int*, int, int*) {
  hang();
}
} // namespace scan::student
