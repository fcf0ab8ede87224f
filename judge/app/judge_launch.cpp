// Runs inside a worker's sandbox, between bubblewrap and the worker: sets
// the worker's task limit (RLIMIT_NPROC, soft and hard) and becomes the
// worker. Set there, after bubblewrap made the sandbox's user namespace,
// the kernel (Linux 5.14 and later) counts it against the tasks of that
// namespace alone: the worker's own, not every process of its user, so a
// worker holding all it may take leaves another sandbox's worker of the
// same user its own (judge/src/sandbox.cpp). Trusted, and small on purpose.
//
// Usage: judge_launch TASKS PROGRAM [ARGS...]
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fputs("usage: judge_launch TASKS PROGRAM [ARGS...]\n", stderr);
    return 127;
  }
  char* end = nullptr;
  errno = 0;
  const long tasks = std::strtol(argv[1], &end, 10);
  if (errno != 0 || *end != '\0' || tasks < 1) {
    std::fprintf(stderr, "judge_launch: TASKS must be a positive number, not '%s'\n", argv[1]);
    return 127;
  }
  const rlimit limit{static_cast<rlim_t>(tasks), static_cast<rlim_t>(tasks)};
  if (setrlimit(RLIMIT_NPROC, &limit) != 0) {
    std::fprintf(stderr, "judge_launch: cannot set the task limit: %s\n", std::strerror(errno));
    return 127;
  }
  execv(argv[2], argv + 2);
  std::fprintf(stderr, "judge_launch: cannot run %s: %s\n", argv[2], std::strerror(errno));
  return 127;
}
