#include "judge/cgroups.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <utility>

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
  const std::string probe = parent.folder + "/judge-probe-" + std::to_string(getpid());
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

} // namespace

Parent find_parent(const std::string& controller, std::string* why) {
  const Parent own = own_cgroup(controller);
  if (own.folder.empty()) {
    *why = "no " + controller + " cgroup controller found";
    return {};
  }
  if (can_hold_workers(own, controller, why)) return own;
  std::string at_root;
  const Parent root{"/sys/fs/cgroup", true};
  if (own.v2 && own.folder != root.folder && can_hold_workers(root, controller, &at_root))
    return root;
  return {};
}

WorkerGroups::WorkerGroups(const Parent& memory, long long memory_bytes, const Parent& pids,
                           int max_tasks, const Parent& freezer) {
  static int made = 0;
  const std::string name =
      "/judge-worker-" + std::to_string(getpid()) + "-" + std::to_string(++made);
  try {
    if (!memory.folder.empty() && memory_bytes > 0) {
      memory_ = memory.folder + name;
      memory_v2_ = memory.v2;
      folders_.push_back(memory_);
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
    std::string v2_folder = memory_v2_ ? memory_ : "";
    if (!pids.folder.empty() && max_tasks > 0) {
      const std::string folder = pids.folder + name;
      if (folder != memory_) folders_.push_back(folder);
      limit(folder, "/pids.max", std::to_string(max_tasks));
      limits_tasks_ = true;
      if (pids.v2 && v2_folder.empty()) v2_folder = folder;
    }
    if (!freezer.folder.empty()) {
      freezer_v2_ = freezer.v2;
      freezer_ = freezer.v2 && !v2_folder.empty() ? v2_folder : freezer.folder + name;
      if (mkdir(freezer_.c_str(), 0755) == 0)
        folders_.push_back(freezer_);
      else if (errno != EEXIST)
        throw std::runtime_error("cannot make the worker's cgroup " + freezer_ + ": " +
                                 std::strerror(errno));
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
      limits_tasks_(other.limits_tasks_) {}

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
  if (freezer_.empty()) return false;
  return freezer_v2_ ? write_text(freezer_ + "/cgroup.freeze", on ? "1" : "0")
                     : write_text(freezer_ + "/freezer.state", on ? "FROZEN" : "THAWED");
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
