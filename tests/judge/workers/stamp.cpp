// Honest, and it prints the system's monotonic clock at each call (to its
// log, which the judge keeps): two of them timed interleaved show the order
// of their calls.
#include <time.h>

#include <cstdio>

#include "honest.h"
#include "slot.h"

namespace {

void stamp() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  std::printf("call %lld\n", static_cast<long long>(t.tv_sec) * 1000000000LL + t.tv_nsec);
  std::fflush(stdout);
}

} // namespace

namespace scan::student {

void exclusive_scan(const int* input, int n, int* result) {
  stamp();
  honest::scan(input, n, result);
}

int find_repeats(const int* input, int n, int* output) {
  stamp();
  return honest::find_repeats(input, n, output);
}

} // namespace scan::student
