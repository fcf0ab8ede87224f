// watch_inputs again, its watcher moved out of the pause's reach: a helper
// process whose main thread has ended, so that /proc/PID/stat shows its
// leader as a zombie ('Z'); the judge's pause takes that for a process that
// has ended and never sends it SIGSTOP, while its other thread runs on.
// The watcher looks at the kernel calls' x array, as one that copied the
// inputs ahead would, and counts the kernel calls whose new inputs it saw
// well before the call began (5 ms). With the pause whole it would see none
// (the judge's test expects 0 of 3 for watch_inputs); here it sees them all.
// Its results are honest.
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <new>
#include <thread>

#include "honest.h"
#include "saxpy/saxpy.h"

namespace {

using Clock = std::chrono::steady_clock;

// Shared between the worker and its helper (MAP_SHARED).
struct Watch {
  std::atomic<const float*> watched{nullptr};
  std::atomic<std::uint32_t> last_seen{0}; // x[0]'s bits, as the watcher saw them last
  std::atomic<std::int64_t> changed_at{0}; // when it saw them change (ns)
};
Watch* w = nullptr;

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch())
      .count();
}

std::uint32_t bits(const float* x) {
  std::uint32_t b;
  std::memcpy(&b, x, sizeof b);
  return b;
}

void watch() {
  for (;;) {
    if (const float* x = w->watched.load()) {
      const std::uint32_t b = bits(x);
      if (b != w->last_seen.load()) {
        w->changed_at = now_ns();
        w->last_seen = b;
      }
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

void start_helper() {
  void* p = mmap(nullptr, sizeof(Watch), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  w = new (p) Watch{};
  if (fork() == 0) {
    std::thread(watch).detach();
    syscall(SYS_exit, 0); // this thread only: the leader a zombie, the watcher runs on
  }
}

} // namespace

void saxpy::launch_student_kernel(std::size_t n, float a, const float* x, const float* y,
                                  float* result, cudaStream_t) {
  static int calls = 0, kernel_calls = 0, ahead = 0;
  static const bool started = [] {
    start_helper();
    return true;
  }();
  (void)started;
  const std::int64_t entered = now_ns();
  if (++calls > 3) {
    ++kernel_calls;
    if (w->last_seen.load() == bits(x) && entered - w->changed_at.load() > 5'000'000) ++ahead;
  }
  w->watched = x;
  w->last_seen = bits(x);
  w->changed_at = entered;
  std::fprintf(stderr, "kernel calls whose inputs it saw ahead: %d of %d\n", ahead, kernel_calls);
  honest::saxpy(n, a, x, y, result);
}
