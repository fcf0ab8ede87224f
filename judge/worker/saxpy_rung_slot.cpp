// The saxpy slot done by one of cudaSaxpy's kernels (SAXPY_RUNG_course or
// SAXPY_RUNG_tuned, set by CMake), so the judge times our variants exactly
// as it times a student's kernel, in the course's trip.
#include "saxpy/saxpy.h"

namespace saxpy {

void launch_student_kernel(std::size_t n, float a, const float* d_x, const float* d_y,
                           float* d_result, cudaStream_t stream) {
#if defined(SAXPY_RUNG_course)
  launch_course_kernel(n, a, d_x, d_y, d_result, stream);
#elif defined(SAXPY_RUNG_tuned)
  launch_tuned_kernel(n, a, d_x, d_y, d_result, stream);
#else
#error "SAXPY_RUNG_course or SAXPY_RUNG_tuned names the kernel (CMake sets it)"
#endif
}

} // namespace saxpy
