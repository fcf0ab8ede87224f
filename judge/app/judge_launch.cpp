// Runs inside a worker's sandbox, between bubblewrap and the worker: sets
// the worker's task limit (RLIMIT_NPROC, soft and hard) and becomes the
// worker. Set there, after bubblewrap made the sandbox's user namespace,
// the kernel (Linux 5.14 and later) counts it against the tasks of that
// namespace alone: the worker's own, not every process of its user, so a
// worker holding all it may take leaves another sandbox's worker of the
// same user its own (judge/host/worker_life.cpp). Where the sandbox made no
// user namespace (the judge's is given), it refuses: the limit would count
// every process of the user, and the judge then uses its shared limit.
// Trusted, and small on purpose.
//
// Usage: judge_launch TASKS JUDGE_USER_NAMESPACE PROGRAM [ARGS...]
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {
long long number(const char* text) {
  char* end = nullptr;
  errno = 0;
  const long long n = std::strtoll(text, &end, 10);
  return errno != 0 || *end != '\0' || n < 1 ? -1 : n;
}
} // namespace

int main(int argc, char** argv) {
  const long long tasks = argc < 4 ? -1 : number(argv[1]);
  const long long judge_ns = argc < 4 ? -1 : number(argv[2]);
  if (tasks < 1 || judge_ns < 1) {
    std::fputs("usage: judge_launch TASKS JUDGE_USER_NAMESPACE PROGRAM [ARGS...]\n", stderr);
    return 127;
  }
  struct stat own {};
  if (stat("/proc/self/ns/user", &own) != 0 || static_cast<long long>(own.st_ino) == judge_ns) {
    std::fputs("judge_launch: the sandbox made no user namespace of its own\n", stderr);
    return 126;
  }
  // Never above the hard limit it was given: that cannot be raised.
  rlimit limit{};
  if (getrlimit(RLIMIT_NPROC, &limit) != 0) limit.rlim_max = RLIM_INFINITY;
  const rlim_t n =
      limit.rlim_max < static_cast<rlim_t>(tasks) ? limit.rlim_max : static_cast<rlim_t>(tasks);
  limit = {n, n};
  if (setrlimit(RLIMIT_NPROC, &limit) != 0) {
    std::fprintf(stderr, "judge_launch: cannot set the task limit: %s\n", std::strerror(errno));
    return 126;
  }
  execv(argv[3], argv + 3);
  std::fprintf(stderr, "judge_launch: cannot run %s: %s\n", argv[3], std::strerror(errno));
  return 127;
}
