// Helpers the judge's pause must hold too: each forked helper's main thread
// ends, so /proc/PID/stat shows its leader as a zombie ('Z'), while its
// other thread runs on (the pause once read only that file, took 'Z' for a
// process that had ended and never stopped it). Each is in a session of its
// own (the scheduler's autogroups share the cores among sessions, so each
// one is a share): 64 burners and a monitor, which raises a shared flag
// while the worker that started them is stopped (held by the judge, so
// another worker, or its empty renderer, is being timed); the burners burn
// the cores while it is raised and sleep on it (a futex) while it is down.
#pragma once

#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <new>
#include <string>
#include <thread>

namespace zombie {

// 1 while the worker is stopped; a futex.
inline std::atomic<int>* burn = nullptr;

// The state letter of `pid` (its /proc/PID/stat), '?' if unreadable.
inline char state_of(pid_t pid) {
  char path[64], line[512];
  std::snprintf(path, sizeof path, "/proc/%d/stat", static_cast<int>(pid));
  FILE* f = std::fopen(path, "r");
  if (!f) return '?';
  const std::size_t got = std::fread(line, 1, sizeof line - 1, f);
  std::fclose(f);
  line[got] = '\0';
  const std::string s(line);
  const std::size_t close = s.rfind(')');
  return close == std::string::npos || close + 2 >= s.size() ? '?' : s[close + 2];
}

[[noreturn]] inline void monitor(pid_t worker) {
  for (;;) {
    const int now = state_of(worker) == 'T';
    if (burn->exchange(now) != now && now)
      syscall(SYS_futex, reinterpret_cast<int*>(burn), FUTEX_WAKE, 1 << 30, nullptr, nullptr, 0);
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}

[[noreturn]] inline void burner() {
  for (;;) {
    while (burn->load() == 0)
      syscall(SYS_futex, reinterpret_cast<int*>(burn), FUTEX_WAIT, 0, nullptr, nullptr, 0);
    for (volatile int spin = 0; spin < 20000; ++spin) {
    }
  }
}

// Starts the helpers once, watching the calling process.
inline void start_burners() {
  static const bool started = [] {
    const pid_t worker = getpid();
    void* shared = mmap(nullptr, sizeof(std::atomic<int>), PROT_READ | PROT_WRITE,
                        MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    burn = new (shared) std::atomic<int>(0);
    for (int i = 0; i <= 64; ++i)
      if (fork() == 0) {
        setsid();
        if (i == 0)
          std::thread(monitor, worker).detach();
        else
          std::thread(burner).detach();
        syscall(SYS_exit, 0); // this thread only: its leader a zombie, the other runs on
      }
    return true;
  }();
  (void)started;
}

} // namespace zombie
