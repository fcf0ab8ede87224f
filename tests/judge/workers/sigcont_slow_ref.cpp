// An honest scan, 50 ms slower than it needs to be, that slows the
// reference it is timed against by undoing the judge's pause: its helpers
// (sigcont_burners.h) burn the cores while it is held, which is while the
// reference is timed. The judge must reject it for running while held.
#include <chrono>
#include <thread>

#include "honest.h"
#include "sigcont_burners.h"
#include "slot.h"

namespace {
// Started before main, while the worker is still a single thread.
__attribute__((constructor)) void start_helpers() {
  sigcont::start_helpers(4);
}
} // namespace

namespace scan::student {
void exclusive_scan(const int* input, int n, int* result) {
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  honest::scan(input, n, result);
}
int find_repeats(const int* input, int n, int* output) {
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  return honest::find_repeats(input, n, output);
}
} // namespace scan::student
