// The algorithms behind exclusive_scan and find_repeats, selectable at run time.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace scan {

// One name per algorithm, the same for both calls, in ladder order (the
// textbook's first scan to the library). A handout holds the last two
// alone (make_handout.sh cuts the suite's own):
// suite-only
//   kogge-stone  scan: the work-inefficient Kogge-Stone (Hillis-Steele) scan, per block in
//                shared memory, block sums scanned the same way.
//                find_repeats: the course's composition (flags, kogge-stone scan, scatter).
//   blelloch     scan: the course's work-efficient up-sweep/down-sweep, one launch per level.
//                find_repeats: the course's composition (flags, blelloch scan, scatter).
//   single-pass  scan: one kernel with decoupled look-back.
//                find_repeats: one fused kernel (flag, block scan, look-back, compacted store).
// /suite-only
//   cub          the library: cub::DeviceScan::ExclusiveSum, cub::DeviceSelect::If.
//   student      the student slot, scan/student/student_scan.cu (not in all_algorithms()).
enum class Algorithm {
  // suite-only
  kKoggeStone,
  kBlelloch,
  kSinglePass,
  // /suite-only
  kCub,
  kStudent
};

// In a handout (cmake/Handout.cmake) the course's default is the student slot.
#ifdef SUITE_HANDOUT
constexpr Algorithm kDefaultAlgorithm = Algorithm::kStudent;
// suite-only
#else
constexpr Algorithm kDefaultAlgorithm = Algorithm::kSinglePass;
// /suite-only
#endif

const char* algorithm_name(Algorithm algorithm);

// All algorithms, in the order tables list them.
std::vector<Algorithm> all_algorithms();

// Their names, comma-separated, in that order.
// "kogge-stone, blelloch, single-pass, cub" // suite-only
std::string algorithm_names();

// The algorithm of that name (student included), or nothing.
std::optional<Algorithm> find_algorithm(const std::string& name);

} // namespace scan
