// watch_inputs again, its watcher (input_watch.h) moved into a helper
// process whose main thread has ended, so that /proc/PID/stat shows its
// leader as a zombie ('Z'); the judge's pause once took that for a process
// that had ended and never sent it SIGSTOP, while its other thread ran on
// and saw every call's inputs ahead. With the pause whole it sees none (the
// judge's test expects 0 of 3, as for watch_inputs). Its results are honest.
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <new>
#include <thread>

#include "honest.h"
#include "input_watch.h"
#include "saxpy/saxpy.h"

namespace {
input_watch::Watch* start_helper() {
  void* p = mmap(nullptr, sizeof(input_watch::Watch), PROT_READ | PROT_WRITE,
                 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  auto* w = new (p) input_watch::Watch{};
  if (fork() == 0) {
    std::thread(input_watch::watch, w).detach();
    syscall(SYS_exit, 0); // this thread only: the leader a zombie, the watcher runs on
  }
  return w;
}
} // namespace

void saxpy::launch_student_kernel(std::size_t n, float a, const float* x, const float* y,
                                  float* result, cudaStream_t) {
  static input_watch::Watch* const w = start_helper();
  input_watch::on_call(w, x);
  honest::saxpy(n, a, x, y, result);
}
