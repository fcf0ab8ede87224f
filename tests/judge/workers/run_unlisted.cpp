// Runs a reference program found where nothing hides it (as the original
// handout's ref/ would be on the grading machine); the work is done only if
// it ran.
#include <sys/wait.h>
#include <unistd.h>

#include "honest.h"
#include "slot.h"

namespace {
bool run_reference() {
  const pid_t pid = fork();
  if (pid == 0) {
    execl(JUDGE_TEST_TARGETS "/visible/ref_program", "ref_program", static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
         WEXITSTATUS(status) == 0;
}
} // namespace

SLOT_IF_ATTACK_WORKS(run_reference)
