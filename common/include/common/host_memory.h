// Checking that a run fits in host memory before allocating it: a vector too
// large for the machine does not always throw; the kernel may kill the
// process instead, with no message.
#pragma once

#include <cstddef>
#include <string>

namespace common {

// Bytes of host memory available to a new allocation (Linux's MemAvailable),
// or 0 when the system does not say.
std::size_t available_host_memory();

// Throws std::runtime_error naming the bytes needed and available when
// `bytes` will not fit; does nothing when the system does not say. `what`
// says what needs them ("-n 100 (input, reference, result)").
void require_host_memory(std::size_t bytes, const std::string& what);

} // namespace common
