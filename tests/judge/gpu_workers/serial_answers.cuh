// Right answers computed by one GPU thread: the attacks here are about
// what runs beside the answers, not about the answers.
#pragma once

namespace attack {

__global__ inline void serial_scan(const int* in, int n, int* out) {
  unsigned sum = 0;
  for (int i = 0; i < n; ++i) {
    out[i] = static_cast<int>(sum);
    sum += static_cast<unsigned>(in[i]);
  }
}

__global__ inline void serial_repeats(const int* in, int n, int* out, int* count) {
  int found = 0;
  for (int i = 0; i + 1 < n; ++i)
    if (in[i] == in[i + 1]) out[found++] = i;
  if (count) *count = found;
}

// The find_repeats answer: the indices in `output`, their count returned.
inline int repeats(const int* input, int n, int* output) {
  int* count = nullptr;
  cudaMalloc(&count, sizeof(int));
  serial_repeats<<<1, 1>>>(input, n, output, count);
  int found = 0;
  cudaMemcpy(&found, count, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(count);
  return found;
}

// The two slot functions of an attack: the right answer, then `after()`
// (what the attack does once it has answered).
inline void scan_then(const int* input, int n, int* result, void (*after)()) {
  serial_scan<<<1, 1>>>(input, n, result);
  cudaDeviceSynchronize();
  after();
}

inline int repeats_then(const int* input, int n, int* output, void (*after)()) {
  const int found = repeats(input, n, output);
  after();
  return found;
}

} // namespace attack
