// Runs a reference program (planted by the test in a folder the judge
// hides); the work is done only if it ran.
#include <sys/wait.h>
#include <unistd.h>

#include "honest.h"
#include "slot.h"

namespace {
bool run_reference() {
  const pid_t pid = fork();
  if (pid == 0) {
    execl(JUDGE_TEST_TARGETS "/hidden/ref_program", "ref_program", static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
         WEXITSTATUS(status) == 0;
}
} // namespace

SLOT_IF_ATTACK_WORKS(run_reference)
