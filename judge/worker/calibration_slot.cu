// The judge's own slot (no code under test): one small kernel per call, so
// that the judge can measure what its probe of the GPU costs right after a
// worker's context ran (the switch between the two processes' contexts).
#include <cuda_runtime.h>

#include "slot.h"

namespace {
__global__ void touch(int* out) {
  out[0] = 0;
}
} // namespace

namespace scan::student {

void exclusive_scan(const int*, int, int* result) {
  touch<<<1, 1>>>(result);
  cudaDeviceSynchronize();
}

int find_repeats(const int*, int, int* output) {
  exclusive_scan(nullptr, 0, output);
  return 0;
}

} // namespace scan::student
