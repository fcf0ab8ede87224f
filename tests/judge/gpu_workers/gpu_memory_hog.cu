// Answers right, but a static object takes all but 48 MiB of the GPU's
// free memory before the worker is ready: beside the reference, the
// reference's allocations would fail and the part be lost. The judge must
// reject this worker (over --gpu-memory-limit) and grade the reference.
#include <cstddef>

#include "serial_answers.cuh"
#include "slot.h"

namespace {

struct Hog {
  Hog() {
    std::size_t free = 0, total = 0;
    if (cudaMemGetInfo(&free, &total) == cudaSuccess && free > (std::size_t{48} << 20))
      cudaMalloc(&memory, free - (std::size_t{48} << 20));
  }
  void* memory = nullptr;
};
Hog hog;

} // namespace

namespace scan::student {

void exclusive_scan(const int* input, int n, int* result) {
  attack::serial_scan<<<1, 1>>>(input, n, result);
  cudaDeviceSynchronize();
}

int find_repeats(const int* input, int n, int* output) {
  return attack::repeats(input, n, output);
}

} // namespace scan::student
