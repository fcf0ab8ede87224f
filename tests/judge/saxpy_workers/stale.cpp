// Slow (50 ms) on inputs it has not seen, instant on inputs it has, leaving
// the result as it was: timed on the trip's inputs again, as cudaSaxpy times
// its kernel, the kernel would look free. The judge gives every call fresh
// inputs, so every call pays.
#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

#include "honest.h"
#include "saxpy/saxpy.h"

void saxpy::launch_student_kernel(std::size_t n, float a, const float* x, const float* y,
                                  float* result, cudaStream_t) {
  static std::vector<float> seen;
  if (seen.size() == n && std::memcmp(seen.data(), x, n * sizeof(float)) == 0) return;
  seen.assign(x, x + n);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  honest::saxpy(n, a, x, y, result);
}
