// A worker's life: started in its sandbox with its limits and cgroups,
// then polled, waited for and killed, with what ended it in words.
#include <fcntl.h>
#include <grp.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <dirent.h>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <utility>

#include "judge/sandbox.h"
#include "sandbox_view.h"

namespace judge {

namespace {

constexpr uid_t kNobody = 65534;

// Tasks (threads included) that belong to `uid` now: RLIMIT_NPROC counts them
// all, so the worker's allowance comes on top.
int tasks_of(uid_t uid) {
  int count = 0;
  DIR* proc = opendir("/proc");
  if (!proc) return 0;
  while (const dirent* e = readdir(proc)) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    struct stat st {};
    const std::string dir = std::string("/proc/") + e->d_name;
    if (stat(dir.c_str(), &st) != 0 || st.st_uid != uid) continue;
    if (DIR* tasks = opendir((dir + "/task").c_str())) {
      while (const dirent* t = readdir(tasks))
        if (t->d_name[0] != '.') ++count;
      closedir(tasks);
    }
  }
  closedir(proc);
  return count;
}

std::string describe_status(int status, bool through_bwrap, std::int64_t output_limit) {
  int signal_number = 0;
  if (WIFSIGNALED(status)) signal_number = WTERMSIG(status);
  // bubblewrap reports a child killed by signal S as exit status 128 + S.
  else if (WIFEXITED(status) && through_bwrap && WEXITSTATUS(status) > 128)
    signal_number = WEXITSTATUS(status) - 128;
  if (signal_number == SIGXFSZ)
    return "wrote more than " + std::to_string(output_limit) + " bytes of output";
  if (signal_number != 0) {
    const char* name = sigabbrev_np(signal_number);
    return std::string("killed by SIG") + (name ? name : std::to_string(signal_number).c_str());
  }
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  return "ended (wait status " + std::to_string(status) + ")";
}

std::vector<char*> c_strings(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (std::string& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

} // namespace

Worker Worker::start(const std::vector<std::string>& argv, const std::vector<int>& inherit,
                     const std::string& log_path, const SandboxOptions& options,
                     const SandboxPlan& plan) {
  if (argv.empty() || argv[0].empty() || argv[0][0] != '/')
    throw std::invalid_argument("worker: the program needs an absolute path");
  // Its cgroups, joined by the child before it drops to nobody. Its own
  // task count there makes the per-user RLIMIT_NPROC, which every worker of
  // the user shares, needless.
  cgroups::WorkerGroups groups(
      {plan.memory_cgroup_parent, plan.memory_cgroup_v2}, options.memory_limit_mib << 20,
      {plan.pids_cgroup_parent, plan.pids_cgroup_v2}, options.max_processes,
      {plan.freezer_cgroup_parent, plan.freezer_cgroup_v2});
  auto reachable = [&](const std::string& program) {
    return plan.sandboxed && plan.drop_to_nobody ? view::reachable_copy(program) : program;
  };
  std::vector<std::string> program_argv = argv;
  program_argv[0] = reachable(argv[0]);
  std::vector<std::string> programs = {program_argv[0]};
  // Without a pids cgroup of its own, its task limit is set inside the
  // sandbox, where its user namespace's tasks alone count against it.
  const bool launched = plan.launcher_limits_tasks && !groups.limits_tasks();
  if (launched) {
    programs.push_back(reachable(options.launcher));
    struct stat ns {};
    const auto judge_ns = stat("/proc/self/ns/user", &ns) == 0 ? ns.st_ino : 0;
    program_argv.insert(
        program_argv.begin(),
        {programs.back(), std::to_string(options.max_processes), std::to_string(judge_ns)});
  }
  std::vector<std::string> command =
      plan.sandboxed ? view::bwrap_command(program_argv, programs, options, plan.disable_userns)
                     : program_argv;
  std::vector<char*> c_argv = c_strings(command);
  const int log = open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (log < 0) throw std::system_error(errno, std::generic_category(), "cannot open " + log_path);
  const int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

  // Limits: set in the child before exec, inherited by bubblewrap and all
  // the worker starts.
  const rlimit nofile{static_cast<rlim_t>(options.max_open_files),
                      static_cast<rlim_t>(options.max_open_files)};
  const rlimit fsize{static_cast<rlim_t>(options.output_limit_bytes),
                     static_cast<rlim_t>(options.output_limit_bytes)};
  const rlim_t data_bytes = options.memory_limit_mib > 0
                                ? static_cast<rlim_t>(options.memory_limit_mib) << 20
                                : RLIM_INFINITY;
  const rlimit data{data_bytes, data_bytes};
  const rlimit core{0, 0};

  const std::vector<int> joins = groups.joins();
  const bool shared_nproc = !groups.limits_tasks() && !launched;
  const uid_t uid = plan.drop_to_nobody ? kNobody : getuid();
  const rlim_t processes =
      shared_nproc ? static_cast<rlim_t>(tasks_of(uid) + options.max_processes) : RLIM_INFINITY;
  const rlimit nproc{processes, processes};

  // The judge's handlers (which thaw its workers' freezers by descriptor)
  // must not run in the child, whose descriptors change before the exec.
  sigset_t all, before;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &before);
  const pid_t pid = fork();
  if (pid == 0) {
    for (int signal_number = 1; signal_number < NSIG; ++signal_number) {
      struct sigaction current {};
      if (sigaction(signal_number, nullptr, &current) == 0 && current.sa_handler != SIG_IGN &&
          current.sa_handler != SIG_DFL)
        signal(signal_number, SIG_DFL);
    }
  }
  pthread_sigmask(SIG_SETMASK, &before, nullptr);
  if (pid < 0) {
    close(log);
    close(null);
    throw std::system_error(errno, std::generic_category(), "fork");
  }
  if (pid == 0) {
    // Only system calls from here: the parent may have threads.
    setpgid(0, 0);
    for (const int join : joins)
      if (write(join, "0", 1) != 1) _exit(125);
    std::vector<int> high(inherit.size());
    for (std::size_t i = 0; i < inherit.size(); ++i) high[i] = fcntl(inherit[i], F_DUPFD, 100);
    dup2(null, 0);
    dup2(log, 1);
    dup2(log, 2);
    for (std::size_t i = 0; i < high.size(); ++i) dup2(high[i], 3 + static_cast<int>(i));
    close_range(3 + static_cast<unsigned>(high.size()), ~0u, 0);
    setrlimit(RLIMIT_NOFILE, &nofile);
    setrlimit(RLIMIT_FSIZE, &fsize);
    setrlimit(RLIMIT_DATA, &data);
    setrlimit(RLIMIT_CORE, &core);
    if (plan.drop_to_nobody) {
      if (setgroups(0, nullptr) != 0 || setgid(kNobody) != 0 || setuid(kNobody) != 0) _exit(126);
    }
    if (shared_nproc) setrlimit(RLIMIT_NPROC, &nproc);
    execv(c_argv[0], c_argv.data());
    _exit(127);
  }
  close(log);
  close(null);
  groups.close_joins();
  Worker w;
  w.pid_ = pid;
  w.output_limit_ = options.output_limit_bytes;
  w.through_bwrap_ = plan.sandboxed;
  w.groups_ = std::move(groups);
  w.memory_limit_mib_ = options.memory_limit_mib;
  return w;
}

Worker::Worker(Worker&& other) noexcept
    : pid_(std::exchange(other.pid_, -1)), output_limit_(other.output_limit_),
      through_bwrap_(other.through_bwrap_), groups_(std::move(other.groups_)),
      memory_limit_mib_(other.memory_limit_mib_), ended_(std::move(other.ended_)),
      stopped_(std::move(other.stopped_)), frozen_(std::exchange(other.frozen_, false)),
      held_cpu_ns_(std::move(other.held_cpu_ns_)) {}

Worker& Worker::operator=(Worker&& other) noexcept {
  if (this != &other) {
    kill();
    pid_ = std::exchange(other.pid_, -1);
    output_limit_ = other.output_limit_;
    through_bwrap_ = other.through_bwrap_;
    groups_ = std::move(other.groups_);
    memory_limit_mib_ = other.memory_limit_mib_;
    ended_ = std::move(other.ended_);
    stopped_ = std::move(other.stopped_);
    held_cpu_ns_ = std::move(other.held_cpu_ns_);
    frozen_ = std::exchange(other.frozen_, false);
  }
  return *this;
}

Worker::~Worker() {
  kill();
}

std::optional<std::string> Worker::reap(int flags) {
  if (ended_ || pid_ < 0) return ended_;
  int status = 0;
  pid_t r;
  do r = waitpid(pid_, &status, flags);
  while (r < 0 && errno == EINTR);
  if (r == 0) return std::nullopt;
  // Whatever it left in its process group goes with it.
  kill_group();
  ended_ = r < 0 ? std::string("vanished") : describe_status(status, through_bwrap_, output_limit_);
  if (groups_.memory_exceeded())
    ended_ = "went over its memory limit of " + std::to_string(memory_limit_mib_) +
             " MiB, shared memory included (" + *ended_ + ")";
  groups_.remove();
  return ended_;
}

std::optional<std::string> Worker::poll() {
  return reap(WNOHANG);
}

std::string Worker::finish(double seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < deadline) {
    if (auto ended = poll()) return *ended;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  kill();
  return "did not end within " + std::to_string(seconds) + " s";
}

void Worker::kill() {
  if (pid_ < 0 || ended_) return;
  kill_group();
  reap(0);
}

void Worker::kill_group() {
  ::kill(-pid_, SIGKILL);
  // Frozen on cgroup v1, a task takes its SIGKILL only once thawed.
  if (frozen_) groups_.freeze(false);
  frozen_ = false;
}

} // namespace judge
