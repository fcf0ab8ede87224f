// Honest, and SLOW_HONEST_MS (default 20) ms slower than it needs to be on
// every call: references and submissions whose times are known, so the
// grader's tests can check their scores without depending on how fast (or
// how busy) this machine is.
#include <chrono>
#include <thread>

#include "honest.h"
#include "slot.h"

#ifndef SLOW_HONEST_MS
#define SLOW_HONEST_MS 20
#endif

namespace scan::student {

void exclusive_scan(const int* input, int n, int* result) {
  std::this_thread::sleep_for(std::chrono::milliseconds(SLOW_HONEST_MS));
  honest::scan(input, n, result);
}

int find_repeats(const int* input, int n, int* output) {
  std::this_thread::sleep_for(std::chrono::milliseconds(SLOW_HONEST_MS));
  return honest::find_repeats(input, n, output);
}

} // namespace scan::student
