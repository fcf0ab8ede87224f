// Crashes in the timed call.
#include <csignal>

#include "slot.h"

namespace scan::student {
void exclusive_scan(const int*, int, int*) {
  std::raise(SIGSEGV);
}
int find_repeats(const int*, int, int*) {
  std::raise(SIGSEGV);
  return 0;
}
} // namespace scan::student
