// Stands in for the suite's scan kernels in a handout (cmake/Handout.cmake):
// the student writes their own in student_scan.cu. The library (cub) stays,
// as the course's handout keeps Thrust for -t.
#include <stdexcept>
#include <string>

#include "kernels.h"

namespace scan::detail {

namespace {

[[noreturn]] void not_handed_out(const char* algorithm) {
  throw std::runtime_error(std::string("-a ") + algorithm +
                           " is not part of the handout: run -a student (the default), your "
                           "code in scan/student/student_scan.cu, or cudaScan_ref to compare");
}

} // namespace

std::int64_t single_pass_scan_tiles(std::int64_t) {
  not_handed_out("single-pass");
}
std::int64_t fused_repeats_tiles(std::int64_t) {
  not_handed_out("single-pass");
}
std::size_t kogge_stone_scratch_elements(std::int64_t) {
  not_handed_out("kogge-stone");
}
void kogge_stone_scan(const unsigned*, unsigned*, std::int64_t, unsigned*, cudaStream_t) {
  not_handed_out("kogge-stone");
}
void blelloch_scan(const unsigned*, unsigned*, std::int64_t, unsigned*, cudaStream_t) {
  not_handed_out("blelloch");
}
void single_pass_scan(const unsigned*, unsigned*, std::int64_t, const LookbackState&,
                      cudaStream_t) {
  not_handed_out("single-pass");
}
void composed_find_repeats(const int*, std::int64_t, int*, std::int64_t*, unsigned*, ComposedScan,
                           unsigned*, cudaStream_t) {
  not_handed_out("kogge-stone or blelloch");
}
void fused_find_repeats(const int*, std::int64_t, int*, std::int64_t*, const LookbackState&,
                        cudaStream_t) {
  not_handed_out("single-pass");
}

} // namespace scan::detail
