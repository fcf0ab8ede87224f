// Answers right, then a moment after its answer (past the judge's probe of
// the answer) launches a one-warp kernel that stays resident for a while:
// GPU work while the judge holds the worker still, which could read the
// next input off the clock. Must be rejected ("GPU work ...").
#include <chrono>
#include <thread>

#include "serial_answers.cuh"
#include "slot.h"

namespace {

__global__ void resident(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

// Some 20 ms of a 1.5-2 GHz clock, launched 300 us after the answer.
void launch_later() {
  std::thread([] {
    std::this_thread::sleep_for(std::chrono::microseconds(300));
    cudaStream_t stream;
    cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    resident<<<1, 32, 0, stream>>>(40'000'000LL);
    cudaStreamDestroy(stream);
  }).detach();
}

} // namespace

namespace scan::student {

void exclusive_scan(const int* input, int n, int* result) {
  attack::scan_then(input, n, result, launch_later);
}

int find_repeats(const int* input, int n, int* output) {
  return attack::repeats_then(input, n, output, launch_later);
}

} // namespace scan::student
