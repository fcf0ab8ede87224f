// The GPU's memory as the judge guards it beside a graded worker: what is
// free, and memory held for a trusted worker (the reference) so that a
// graded worker cannot take what the reference's calls allocate.
#pragma once

#include <cstddef>
#include <cstdint>

namespace judge {

// Free bytes of the judge's GPU now (every process's allocations counted).
std::size_t device_free_bytes();

// What a reference's call over n elements may allocate, with room: its
// scratch (the course's scan pads to a power of two) and its allocator's.
std::size_t reference_scratch_bytes(std::int64_t n);

// Device memory held in the judge's own context for a trusted worker:
// taken before the graded worker starts, let go just before each of the
// trusted worker's timed calls (every other worker is held still then, so
// none can take it) and taken back once it answered.
class DeviceReserve {
public:
  // Throws std::runtime_error when the GPU has not that much free.
  explicit DeviceReserve(std::size_t bytes);
  ~DeviceReserve();
  DeviceReserve(const DeviceReserve&) = delete;
  DeviceReserve& operator=(const DeviceReserve&) = delete;

  void release();
  // Throws std::runtime_error when it cannot be taken back.
  void retake();

private:
  void* block_ = nullptr;
  std::size_t bytes_ = 0;
};

} // namespace judge
