// Starts an untrusted worker and keeps it contained: in a bubblewrap sandbox
// (no network; a read-only view that lists what a worker needs, the system's
// libraries, its own program and its GPU's device nodes, and nothing else;
// fresh /tmp and /proc; its own process namespace so nothing it starts
// outlives it), with limits on processes (its own pids cgroup where one can
// be made), open files, memory (in a memory cgroup where one can be made,
// shared memory included) and the size of what it writes. Without the
// sandbox (`unsandboxed`, for students grading their own work) the limits
// still hold but the view is the caller's.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "judge/cgroups.h"

namespace judge {

struct SandboxOptions {
  bool unsandboxed = false;
  std::string bwrap = "bwrap";
  // Folders and files the worker must not see (covered by empty folders)
  // where the view would show them.
  std::vector<std::string> hide;
  // Device nodes bound in (the judge's GPU: gpu_device_nodes()).
  std::vector<std::string> device_nodes;
  // The nodes hold one GPU, so CUDA_VISIBLE_DEVICES is not passed on (it
  // numbers the grader's GPUs, of which the worker sees one).
  bool one_gpu = false;
  std::int64_t output_limit_bytes = std::int64_t{1} << 20;
  // The worker's host memory: its data (RLIMIT_DATA), and in a memory cgroup
  // all it maps, shared memory included; 0: none.
  std::int64_t memory_limit_mib = 16384;
  // Tasks, threads included: its own pids cgroup's pids.max where one can be
  // made, else RLIMIT_NPROC set inside the sandbox by `launcher` (counted
  // in the sandbox's user namespace alone), else RLIMIT_NPROC on top of
  // what the user runs already.
  int max_processes = 256;
  // judge_launch (judge/app/judge_launch.cpp), absolute; "" for none.
  std::string launcher;
  int max_open_files = 256;
  // Pause with SIGSTOP even where a freezer cgroup can be made (as where
  // none can: for tests of that way).
  bool pause_by_signals = false;
};

// What the sandbox can and cannot enforce here, decided once by trying it.
struct SandboxPlan {
  bool sandboxed = false;
  bool drop_to_nobody = false; // root: the worker runs as nobody, so limits bind
  std::string limits_note;     // e.g. "process limit not enforced (root)"
  // The parents of the workers' memory and pids cgroups; empty where none
  // can be made (limits_note then says what is not bounded: shared memory;
  // the process limit, then RLIMIT_NPROC, shared by the user's workers).
  std::string memory_cgroup_parent;
  bool memory_cgroup_v2 = false;
  std::string pids_cgroup_parent;
  bool pids_cgroup_v2 = false;
  // The workers' freezer cgroups' parent; empty where none can be made
  // (or pause_by_signals): the pause then stops the worker with signals,
  // and limits_note says so.
  std::string freezer_cgroup_parent;
  bool freezer_cgroup_v2 = false;
  // Without a pids cgroup: the worker's task limit is set by the launcher
  // inside its sandbox, where the kernel counts that user namespace's
  // tasks alone (sandboxed, not as root, Linux 5.14 and later).
  bool launcher_limits_tasks = false;
  // bubblewrap can forbid user namespaces inside (--disable-userns, 0.8.0).
  bool disable_userns = false;
};

// The device nodes a worker needs for the GPU with PCI bus id `bus_id`
// (cudaDeviceGetPCIBusId's form): the driver's shared nodes and that GPU's
// own, found through /proc/driver/nvidia. `one_gpu` says whether the GPU's
// own node was told apart; when not, every GPU's node is listed.
std::vector<std::string> gpu_device_nodes(const std::string& bus_id, bool* one_gpu);

// Tries bubblewrap with the options' view. Returns the plan, or throws
// std::runtime_error naming why no sandbox can be made (callers refuse to
// grade then, unless unsandboxed was asked for).
SandboxPlan plan_sandbox(const SandboxOptions& options);

class Worker {
public:
  // Starts `argv` (argv[0] an absolute path to the program) with `inherit`
  // as its descriptors 3, 4, ... in order, standard input /dev/null and
  // standard output and error appended to `log_path` (created, at most the
  // output limit).
  static Worker start(const std::vector<std::string>& argv, const std::vector<int>& inherit,
                      const std::string& log_path, const SandboxOptions& options,
                      const SandboxPlan& plan);
  Worker() = default;
  Worker(Worker&& other) noexcept;
  Worker& operator=(Worker&& other) noexcept;
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;
  ~Worker(); // kills it

  // Without waiting: nothing while it runs, else how it ended ("exited with
  // status 3", "killed by SIGSEGV", "wrote more than 1048576 bytes of output").
  std::optional<std::string> poll();
  // Waits up to `seconds` for it to end by itself, then kills it; how it ended.
  std::string finish(double seconds);
  // Ends it and everything it started, at once.
  void kill();
  // Stops it and everything it started (its freezer cgroup, else SIGSTOP),
  // so nothing of it runs while another worker is timed or its inputs are
  // written: empty once all of it is still, else why not within `seconds`.
  // The pause notes each task's time on a CPU so far.
  std::string pause(double seconds);
  // While paused: empty when nothing of it ran since the pause, else why
  // not. A stop by signal can be ended by a SIGCONT the worker arranged
  // for itself (a child's exit signal, a timer), and a task may finish a
  // system call first: a process or thread the pause did not see, or more
  // CPU time than stopping takes, is the worker running while it should
  // be still.
  std::string held_still() const;
  // Lets it all go on, at once: it thaws the freezer, or signals the
  // processes the pause stopped. Returns held_still()'s answer, taken first.
  std::string resume();
  // resume() without the look: for a caller that took held_still() first.
  void let_go();

private:
  std::optional<std::string> reap(int flags);
  void kill_group(); // SIGKILL to its process group, thawed if frozen
  pid_t pid_ = -1;
  std::int64_t output_limit_ = 0;
  bool through_bwrap_ = false;
  cgroups::WorkerGroups groups_; // removed when it has ended
  std::int64_t memory_limit_mib_ = 0;
  std::optional<std::string> ended_;
  std::vector<pid_t> stopped_;             // by pause(), for resume()
  bool frozen_ = false;                    // the pause froze its cgroup
  std::map<pid_t, long long> held_cpu_ns_; // each task's CPU time at the pause, by thread id
};

} // namespace judge
