#include "common/device.h"

#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "common/cuda_check.h"

namespace common {

bool has_cuda_device() {
  return no_device_reason().empty();
}

std::string no_device_reason() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    (void)cudaGetLastError();
    if (status == cudaErrorNoDevice || status == cudaErrorInsufficientDriver)
      return std::string("no NVIDIA GPU or driver found (") + cudaGetErrorString(status) + ")";
    return cudaGetErrorString(status);
  }
  if (count == 0) return "no CUDA-capable device is detected";
  return {};
}

std::string no_device_message() {
  const std::string reason = no_device_reason();
  return reason.empty() ? reason : "no CUDA device available: " + reason;
}

void load_kernels_eagerly() {
  setenv("CUDA_MODULE_LOADING", "EAGER", 0);
}

void require_cuda_device() {
  const std::string message = no_device_message();
  if (!message.empty()) throw std::runtime_error(message);
}

std::vector<DeviceInfo> query_devices() {
  int count = 0;
  CUDA_CHECK(cudaGetDeviceCount(&count));
  std::vector<DeviceInfo> devices;
  for (int i = 0; i < count; ++i) {
    cudaDeviceProp props{};
    CUDA_CHECK(cudaGetDeviceProperties(&props, i));
    DeviceInfo info;
    info.index = i;
    info.name = props.name;
    info.sm_count = props.multiProcessorCount;
    info.global_mem_bytes = props.totalGlobalMem;
    info.l2_bytes = static_cast<std::size_t>(props.l2CacheSize);
    info.major = props.major;
    info.minor = props.minor;
    devices.push_back(info);
  }
  return devices;
}

void print_device_banner(std::ostream& out) {
  const std::vector<DeviceInfo> devices = query_devices();
  char line[256];
  out << "---------------------------------------------------------\n";
  out << "Found " << devices.size() << " CUDA devices\n";
  for (const DeviceInfo& d : devices) {
    out << "Device " << d.index << ": " << d.name << '\n';
    out << "   SMs:        " << d.sm_count << '\n';
    std::snprintf(line, sizeof line, "   Global mem: %.0f MB\n",
                  static_cast<double>(d.global_mem_bytes) / (1024.0 * 1024.0));
    out << line;
    out << "   CUDA Cap:   " << d.major << '.' << d.minor << '\n';
  }
  out << "---------------------------------------------------------\n";
}

std::string short_device_name() {
  if (!has_cuda_device()) return "no GPU";
  const DeviceInfo d = query_devices().front();
  return d.name + " (" + std::to_string(d.sm_count) + " SMs, sm_" + std::to_string(d.major) +
         std::to_string(d.minor) + ")";
}

} // namespace common
