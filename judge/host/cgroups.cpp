#include "judge/cgroups.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

namespace judge::cgroups {

namespace {

bool exists(const std::string& path) {
  std::error_code ec;
  return std::filesystem::exists(path, ec);
}

std::string read_first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

bool write_text(const std::string& path, const std::string& text) {
  const int fd = open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  close(fd);
  return ok;
}

// The value of `key` in a file of "key value" lines (memory.events,
// memory.oom_control), or -1.
long long keyed_value(const std::string& path, const std::string& key) {
  std::ifstream in(path);
  std::string k;
  long long v = 0;
  while (in >> k >> v)
    if (k == key) return v;
  return -1;
}

// The file that sets a controller's limit (the freezer's state) in a child.
std::string limit_file(const std::string& controller, bool v2) {
  if (controller == "pids") return "/pids.max";
  if (controller == "freezer") return v2 ? "/cgroup.freeze" : "/freezer.state";
  return v2 ? "/memory.max" : "/memory.limit_in_bytes";
}

// The judge's own cgroup folder of `controller`, v1 or v2, or "" when the
// controller is not mounted where it is looked for.
Parent own_cgroup(const std::string& controller) {
  std::ifstream in("/proc/self/cgroup");
  std::string unified, v1;
  for (std::string line; std::getline(in, line);) {
    const std::size_t a = line.find(':'), b = line.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    const std::string controllers = line.substr(a + 1, b - a - 1), path = line.substr(b + 1);
    if (line.compare(0, a, "0") == 0 && controllers.empty()) unified = path;
    std::stringstream list(controllers);
    for (std::string c; std::getline(list, c, ',');)
      if (c == controller) v1 = path;
  }
  const std::string v1_root = "/sys/fs/cgroup/" + controller;
  std::error_code ec;
  if (!v1.empty() && std::filesystem::is_directory(v1_root + v1, ec))
    return {v1 == "/" ? v1_root : v1_root + v1, false};
  // cgroup v2's freezer is no controller: every cgroup below the root has it.
  if (!unified.empty() && exists("/sys/fs/cgroup/cgroup.controllers") &&
      (controller == "freezer" ||
       read_first_line("/sys/fs/cgroup/cgroup.controllers").find(controller) != std::string::npos))
    return {"/sys/fs/cgroup" + (unified == "/" ? std::string() : unified), true};
  return {};
}

// Whether workers' cgroups of `controller` can be made in `parent`, tried
// by making one; the reason when not.
bool can_hold_workers(const Parent& parent, const std::string& controller, std::string* why) {
  // (Named as no other judge's probe, a dead one's left behind included.)
  const std::string probe =
      parent.folder + "/judge-probe-" + std::to_string(getpid()) + "-" +
      std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
  if (mkdir(probe.c_str(), 0755) != 0) {
    *why = "cannot make a cgroup in " + parent.folder + ": " + std::strerror(errno);
    return false;
  }
  const std::string file = limit_file(controller, parent.v2);
  // cgroup v2 gives a child a controller only where the parent passes it on.
  if (parent.v2 && controller != "freezer" && !exists(probe + file))
    write_text(parent.folder + "/cgroup.subtree_control", "+" + controller);
  const bool has_limit = exists(probe + file);
  rmdir(probe.c_str());
  if (!has_limit) *why = "the " + controller + " controller is not enabled below " + parent.folder;
  return has_limit;
}

// Makes `folder` (unless made) and writes `text` to its `file`.
void limit(const std::string& folder, const std::string& file, const std::string& text) {
  if (mkdir(folder.c_str(), 0755) != 0 && errno != EEXIST)
    throw std::runtime_error("cannot make the worker's cgroup " + folder + ": " +
                             std::strerror(errno));
  if (!write_text(folder + file, text))
    throw std::runtime_error("cannot set " + folder + file + ": " + std::strerror(errno));
}

// The freezers' state files, open, for thaw_all() in a signal handler:
// each slot fd * 2 + (1 for cgroup v2) + 1, or 0.
constexpr int kHeldSlots = 1024;
std::atomic<int> held_slots[kHeldSlots];

void hold_for_signals(int fd, bool v2) {
  for (std::atomic<int>& slot : held_slots) {
    int empty = 0;
    if (slot.compare_exchange_strong(empty, fd * 2 + (v2 ? 1 : 0) + 1)) return;
  }
}

void release_for_signals(int fd) {
  for (std::atomic<int>& slot : held_slots) {
    const int value = slot.load();
    if (value != 0 && (value - 1) / 2 == fd) slot.store(0);
  }
}

// The first part of this judge's worker folders' names: "judge-worker-",
// its pid namespace (other containers' judges may share the hierarchy,
// their pids not ours to look up) and its pid.
std::string folder_prefix(pid_t pid) {
  struct stat ns {};
  const unsigned long long id = stat("/proc/self/ns/pid", &ns) == 0 ? ns.st_ino : 0;
  return "judge-worker-" + std::to_string(id) + "-" + std::to_string(pid) + "-";
}

// A dead judge's worker folders in `parent`: thawed, their tasks killed,
// removed. A judge killed while it held a worker (SIGKILL: no handler
// runs) leaves that worker frozen, and on cgroup v1 unkillable, until then.
void sweep_leftovers(const Parent& parent) {
  DIR* dir = opendir(parent.folder.c_str());
  if (!dir) return;
  std::vector<std::string> dead;
  const std::string ours = folder_prefix(0);
  const std::string prefix = ours.substr(0, ours.size() - 2); // "judge-worker-NS-"
  while (const dirent* entry = readdir(dir)) {
    const std::string name = entry->d_name;
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    const long pid = std::atol(name.c_str() + prefix.size());
    if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)
      dead.push_back(parent.folder + "/" + name);
  }
  closedir(dir);
  for (const std::string& folder : dead) {
    write_text(folder + (parent.v2 ? "/cgroup.freeze" : "/freezer.state"),
               parent.v2 ? "0" : "THAWED");
    std::ifstream procs(folder + "/cgroup.procs");
    for (pid_t pid; procs >> pid;)
      if (pid > 0) ::kill(pid, SIGKILL);
    for (int i = 0; i < 200 && rmdir(folder.c_str()) != 0 && errno == EBUSY; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

} // namespace

void thaw_all() noexcept {
  for (std::atomic<int>& slot : held_slots) {
    const int value = slot.load();
    if (value == 0) continue;
    const int fd = (value - 1) / 2;
    const bool v2 = (value - 1) % 2 == 1;
    const char* text = v2 ? "0" : "THAWED";
    if (pwrite(fd, text, std::strlen(text), 0) < 0) continue;
  }
}

Parent find_parent(const std::string& controller, std::string* why) {
  const Parent own = own_cgroup(controller);
  if (own.folder.empty()) {
    *why = "no " + controller + " cgroup controller found";
    return {};
  }
  if (can_hold_workers(own, controller, why)) {
    sweep_leftovers(own);
    return own;
  }
  std::string at_root;
  const Parent root{"/sys/fs/cgroup", true};
  if (own.v2 && own.folder != root.folder && can_hold_workers(root, controller, &at_root)) {
    sweep_leftovers(root);
    return root;
  }
  return {};
}

WorkerGroups::WorkerGroups(const Parent& memory, long long memory_bytes, const Parent& pids,
                           int max_tasks, const Parent& freezer) {
  static int made = 0;
  // The judge's pid first (sweep_leftovers() finds a dead judge's folders
  // by it), then a count and the clock: a dead judge's leftover, its pid
  // reused, never meets a new folder.
  const auto now = std::chrono::steady_clock::now().time_since_epoch();
  const std::string name =
      "/" + folder_prefix(getpid()) + std::to_string(++made) + "-" +
      std::to_string(std::chrono::duration_cast<std::chrono::nanoseconds>(now).count());
  try {
    // On cgroup v2 a process is in one cgroup: every controller's limit
    // and the freezer go in the first v2 folder made.
    std::string v2_folder;
    auto make = [&](const Parent& parent) {
      if (parent.v2 && !v2_folder.empty()) return v2_folder;
      const std::string folder = parent.folder + name;
      if (mkdir(folder.c_str(), 0755) != 0)
        throw std::runtime_error("cannot make the worker's cgroup " + folder + ": " +
                                 std::strerror(errno));
      folders_.push_back(folder);
      if (parent.v2) v2_folder = folder;
      return folder;
    };
    if (!memory.folder.empty() && memory_bytes > 0) {
      memory_ = make(memory);
      memory_v2_ = memory.v2;
      const std::string bytes = std::to_string(memory_bytes);
      limit(memory_, limit_file("memory", memory.v2), bytes);
      // Swap would let it keep more; not every kernel accounts it.
      if (memory.v2) {
        write_text(memory_ + "/memory.swap.max", "0");
        write_text(memory_ + "/memory.oom.group", "1");
      } else {
        write_text(memory_ + "/memory.memsw.limit_in_bytes", bytes);
      }
    }
    if (!pids.folder.empty() && max_tasks > 0) {
      const std::string folder = make(pids);
      // A v2 folder made under another parent (memory's) may lack the
      // controller until that parent passes it on; without it the task
      // limit is the caller's (limits_tasks()).
      if (pids.v2 && !exists(folder + "/pids.max"))
        write_text(folder.substr(0, folder.rfind('/')) + "/cgroup.subtree_control", "+pids");
      if (!pids.v2 || exists(folder + "/pids.max")) {
        limit(folder, "/pids.max", std::to_string(max_tasks));
        limits_tasks_ = true;
      }
    }
    if (!freezer.folder.empty()) {
      freezer_ = make(freezer);
      freezer_v2_ = freezer.v2;
      state_fd_ = open((freezer_ + (freezer_v2_ ? "/cgroup.freeze" : "/freezer.state")).c_str(),
                       O_WRONLY | O_CLOEXEC);
      if (state_fd_ < 0) {
        freezer_.clear(); // a freezer it cannot be told to use: the pause's signals
      } else {
        hold_for_signals(state_fd_, freezer_v2_);
      }
    }
    for (const std::string& folder : folders_) {
      const int fd = open((folder + "/cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC);
      if (fd < 0) throw std::runtime_error("cannot open " + folder + "/cgroup.procs");
      joins_.push_back(fd);
    }
  } catch (...) {
    close_joins();
    remove();
    throw;
  }
}

WorkerGroups::WorkerGroups(WorkerGroups&& other) noexcept
    : folders_(std::exchange(other.folders_, {})), joins_(std::exchange(other.joins_, {})),
      memory_(std::exchange(other.memory_, {})), memory_v2_(other.memory_v2_),
      freezer_(std::exchange(other.freezer_, {})), freezer_v2_(other.freezer_v2_),
      state_fd_(std::exchange(other.state_fd_, -1)), limits_tasks_(other.limits_tasks_) {}

WorkerGroups& WorkerGroups::operator=(WorkerGroups&& other) noexcept {
  if (this != &other) {
    close_joins();
    remove();
    folders_ = std::exchange(other.folders_, {});
    joins_ = std::exchange(other.joins_, {});
    memory_ = std::exchange(other.memory_, {});
    memory_v2_ = other.memory_v2_;
    freezer_ = std::exchange(other.freezer_, {});
    freezer_v2_ = other.freezer_v2_;
    state_fd_ = std::exchange(other.state_fd_, -1);
    limits_tasks_ = other.limits_tasks_;
  }
  return *this;
}

WorkerGroups::~WorkerGroups() {
  close_joins();
  remove();
}

void WorkerGroups::close_joins() {
  for (const int fd : joins_) close(fd);
  joins_.clear();
}

bool WorkerGroups::freeze(bool on) const {
  if (freezer_.empty() || state_fd_ < 0) return false;
  const std::string text = freezer_v2_ ? (on ? "1" : "0") : (on ? "FROZEN" : "THAWED");
  return pwrite(state_fd_, text.data(), text.size(), 0) == static_cast<ssize_t>(text.size());
}

bool WorkerGroups::frozen() const {
  if (freezer_.empty()) return false;
  return freezer_v2_ ? keyed_value(freezer_ + "/cgroup.events", "frozen") == 1
                     : read_first_line(freezer_ + "/freezer.state") == "FROZEN";
}

bool WorkerGroups::memory_exceeded() const {
  if (memory_.empty()) return false;
  return (memory_v2_ ? keyed_value(memory_ + "/memory.events", "oom_kill")
                     : keyed_value(memory_ + "/memory.oom_control", "oom_kill")) > 0;
}

void WorkerGroups::remove() {
  // A frozen task keeps its folder (and, on cgroup v1, a SIGKILL) waiting.
  if (!freezer_.empty()) freeze(false);
  if (state_fd_ >= 0) {
    release_for_signals(state_fd_);
    close(state_fd_);
    state_fd_ = -1;
  }
  // Its processes are gone once the sandbox's first one is: the folders go
  // as soon as the kernel has let them go.
  for (const std::string& folder : folders_)
    for (int i = 0; i < 200 && rmdir(folder.c_str()) != 0 && errno == EBUSY; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
  folders_.clear();
  memory_.clear();
  freezer_.clear();
}

} // namespace judge::cgroups
