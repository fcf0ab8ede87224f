// An honest scan that slows the reference it is timed against. The judge
// times the reference and this worker in turn (judge_scan_pair), holding
// the one not timed still with SIGSTOP. Helpers the pause must hold as
// well (zombie_burners.h) burn the cores while this worker is held, that is
// while the reference is timed.
#include <chrono>
#include <thread>

#include "honest.h"
#include "slot.h"
#include "zombie_burners.h"

namespace {
// Started before main, while the worker is still a single thread.
__attribute__((constructor)) void start_helpers() {
  zombie::start_burners();
}
} // namespace

#ifndef ZOMBIE_SLOW_MS
#define ZOMBIE_SLOW_MS 0
#endif

// Honest; with ZOMBIE_SLOW_MS, slower than it needs to be by that much on
// every call (as slow_honest): the slowed reference still makes it score.
namespace scan::student {
void exclusive_scan(const int* input, int n, int* result) {
  std::this_thread::sleep_for(std::chrono::milliseconds(ZOMBIE_SLOW_MS));
  honest::scan(input, n, result);
}
int find_repeats(const int* input, int n, int* output) {
  std::this_thread::sleep_for(std::chrono::milliseconds(ZOMBIE_SLOW_MS));
  return honest::find_repeats(input, n, output);
}
} // namespace scan::student
