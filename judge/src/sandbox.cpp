#include "judge/sandbox.h"

#include <dirent.h>
#include <fcntl.h>
#include <glob.h>
#include <grp.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <utility>

namespace judge {

namespace {

constexpr uid_t kNobody = 65534;

bool exists(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0;
}

bool is_folder(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

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

// The program a name runs: itself when it holds a '/', else the first match
// on PATH (exec in the child must not search).
std::string find_program(const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    const std::size_t end = std::min(dirs.find(':', start), dirs.size());
    const std::string candidate = dirs.substr(start, end - start) + "/" + name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  throw std::runtime_error(name + " is not installed (Debian: apt-get install bubblewrap)");
}

// Whether bubblewrap's help lists `option` (0.8.0 added --disable-userns).
bool bwrap_has(const std::string& bwrap, const std::string& option) {
  std::string quoted = "'";
  for (const char c : bwrap) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  FILE* help = popen((quoted + "' --help 2>&1").c_str(), "r");
  if (!help) return false;
  std::string text;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, help)) > 0;) text.append(buffer, n);
  pclose(help);
  return text.find(option + " ") != std::string::npos;
}

void pass_env(std::vector<std::string>& args, const char* name) {
  if (const char* value = std::getenv(name)) {
    args.insert(args.end(), {"--setenv", name, value});
  }
}

// The program the sandbox runs: as nobody, bubblewrap may not enter the
// folders that hold the worker (a 0700 temporary folder, as the handout
// test's clone and the class grader's copies are), so the judge runs a copy
// of it from a folder of its own that anyone may enter, made once per
// program and removed when the judge ends. (A copy bubblewrap made itself
// would count against the output limit, which is a file size limit.)
std::mutex copies_mutex;
std::map<std::string, std::string> program_copies; // program -> its copy

void remove_copies() {
  for (const auto& [program, copy] : program_copies) {
    std::remove(copy.c_str());
    rmdir(copy.substr(0, copy.rfind('/')).c_str());
  }
}

std::string reachable_copy(const std::string& program) {
  std::lock_guard<std::mutex> lock(copies_mutex);
  if (auto it = program_copies.find(program); it != program_copies.end()) return it->second;
  char folder[] = "/tmp/judge-program-XXXXXX";
  if (!mkdtemp(folder)) throw std::system_error(errno, std::generic_category(), "mkdtemp");
  chmod(folder, 0755);
  const std::string copy = std::string(folder) + "/" + program.substr(program.rfind('/') + 1);
  {
    std::ifstream in(program, std::ios::binary);
    std::ofstream out(copy, std::ios::binary);
    out << in.rdbuf();
    if (!in || !out) throw std::runtime_error("cannot copy the worker " + program + " to " + copy);
  }
  chmod(copy.c_str(), 0755);
  if (program_copies.empty()) std::atexit(remove_copies);
  program_copies[program] = copy;
  return copy;
}

// Whether the kernel counts RLIMIT_NPROC per user namespace (Linux 5.14's
// ucounts): a limit set inside a sandbox then counts its tasks alone.
bool nproc_per_user_namespace() {
  utsname u{};
  int major = 0, minor = 0;
  if (uname(&u) != 0 || std::sscanf(u.release, "%d.%d", &major, &minor) != 2) return false;
  return major > 5 || (major == 5 && minor >= 14);
}

bool is_link(const std::string& path) {
  struct stat st {};
  return lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
}

// Whether `path` is `folder` or lies inside it.
bool inside(const std::string& path, const std::string& folder) {
  return path == folder ||
         (path.size() > folder.size() && path.compare(0, folder.size(), folder) == 0 &&
          (folder == "/" || path[folder.size()] == '/'));
}

// Folders the dynamic loader searches outside /usr: LD_LIBRARY_PATH's and
// /etc/ld.so.conf.d's (where a GPU driver installed under /usr/local or
// /opt names its libraries).
std::vector<std::string> library_folders() {
  std::vector<std::string> found;
  auto add = [&](const std::string& folder) {
    char* real = realpath(folder.c_str(), nullptr);
    if (!real) return;
    const std::string path = real;
    free(real);
    if (is_folder(path) && std::find(found.begin(), found.end(), path) == found.end())
      found.push_back(path);
  };
  if (const char* env = std::getenv("LD_LIBRARY_PATH")) {
    std::string dirs = env;
    std::size_t start = 0;
    while (start <= dirs.size()) {
      const std::size_t end = std::min(dirs.find(':', start), dirs.size());
      if (end > start) add(dirs.substr(start, end - start));
      start = end + 1;
    }
  }
  glob_t g{};
  if (glob("/etc/ld.so.conf.d/*.conf", 0, nullptr, &g) == 0)
    for (std::size_t i = 0; i < g.gl_pathc; ++i) {
      std::ifstream in(g.gl_pathv[i]);
      for (std::string line; std::getline(in, line);)
        if (!line.empty() && line[0] == '/') add(line.substr(0, line.find_first_of(" \t#")));
    }
  globfree(&g);
  return found;
}

// The worker's view, an allowlist: the system's programs and libraries
// (/usr, without /usr/local, whose software a grader may have installed
// there, apart from the loader's folders), the few files of /etc that the
// loader and the C library read, /sys read-only, its own /proc, a minimal
// /dev read-only with the device nodes of its GPU, a private bounded /tmp
// and the worker program. No home, no handout, no other student, no
// reference program, no socket: none of them is in the view.
std::vector<std::string> bwrap_command(const std::vector<std::string>& argv,
                                       const std::vector<std::string>& programs,
                                       const SandboxOptions& options, bool disable_userns) {
  std::vector<std::string> a = {find_program(options.bwrap),
                                "--unshare-all",
                                "--die-with-parent",
                                "--new-session",
                                "--ro-bind",
                                "/usr",
                                "/usr"};
  // No user namespace of its own inside: no cgroup namespace, mounts or
  // task count of its making.
  if (disable_userns) a.insert(a.end(), {"--unshare-user", "--disable-userns"});
  // Merged /usr (Debian 12) makes these links; older systems have folders.
  for (const char* top : {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}) {
    if (is_link(top)) {
      char target[4096];
      const ssize_t n = readlink(top, target, sizeof target - 1);
      if (n > 0)
        a.insert(a.end(), {"--symlink", std::string(target, static_cast<std::size_t>(n)), top});
    } else if (is_folder(top)) {
      a.insert(a.end(), {"--ro-bind", top, top});
    }
  }
  const std::vector<std::string> libraries = library_folders();
  if (is_folder("/usr/local")) a.insert(a.end(), {"--tmpfs", "/usr/local"});
  for (const std::string& folder : libraries)
    if (!inside(folder, "/usr") || inside(folder, "/usr/local"))
      a.insert(a.end(), {"--ro-bind", folder, folder});
  if (is_folder("/usr/local")) a.insert(a.end(), {"--remount-ro", "/usr/local"});
  for (const char* file :
       {"/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/nsswitch.conf",
        "/etc/passwd", "/etc/group", "/etc/localtime", "/etc/alternatives"})
    a.insert(a.end(), {"--ro-bind-try", file, file});
  a.insert(a.end(), {"--ro-bind", "/sys", "/sys", "--proc", "/proc", "--dev", "/dev"});
  for (const std::string& node : options.device_nodes)
    a.insert(a.end(), {"--dev-bind", node, node});
  a.insert(a.end(), {"--remount-ro", "/dev", "--size", "268435456", "--tmpfs", "/tmp"});
  // What --hide names only matters where the view shows it.
  std::vector<std::string> hidden;
  for (const std::string& path : options.hide) {
    bool shown = inside(path, "/usr") || inside(path, "/sys");
    for (const std::string& program : programs) shown = shown || inside(program, path);
    for (const std::string& folder : libraries) shown = shown || inside(path, folder);
    if (shown) hidden.push_back(path);
  }
  // Hidden folders become empty ones, parents before the folders inside
  // them, read-only once every mount inside them is made.
  std::sort(hidden.begin(), hidden.end());
  std::vector<std::string> folders;
  for (const std::string& path : hidden) {
    if (is_folder(path)) {
      a.insert(a.end(), {"--tmpfs", path});
      folders.push_back(path);
    } else if (exists(path)) {
      a.insert(a.end(), {"--ro-bind", "/dev/null", path});
    }
  }
  for (const std::string& program : programs) a.insert(a.end(), {"--ro-bind", program, program});
  for (const std::string& path : folders) a.insert(a.end(), {"--remount-ro", path});
  a.insert(a.end(), {"--remount-ro", "/", "--chdir", "/tmp", "--clearenv", "--setenv", "PATH",
                     "/usr/local/bin:/usr/bin:/bin", "--setenv", "HOME", "/tmp"});
  for (const char* name : {"LD_LIBRARY_PATH", "CUDA_MODULE_LOADING", "CUDA_CACHE_DISABLE"})
    pass_env(a, name);
  // The worker sees its GPU alone, so the grader's numbering of the GPUs
  // means nothing inside.
  if (!options.one_gpu) pass_env(a, "CUDA_VISIBLE_DEVICES");
  a.emplace_back("--");
  a.insert(a.end(), argv.begin(), argv.end());
  return a;
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
    return plan.sandboxed && plan.drop_to_nobody ? reachable_copy(program) : program;
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
      plan.sandboxed ? bwrap_command(program_argv, programs, options, plan.disable_userns)
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

std::vector<std::string> gpu_device_nodes(const std::string& bus_id, bool* one_gpu) {
  std::vector<std::string> nodes;
  for (const char* shared : {"/dev/nvidiactl", "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools",
                             "/dev/nvidia-modeset", "/dev/nvidia-caps"})
    if (exists(shared)) nodes.emplace_back(shared);
  std::string id = bus_id;
  for (char& c : id) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  // The driver names the folder with a 4-digit domain; CUDA may give 8.
  if (id.size() > 12 && id.compare(0, 4, "0000") == 0) id = id.substr(4);
  std::ifstream info("/proc/driver/nvidia/gpus/" + id + "/information");
  for (std::string line; std::getline(info, line);) {
    if (line.compare(0, 13, "Device Minor:") != 0) continue;
    const std::string minor = line.substr(line.find_first_not_of(" \t", 13));
    const std::string node = "/dev/nvidia" + minor;
    if (!minor.empty() && minor.find_first_not_of("0123456789") == std::string::npos &&
        exists(node)) {
      nodes.push_back(node);
      *one_gpu = true;
      return nodes;
    }
  }
  // Not told apart: every GPU's node (one alone, where the machine or the
  // container shows one, is this GPU's).
  glob_t g{};
  std::size_t gpus = 0;
  if (glob("/dev/nvidia[0-9]*", 0, nullptr, &g) == 0)
    for (std::size_t i = 0; i < g.gl_pathc; ++i, ++gpus) nodes.emplace_back(g.gl_pathv[i]);
  globfree(&g);
  *one_gpu = gpus == 1;
  return nodes;
}

SandboxPlan plan_sandbox(const SandboxOptions& options) {
  SandboxPlan plan;
  const bool root = geteuid() == 0;
  std::string memory_note, pids_note, pause_note, userns_note;
  // The freezer first: finding a parent sweeps a dead judge's folders,
  // and its frozen tasks die only once thawed.
  {
    std::string why;
    const cgroups::Parent p = cgroups::find_parent("freezer", &why);
    if (options.pause_by_signals) {
      pause_note = "paused by signals (as asked)";
    } else {
      plan.freezer_cgroup_parent = p.folder;
      plan.freezer_cgroup_v2 = p.v2;
      if (p.folder.empty()) pause_note = "paused by signals (" + why + ")";
    }
  }
  if (options.memory_limit_mib > 0) {
    std::string why;
    const cgroups::Parent p = cgroups::find_parent("memory", &why);
    plan.memory_cgroup_parent = p.folder;
    plan.memory_cgroup_v2 = p.v2;
    if (p.folder.empty()) memory_note = "shared memory not bounded (" + why + ")";
  }
  {
    std::string why;
    const cgroups::Parent p = cgroups::find_parent("pids", &why);
    plan.pids_cgroup_parent = p.folder;
    plan.pids_cgroup_v2 = p.v2;
    if (p.folder.empty()) pids_note = "process limit shared by this user's workers (" + why + ")";
  }
  // A pids cgroup bounds root's workers too, where RLIMIT_NPROC does not.
  const bool own_task_count = !plan.pids_cgroup_parent.empty();
  // Joins the process limit's note and the memory's.
  auto with_notes = [&](SandboxPlan p) {
    if (!own_task_count && !p.launcher_limits_tasks && p.limits_note.empty())
      p.limits_note = pids_note;
    for (const std::string& note : {memory_note, pause_note, userns_note})
      if (!note.empty()) p.limits_note += (p.limits_note.empty() ? "" : "; ") + note;
    return p;
  };
  if (options.unsandboxed) {
    if (root && !own_task_count)
      plan.limits_note = "process limit not enforced (unsandboxed, as root)";
    return with_notes(plan);
  }
  bool userns_option = false;
  try {
    const std::string bwrap = find_program(options.bwrap);
    userns_option = bwrap_has(bwrap, "--disable-userns");
    if (!userns_option)
      userns_note = "user namespaces allowed inside (" + bwrap + " has no --disable-userns)";
  } catch (const std::exception&) {
    // No bubblewrap: the trial below says so.
  }
  // Try the real view on a harmless program: as nobody first (as root), so
  // the process limit binds, then as the caller; each with what makes it
  // stronger (no user namespace of the worker's making, its task count set
  // inside by the launcher), then, where that fails, without.
  std::string last, as_nobody, stronger_failed;
  for (bool drop : root ? std::vector<bool>{true, false} : std::vector<bool>{false}) {
    // (Root's tasks are not counted against RLIMIT_NPROC at all.)
    const bool launcher =
        !options.launcher.empty() && (drop || !root) && nproc_per_user_namespace();
    for (const bool stronger : {true, false}) {
      if (!stronger && !userns_option && !launcher) continue; // the same trial again
      plan.sandboxed = true;
      plan.drop_to_nobody = drop;
      plan.disable_userns = stronger && userns_option;
      plan.launcher_limits_tasks = stronger && launcher;
      char log_name[] = "/tmp/judge-sandbox-XXXXXX";
      const int fd = mkstemp(log_name);
      if (fd < 0) throw std::system_error(errno, std::generic_category(), "mkstemp");
      close(fd);
      std::string ended;
      try {
        Worker w = Worker::start({"/bin/true"}, {}, log_name, options, plan);
        ended = w.finish(30);
      } catch (const std::exception& e) {
        ended = e.what();
      }
      std::ifstream in(log_name);
      std::getline(in, last);
      unlink(log_name);
      if (ended == "exited with status 0") {
        if (!stronger)
          userns_note = "user namespaces allowed inside, task limit set outside (the sandbox "
                        "failed with them: " +
                        stronger_failed + ")";
        // Why nobody could not run it goes with the note: a grade whose
        // worker ran as root (and lost the process limit, without a pids
        // cgroup) says what to mend.
        if (root && !drop)
          plan.limits_note = (own_task_count ? "the sandbox runs as root (as nobody: "
                                             : "process limit not enforced (the sandbox runs as "
                                               "root; as nobody: ") +
                             as_nobody + ")";
        return with_notes(plan);
      }
      if (last.empty()) last = ended;
      if (stronger) stronger_failed = last;
    }
    if (drop) as_nobody = last;
  }
  throw std::runtime_error("cannot make the sandbox with " + options.bwrap + ": " + last);
}

} // namespace judge
