// Takes every process it may, and holds them: under a limit that all of a
// user's workers share (RLIMIT_NPROC), another student's worker graded
// beside it can then start no thread. Its own answers are honest and slow,
// so it holds them for its whole grade.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <thread>

#include "honest.h"
#include "slot.h"

namespace {

void take_processes() {
  static bool taken = false;
  if (taken) return;
  taken = true;
  int held = 0;
  for (;;) {
    const pid_t pid = fork();
    if (pid < 0) break;
    if (pid == 0) {
      sleep(30);
      _exit(0);
    }
    ++held;
  }
  std::fprintf(stderr, "hold_processes: holding %d processes\n", held);
}

void slowly() {
  take_processes();
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
}

} // namespace

namespace scan::student {

void exclusive_scan(const int* input, int n, int* result) {
  slowly();
  honest::scan(input, n, result);
}

int find_repeats(const int* input, int n, int* output) {
  slowly();
  return honest::find_repeats(input, n, output);
}

} // namespace scan::student
