// The workers' cgroups: a memory cgroup (all a worker maps, shared memory
// included), a pids cgroup (its own count of tasks, so one worker's
// processes cannot use up another's, as the per-user RLIMIT_NPROC lets
// them) and a freezer (a pause no signal of the worker's can end), cgroup
// v2 or v1, wherever the judge may make them.
#pragma once

#include <string>
#include <vector>

namespace judge::cgroups {

// Where workers' cgroups of one controller are made.
struct Parent {
  std::string folder; // "" when none can be made
  bool v2 = false;
};

// The parent for `controller` ("memory", "pids" or "freezer", which cgroup
// v2 gives every cgroup but its root), swept of the folders of judges that
// died (thawed, their tasks killed, removed): the judge's own cgroup
// of that controller, else (cgroup v2, whose rule keeps a controller from a
// cgroup that holds processes, as the judge's does) the hierarchy's root;
// tried by making a child. An empty folder and the reason when neither can.
Parent find_parent(const std::string& controller, std::string* why);

// Thaws every worker's freezer this process made: for a handler of the
// signals that end the judge (async-signal-safe), so that nothing it held
// is left frozen.
void thaw_all() noexcept;

// One worker's cgroups, made before it starts: its memory limit (0: none),
// its task limit (0: none) and its freezer, each where its parent allows.
// On cgroup v2, where a process is in one cgroup only, they share one
// folder: the limits' where their parents are the same, and the freezer
// is the limits' folder where there is one.
class WorkerGroups {
public:
  WorkerGroups() = default;
  // Throws std::runtime_error when a folder cannot be made or limited.
  WorkerGroups(const Parent& memory, long long memory_bytes, const Parent& pids, int max_tasks,
               const Parent& freezer);
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
  // The freezer: whether there is one; asks it to freeze (true) or thaw
  // every task in it, false when it cannot be told; whether all of them
  // are frozen now (a freeze takes effect as each task leaves the kernel).
  bool can_freeze() const { return !freezer_.empty(); }
  bool freeze(bool on) const;
  bool frozen() const;
  // Removes the folders once the kernel has let their processes go.
  void remove();

private:
  std::vector<std::string> folders_; // the memory one first, if any
  std::vector<int> joins_;
  std::string memory_;
  bool memory_v2_ = false;
  std::string freezer_;
  bool freezer_v2_ = false;
  int state_fd_ = -1; // the freezer's state file, open for thaw_all()
  bool limits_tasks_ = false;
};

} // namespace judge::cgroups
