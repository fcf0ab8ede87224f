// Honest, each call computed on a thread of its own (as a runtime that
// starts threads while it runs would): the peer whose starts another
// worker's processes must not be able to take.
#include <chrono>
#include <thread>

#include "honest.h"
#include "slot.h"

namespace scan::student {

void exclusive_scan(const int* input, int n, int* result) {
  std::thread([=] {
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    honest::scan(input, n, result);
  }).join();
}

int find_repeats(const int* input, int n, int* output) {
  int count = 0;
  std::thread([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    count = honest::find_repeats(input, n, output);
  }).join();
  return count;
}

} // namespace scan::student
