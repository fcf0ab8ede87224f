// A fill of saxpy/student/student_saxpy.cu that never returns, as a slot
// stuck in a loop whose end never comes: scripts/gpu_class.sh hands it in
// to show that grade_class.sh's --grade-timeout stops such a grade. It
// sleeps rather than spins, so the machine stays free for other work. Not
// part of any handout.
#include <chrono>
#include <thread>

#include "saxpy/saxpy.h"

namespace saxpy {

void launch_student_kernel(std::size_t, float, const float*, const float*, float*, cudaStream_t) {
  for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
}

} // namespace saxpy
