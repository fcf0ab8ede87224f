// Pausing a worker while another one is timed or its inputs are written.
// Where the judge could make the worker a freezer cgroup, the kernel
// freezes every task in it: nothing escapes the cgroup, no signal thaws
// it, and a frozen task starts nothing. Elsewhere (an ordinary user, who
// may make no cgroup) every process of its sandbox is stopped with
// SIGSTOP, found through /proc: SIGSTOP cannot be caught, blocked or
// ignored, and a stopped process cannot start another, so the pause is
// whole once a look finds nothing of the worker still running. But a stop
// ends at any SIGCONT, and a worker can have the kernel send it one (a
// child's exit signal, a timer's): a process the pause saw stopped and
// then running rejects the worker at once, and what ran while it was held
// is measured, each task's CPU time against the pause's, and rejects it
// (both ways: what a freezer lets run would be seen too).
#include <dirent.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "judge/sandbox.h"

namespace judge {

namespace {

struct Process {
  pid_t pid = 0;
  pid_t parent = 0;
};

// `root` and every process below it. A sandbox's
// processes all descend from its bubblewrap: one whose parent ends is
// taken in by the first process of its namespace, which stays below it.
std::vector<Process> process_tree(pid_t root) {
  std::multimap<pid_t, Process> children;
  Process top;
  if (DIR* proc = opendir("/proc")) {
    while (const dirent* entry = readdir(proc)) {
      char* end = nullptr;
      const long pid = std::strtol(entry->d_name, &end, 10);
      if (pid <= 0 || *end != '\0') continue;
      std::ifstream in(std::string("/proc/") + entry->d_name + "/stat");
      std::string line;
      if (!std::getline(in, line)) continue; // it ended meanwhile
      // "pid (name) state ppid ...": the name may hold spaces and ')'.
      const std::size_t close = line.rfind(')');
      if (close == std::string::npos || close + 4 >= line.size()) continue;
      const Process p{static_cast<pid_t>(pid),
                      static_cast<pid_t>(std::strtol(line.c_str() + close + 4, nullptr, 10))};
      if (p.pid == root)
        top = p;
      else
        children.emplace(p.parent, p);
    }
    closedir(proc);
  }
  std::vector<Process> tree;
  if (top.pid == 0) return tree;
  tree.push_back(top);
  for (std::size_t i = 0; i < tree.size(); ++i) {
    const auto range = children.equal_range(tree[i].pid);
    for (auto it = range.first; it != range.second; ++it) tree.push_back(it->second);
  }
  return tree;
}

// The states of every task (thread) of process `pid`: /proc/PID/stat
// gives its first thread's alone, and that one may have ended (a zombie
// leader) while the others run on. Empty when the process is gone.
std::string task_states(pid_t pid) {
  std::string states;
  const std::string dir = "/proc/" + std::to_string(pid) + "/task";
  if (DIR* tasks = opendir(dir.c_str())) {
    while (const dirent* entry = readdir(tasks)) {
      if (entry->d_name[0] == '.') continue;
      std::ifstream in(dir + "/" + entry->d_name + "/stat");
      std::string line;
      if (!std::getline(in, line)) continue;
      const std::size_t close = line.rfind(')');
      if (close != std::string::npos && close + 2 < line.size()) states += line[close + 2];
    }
    closedir(tasks);
  }
  return states;
}

// Whether a process of `tree` has `pid` for its parent.
bool has_child_in(pid_t pid, const std::vector<Process>& tree) {
  for (const Process& p : tree)
    if (p.parent == pid) return true;
  return false;
}

// Stopped or traced (and gone), every task of it: a process that leaves
// this runs again only by a SIGCONT, a SIGKILL or its tracer, none of
// which an honest worker arranges while it is held.
bool stopped(const std::string& states) {
  bool some = false;
  for (const char s : states) {
    if (s == 'T' || s == 't')
      some = true;
    else if (s != 'Z' && s != 'X')
      return false;
  }
  return some;
}

// Stopped, traced, or gone, every task of it: nothing that can run. A
// task in the kernel uninterruptibly (D: a parent waiting for its vfork
// child, which may be stopped already) of a process that has been sent
// SIGSTOP runs no code of its own again before it stops: the signal is
// taken on its way out. Only one with a child already counts so: one in
// D inside its first fork has none yet, and that child would run (were
// it another fork, the judge would see the child and reject the worker).
bool still(pid_t pid, const std::string& states, const std::set<pid_t>& signalled,
           const std::vector<Process>& tree) {
  for (const char s : states) {
    if (s == 'T' || s == 't' || s == 'Z' || s == 'X') continue;
    if (s == 'D' && signalled.count(pid) && has_child_in(pid, tree)) continue;
    return false;
  }
  return true;
}

// A stopped task uses no CPU (the judge's tests see none at all); one the
// pause found in an uninterruptible system call finishes that call first.
// More than this, summed over the worker's tasks while held, is work.
constexpr long long kHeldCpuNs = 1'000'000;

// A task's time on a CPU so far (ns): schedstat's first field, else its
// user and system ticks; -1 when it is gone.
long long task_cpu_ns(const std::string& task_dir) {
  {
    std::ifstream in(task_dir + "/schedstat");
    long long ns = 0;
    if (in >> ns) return ns;
  }
  std::ifstream in(task_dir + "/stat");
  std::string line;
  if (!std::getline(in, line)) return -1;
  const std::size_t close = line.rfind(')');
  if (close == std::string::npos) return -1;
  // After the name: state (field 3) ... utime (14), stime (15).
  std::istringstream fields(line.substr(close + 2));
  std::string field;
  long long utime = 0, stime = 0;
  for (int i = 3; i <= 15 && fields >> field; ++i) {
    if (i == 14) utime = std::atoll(field.c_str());
    if (i == 15) stime = std::atoll(field.c_str());
  }
  return (utime + stime) * (1'000'000'000LL / sysconf(_SC_CLK_TCK));
}

// Every task of the processes of `tree`, by thread id, with its CPU time.
std::map<pid_t, long long> cpu_times(const std::vector<Process>& tree) {
  std::map<pid_t, long long> times;
  for (const Process& p : tree) {
    const std::string dir = "/proc/" + std::to_string(p.pid) + "/task";
    if (DIR* tasks = opendir(dir.c_str())) {
      while (const dirent* entry = readdir(tasks)) {
        if (entry->d_name[0] == '.') continue;
        const long long ns = task_cpu_ns(dir + "/" + entry->d_name);
        if (ns >= 0) times[static_cast<pid_t>(std::atol(entry->d_name))] = ns;
      }
      closedir(tasks);
    }
  }
  return times;
}

} // namespace

std::string Worker::pause(double seconds) {
  if (pid_ < 0 || ended_) return {};
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  const std::string too_long = "could not be stopped within " +
                               std::to_string(static_cast<int>(seconds)) +
                               " s (the judge holds a worker still while it writes inputs or "
                               "times another)";
  // (A freezer that cannot be told to freeze leaves the signals.)
  if (groups_.can_freeze() && groups_.freeze(true)) {
    frozen_ = true;
    // cgroup v1's freezer stays "FREEZING" where a task could not be frozen
    // when it looked (one between fork and its first run, say) until asked
    // again; v2's takes the asking again as a no-op.
    for (int looks = 1; !groups_.frozen(); ++looks) {
      if (std::chrono::steady_clock::now() > deadline) return too_long;
      std::this_thread::sleep_for(std::chrono::microseconds(100));
      if (looks % 10 == 0) groups_.freeze(true);
    }
    const std::vector<Process> tree = process_tree(pid_);
    stopped_.clear();
    for (const Process& p : tree) stopped_.push_back(p.pid);
    held_cpu_ns_ = cpu_times(tree);
    return {};
  }
  std::set<pid_t> signalled;
  // A fork under way when its parent was sent SIGSTOP still ends in a
  // running child, made after a look may have passed its place in /proc:
  // the pause is whole only when a look that began after every process
  // was seen still finds the same processes, all still.
  std::set<pid_t> seen_still;
  // Processes once seen stopped: one of them running again was sent a
  // SIGCONT (a child's exit signal, a timer's) the worker arranged, and
  // the pause would never be whole; it is rejected at once.
  std::set<pid_t> seen_stopped;
  for (;;) {
    bool all_still = true;
    const std::vector<Process> tree = process_tree(pid_);
    std::set<pid_t> pids;
    for (const Process& p : tree) pids.insert(p.pid);
    for (const Process& p : tree) {
      // Every task counts: a zombie leader's other threads run on, and
      // SIGSTOP sent to the process reaches them.
      const std::string states = task_states(p.pid);
      if (stopped(states)) {
        seen_stopped.insert(p.pid);
      } else if (!still(p.pid, states, signalled, tree)) {
        if (seen_stopped.count(p.pid))
          return "ran again while the judge held it still (it undid the judge's stop)";
        all_still = false;
        if (::kill(p.pid, SIGSTOP) == 0) signalled.insert(p.pid);
      }
    }
    const bool confirmed = all_still && pids == seen_still;
    seen_still = all_still ? pids : std::set<pid_t>{};
    if (confirmed) {
      stopped_.clear();
      for (const Process& p : tree) stopped_.push_back(p.pid);
      held_cpu_ns_ = cpu_times(tree);
      return {};
    }
    if (std::chrono::steady_clock::now() > deadline) return too_long;
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
}

std::string Worker::held_still() const {
  if (pid_ < 0 || ended_ || stopped_.empty()) return {};
  const std::vector<Process> tree = process_tree(pid_);
  const std::set<pid_t> stopped(stopped_.begin(), stopped_.end());
  for (const Process& p : tree)
    if (!stopped.count(p.pid))
      return "started a process while the judge held it still (it undid the judge's stop)";
  long long ran = 0;
  for (const auto& [tid, ns] : cpu_times(tree)) {
    const auto then = held_cpu_ns_.find(tid);
    if (then == held_cpu_ns_.end())
      return "started a thread while the judge held it still (it undid the judge's stop)";
    ran += ns - then->second;
  }
  if (ran <= kHeldCpuNs) return {};
  std::ostringstream why;
  why.precision(1);
  why << std::fixed << "ran " << static_cast<double>(ran) / 1e6
      << " ms on the CPUs while the judge held it still (it undid the judge's stop)";
  return why.str();
}

std::string Worker::resume() {
  if (pid_ < 0 || ended_) return {};
  std::string why = held_still();
  let_go();
  return why;
}

void Worker::let_go() {
  if (pid_ < 0 || ended_) return;
  if (frozen_) {
    groups_.freeze(false);
    frozen_ = false;
  } else {
    for (const pid_t pid : stopped_) ::kill(pid, SIGCONT);
  }
  stopped_.clear();
  held_cpu_ns_.clear();
}

} // namespace judge
