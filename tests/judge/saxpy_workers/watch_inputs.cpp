// A thread that watches the kernel calls' x array (input_watch.h), as one
// that copied the inputs ahead would. Where the worker ran while the judge
// wrote them, it sees every such call's. The judge holds the worker still
// from before the writes until its clock runs, so it sees none. Its results
// are honest.
#include <thread>

#include "honest.h"
#include "input_watch.h"
#include "saxpy/saxpy.h"

void saxpy::launch_student_kernel(std::size_t n, float a, const float* x, const float* y,
                                  float* result, cudaStream_t) {
  static input_watch::Watch w;
  static const bool started = [] {
    std::thread(input_watch::watch, &w).detach();
    return true;
  }();
  (void)started;
  input_watch::on_call(&w, x);
  honest::saxpy(n, a, x, y, result);
}
