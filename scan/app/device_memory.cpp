#include "device_memory.h"

#include <cuda_runtime_api.h>

#include <stdexcept>

#include "common/cuda_check.h"

namespace scan_app {

std::size_t free_device_memory() {
  std::size_t free = 0, total = 0;
  CUDA_CHECK(cudaMemGetInfo(&free, &total));
  return free;
}

void require_device_memory(std::size_t bytes, const std::string& what) {
  const std::size_t free = free_device_memory();
  if (bytes > free)
    throw std::runtime_error(what + " needs " + std::to_string(bytes) +
                             " bytes of device memory, but the device has " + std::to_string(free) +
                             " bytes free");
}

} // namespace scan_app
