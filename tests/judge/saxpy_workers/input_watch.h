// A watcher of the kernel calls' x array, as a worker that copied the
// inputs ahead would run: it counts the kernel calls whose new inputs it
// saw well before the call began (5 ms: time to copy much of them), and
// writes the count to the log at each call. The judge's trips come first
// (their x is the worker's own copy, made on the clock), then its kernel
// calls.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <thread>

namespace input_watch {

// What the watcher and the worker share (in one process, or mapped
// MAP_SHARED between a worker and its helper).
struct Watch {
  std::atomic<const float*> watched{nullptr};
  std::atomic<std::uint32_t> last_seen{0}; // x[0]'s bits, as the watcher saw them last
  std::atomic<std::int64_t> changed_at{0}; // when it saw them change (ns)
  std::atomic<bool> after_hold{false};     // seen first after a hold
};

inline std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

inline std::uint32_t bits(const float* x) {
  std::uint32_t b;
  std::memcpy(&b, x, sizeof b);
  return b;
}

// A gap between two of the watcher's looks longer than this means it was
// held (the judge's pause) or not scheduled: a change it then sees may have
// been made while it could not look.
constexpr std::int64_t kHeldNs = 2'000'000;
// How long before the call a change must have been seen to count as seen
// ahead: seen at a look just after the one before, 5 ms (time to copy much
// of the inputs); seen first after a hold, 50 ms, since on a busy machine
// the worker's main thread may take some ms after the resume to take the
// call, while a pause that let go of the worker too early still shows.
constexpr std::int64_t kAheadNs = 5'000'000;
constexpr std::int64_t kAheadAfterHoldNs = 50'000'000;

// The watcher's loop (it may fault once the worker unmaps the arrays at its
// end, after its last count).
[[noreturn]] inline void watch(Watch* w) {
  std::int64_t last_look = now_ns();
  for (;;) {
    const std::int64_t look = now_ns();
    if (const float* x = w->watched.load()) {
      const std::uint32_t b = bits(x);
      if (b != w->last_seen.load()) {
        w->after_hold = look - last_look >= kHeldNs;
        w->changed_at = look;
        w->last_seen = b;
      }
    }
    last_look = look;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

// At each call of the kernel: counts whether the watcher saw this call's
// inputs ahead, and says how many so far.
inline void on_call(Watch* w, const float* x) {
  static int calls = 0, kernel_calls = 0, ahead = 0;
  const std::int64_t entered = now_ns();
  if (++calls > 3) {
    ++kernel_calls;
    const std::int64_t lead = w->after_hold.load() ? kAheadAfterHoldNs : kAheadNs;
    if (w->last_seen.load() == bits(x) && entered - w->changed_at.load() > lead) ++ahead;
  }
  w->watched = x;
  w->last_seen = bits(x);
  w->after_hold = false;
  w->changed_at = entered;
  std::fprintf(stderr, "kernel calls whose inputs it saw ahead: %d of %d\n", ahead, kernel_calls);
}

} // namespace input_watch
