// Answers right, then a moment after its answer queues large copies on the
// copy engines alone (no kernel): work a probe of one empty kernel would
// not see. Must be rejected ("GPU work ...").
#include <chrono>
#include <cstddef>
#include <thread>

#include "serial_answers.cuh"
#include "slot.h"

namespace {

constexpr std::size_t kBytes = std::size_t{1} << 30; // some 20 ms each way

void copy_later() {
  std::thread([] {
    std::this_thread::sleep_for(std::chrono::microseconds(300));
    static void* host = nullptr;
    static void* device = nullptr;
    if (!host) {
      cudaMallocHost(&host, kBytes);
      cudaMalloc(&device, kBytes);
    }
    cudaStream_t stream;
    cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    cudaMemcpyAsync(device, host, kBytes, cudaMemcpyHostToDevice, stream);
    cudaMemcpyAsync(host, device, kBytes, cudaMemcpyDeviceToHost, stream);
    cudaStreamDestroy(stream);
  }).detach();
}

} // namespace

namespace scan::student {

void exclusive_scan(const int* input, int n, int* result) {
  attack::scan_then(input, n, result, copy_later);
}

int find_repeats(const int* input, int n, int* output) {
  return attack::repeats_then(input, n, output, copy_later);
}

} // namespace scan::student
