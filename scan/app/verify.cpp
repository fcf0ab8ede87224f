#include "verify.h"

#include <algorithm>
#include <cstdio>

#include "scan/reference.h"

namespace scan_app {

bool verify_output(Test test, const common::DeviceBuffer<int>& out, std::int64_t n,
                   std::int64_t count, const std::vector<int>& expected,
                   std::int64_t expected_count, std::vector<int>& result,
                   const std::string& label) {
  const std::int64_t compared =
      test == Test::kScan ? n : std::clamp<std::int64_t>(std::min(count, expected_count), 0, n);
  out.copy_to_host(result.data(), static_cast<std::size_t>(compared));
  // The first wrong output index, or where the shorter list of repeats ends.
  const std::int64_t bad = scan::first_mismatch(result.data(), expected.data(), compared);
  if (test == Test::kFindRepeats && count != expected_count) {
    std::fprintf(stderr,
                 "Error: Device find_repeats outputs incorrect! Expected %lld repeats, got "
                 "%lld; first bad output index %lld%s\n",
                 static_cast<long long>(expected_count), static_cast<long long>(count),
                 static_cast<long long>(bad), label.c_str());
    return false;
  }
  if (bad != compared) {
    std::fprintf(stderr,
                 "Error: Device %s outputs incorrect! First mismatch at index %lld: expected %d, "
                 "got %d%s\n",
                 test == Test::kScan ? "exclusive_scan" : "find_repeats",
                 static_cast<long long>(bad), expected[static_cast<std::size_t>(bad)],
                 result[static_cast<std::size_t>(bad)], label.c_str());
    return false;
  }
  return true;
}

} // namespace scan_app
