// Device query: is there a usable GPU, and the course programs' device banner.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

namespace common {

struct DeviceInfo {
  int index = 0;
  std::string name;
  int sm_count = 0;
  std::size_t global_mem_bytes = 0;
  std::size_t l2_bytes = 0;
  int major = 0;
  int minor = 0;
};

// True when the runtime answers cudaGetDeviceCount with success and at least
// one device. A machine with the toolkit but no driver or GPU answers with an
// error status, which counts as "no device".
bool has_cuda_device();

// Why there is no usable device ("no CUDA-capable device is detected", ...);
// empty when there is one.
std::string no_device_reason();

// The one wording of it that every program prints: "no CUDA device
// available: REASON"; empty when there is a device.
std::string no_device_message();

// Throws std::runtime_error(no_device_message()) when there is no usable
// device.
void require_cuda_device();

// Asks the CUDA runtime to load every kernel when it makes its context
// (CUDA_MODULE_LOADING=EAGER) unless the caller chose a mode. Call before
// any CUDA call. The default, lazy loading, charges each kernel's first
// launch, so a program's first timed frame or run paid it: the course's
// programs, built before lazy loading was the default, never did.
void load_kernels_eagerly();

// Every device's properties; throws CudaError when the runtime fails.
std::vector<DeviceInfo> query_devices();

// The course programs' banner: a rule, "Found N CUDA devices", then per device
// its name, SMs, global memory and compute capability, and a rule.
void print_device_banner(std::ostream& out);

// "NVIDIA H200 (132 SMs, sm_90)" for device 0, or "no GPU".
std::string short_device_name();

} // namespace common
