// A thread that watches the kernel calls' x array, as one that copied the
// inputs ahead would, and counts the kernel calls whose new inputs it saw
// well before the call began (5 ms: time to copy much of them). Where the
// worker ran while the judge wrote them, it sees every such call's. The
// judge holds the worker still from before the writes until its clock
// runs, so it sees none. The count goes to its log; its results are
// honest; its thread may fault once the worker unmaps the arrays at its
// end, after its last count. The judge's trips come first (their x is the worker's own copy,
// made on the clock), then its kernel calls.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <thread>

#include "honest.h"
#include "saxpy/saxpy.h"

namespace {

using Clock = std::chrono::steady_clock;

std::atomic<const float*> watched{nullptr};
std::atomic<std::uint32_t> last_seen{0}; // x[0]'s bits, as the watcher saw them last
std::atomic<std::int64_t> changed_at{0}; // when it saw them change (ns)

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
    if (const float* x = watched.load()) {
      const std::uint32_t b = bits(x);
      if (b != last_seen.load()) {
        changed_at = now_ns();
        last_seen = b;
      }
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

} // namespace

void saxpy::launch_student_kernel(std::size_t n, float a, const float* x, const float* y,
                                  float* result, cudaStream_t) {
  static int calls = 0, kernel_calls = 0, ahead = 0;
  static const bool started = [] {
    std::thread(watch).detach();
    return true;
  }();
  (void)started;
  const std::int64_t entered = now_ns();
  if (++calls > 3) {
    ++kernel_calls;
    if (last_seen.load() == bits(x) && entered - changed_at.load() > 5'000'000) ++ahead;
  }
  watched = x;
  last_seen = bits(x);
  changed_at = entered;
  std::fprintf(stderr, "kernel calls whose inputs it saw ahead: %d of %d\n", ahead, kernel_calls);
  honest::saxpy(n, a, x, y, result);
}
