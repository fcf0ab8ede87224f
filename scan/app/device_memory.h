// Checking that a run fits in device memory before allocating it.
#pragma once

#include <cstddef>
#include <string>

namespace scan_app {

// Bytes of device memory free now.
std::size_t free_device_memory();

// Throws std::runtime_error naming the bytes needed and free when `bytes`
// will not fit. `what` says what needs them ("-n 100 (input, output, scratch)").
void require_device_memory(std::size_t bytes, const std::string& what);

} // namespace scan_app
