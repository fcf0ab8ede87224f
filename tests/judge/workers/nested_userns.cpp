// Makes a user namespace of its own inside the sandbox (the first step to
// a cgroup namespace of its own, new mounts, and the kernel's namespaced
// code): the work is done only if it can (the sandbox forbids it).
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include "honest.h"
#include "slot.h"

namespace {
bool can_make_user_namespace() {
  // In a child, so the worker's own namespace stays as it is.
  const pid_t child = fork();
  if (child < 0) return false;
  if (child == 0) _exit(unshare(CLONE_NEWUSER) == 0 ? 0 : 1);
  int status = 0;
  return waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}
} // namespace

SLOT_IF_ATTACK_WORKS(can_make_user_namespace)
