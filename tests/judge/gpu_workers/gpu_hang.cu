// A kernel that never ends.
#include "slot.h"

namespace {
__global__ void forever(volatile int* flag) {
  while (*flag == 0) {
  }
}
} // namespace

namespace scan::student {
void exclusive_scan(const int*, int, int* result) {
  cudaMemset(result, 0, sizeof(int));
  forever<<<1, 1>>>(result);
  cudaDeviceSynchronize();
}
int find_repeats(const int*, int, int* output) {
  exclusive_scan(nullptr, 0, output);
  return 0;
}
} // namespace scan::student
