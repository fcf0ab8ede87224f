// Helpers that undo the judge's pause: each burns the cores without end and
// keeps two "alarm" children made with clone(SIGCONT), so a child's death
// sends the helper SIGCONT; each alarm's own POSIX timer kills it (SIGKILL
// reaches a stopped process) a few ms after it starts, and the helper,
// woken by its SIGCONT handler, starts another. So the kernel ends a
// helper's stop a few ms after the judge's pause saw it stopped. Each is
// in a session of its own. The judge must reject the worker for running
// while held (Worker::held_still).
#pragma once

#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

namespace sigcont {

inline void on_continue(int) {}

// A child that dies of its own timer's SIGKILL `ms` milliseconds on,
// stopped or not; its exit signal, the one its parent gets, is SIGCONT.
// Returns once the timer is armed.
inline pid_t start_alarm(long ms) {
  int armed[2];
  if (pipe(armed) != 0) return -1;
  const pid_t pid = static_cast<pid_t>(syscall(SYS_clone, SIGCONT, 0, 0, 0, 0));
  if (pid != 0) {
    char byte;
    close(armed[1]);
    while (read(armed[0], &byte, 1) < 0) {
    }
    close(armed[0]);
    return pid;
  }
  sigevent ev{};
  ev.sigev_notify = SIGEV_SIGNAL;
  ev.sigev_signo = SIGKILL;
  timer_t timer;
  timer_create(CLOCK_MONOTONIC, &ev, &timer);
  const itimerspec once{{0, 0}, {0, ms * 1000000}};
  timer_settime(timer, 0, &once, nullptr);
  if (write(armed[1], "!", 1) != 1) _exit(1);
  for (;;) pause();
}

inline double now_ms() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

// A helper: spins forever, keeping two alarms alive. The SIGCONT of each
// one's death ends the stop the judge's SIGSTOP made. (It needs a handler:
// SIGCONT ignored, its default, is dropped before it can end a stop.) An
// alarm stopped before it armed its timer never dies alone: the helper
// kills it once it is late.
[[noreturn]] inline void helper() {
  setsid();
  signal(SIGCONT, on_continue);
  pid_t alarms[2];
  double born[2];
  for (int i = 0; i < 2; ++i) {
    alarms[i] = start_alarm(5 + i);
    born[i] = now_ms();
  }
  for (;;) {
    for (int i = 0; i < 2; ++i) {
      int status;
      const bool gone = waitpid(alarms[i], &status, WNOHANG | __WALL) == alarms[i];
      if (!gone && now_ms() - born[i] > 20) kill(alarms[i], SIGKILL);
      if (gone) {
        alarms[i] = start_alarm(5);
        born[i] = now_ms();
      }
    }
    for (volatile int spin = 0; spin < 20000; ++spin) {
    }
  }
}

// Forks `count` helpers; call it while the process is a single thread.
inline void start_helpers(int count) {
  for (int i = 0; i < count; ++i)
    if (fork() == 0) helper();
}

} // namespace sigcont
