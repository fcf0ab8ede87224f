// Does the work honestly, and leaves a daemon behind (its own session, named
// judge-leftover) that would outlive the worker.
#include <sys/prctl.h>
#include <unistd.h>

#include "honest.h"
#include "slot.h"

namespace {
bool leave_daemon() {
  static bool left = false;
  if (left) return true;
  left = true;
  if (fork() == 0) {
    setsid();
    if (fork() == 0) {
      prctl(PR_SET_NAME, "judge-leftover");
      for (;;) sleep(1);
    }
    _exit(0);
  }
  return true;
}
} // namespace

SLOT_IF_ATTACK_WORKS(leave_daemon)
