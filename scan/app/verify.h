// Checking a device result against the serial reference, for the course's
// mode and --bench alike.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/device_buffer.h"
#include "options.h"

namespace scan_app {

// Copies what the call wrote from `out` (n items for scan, the count for
// find_repeats) into `result` (at least n long) and compares it with
// `expected` and `expected_count`. When wrong, prints the course's error line
// on stderr, with the first bad index and `label` at its end, and returns
// false.
bool verify_output(Test test, const common::DeviceBuffer<int>& out, std::int64_t n,
                   std::int64_t count, const std::vector<int>& expected,
                   std::int64_t expected_count, std::vector<int>& result, const std::string& label);

} // namespace scan_app
