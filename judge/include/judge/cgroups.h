// The workers' cgroups: a memory cgroup (all a worker maps, shared memory
// included) and a pids cgroup (its own count of tasks, so one worker's
// processes cannot use up another's, as the per-user RLIMIT_NPROC lets
// them), cgroup v2 or v1, wherever the judge may make them.
#pragma once

#include <string>
#include <vector>

namespace judge::cgroups {

// Where workers' cgroups of one controller are made.
struct Parent {
  std::string folder; // "" when none can be made
  bool v2 = false;
};

// The parent for `controller` ("memory" or "pids"): the judge's own cgroup
// of that controller, else (cgroup v2, whose rule keeps a controller from a
// cgroup that holds processes, as the judge's does) the hierarchy's root;
// tried by making a child. An empty folder and the reason when neither can.
Parent find_parent(const std::string& controller, std::string* why);

// One worker's cgroups, made before it starts: its memory limit (0: none)
// and its task limit (0: none), each where its parent allows. On cgroup v2
// both limits share one folder when their parents are the same.
class WorkerGroups {
public:
  WorkerGroups() = default;
  // Throws std::runtime_error when a folder cannot be made or limited.
  WorkerGroups(const Parent& memory, long long memory_bytes, const Parent& pids, int max_tasks);
  WorkerGroups(WorkerGroups&& other) noexcept;
  WorkerGroups& operator=(WorkerGroups&& other) noexcept;
  WorkerGroups(const WorkerGroups&) = delete;
  WorkerGroups& operator=(const WorkerGroups&) = delete;
  ~WorkerGroups(); // closes the descriptors and removes the folders

  // Open descriptors of each folder's cgroup.procs, for the child to join
  // by writing "0" to each (async-signal-safe); closed by close_joins().
  const std::vector<int>& joins() const { return joins_; }
  void close_joins();
  bool limits_tasks() const { return limits_tasks_; }
  // Whether the memory cgroup's limit killed something.
  bool memory_exceeded() const;
  // Removes the folders once the kernel has let their processes go.
  void remove();

private:
  std::vector<std::string> folders_; // the memory one first, if any
  std::vector<int> joins_;
  std::string memory_;
  bool memory_v2_ = false;
  bool limits_tasks_ = false;
};

} // namespace judge::cgroups
