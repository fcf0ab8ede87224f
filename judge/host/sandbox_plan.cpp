// Probing the host for the strongest sandbox it allows: which cgroups the
// judge may make, what this bubblewrap can do, and a trial of the real
// view on a harmless program, as nobody first.
#include <sys/utsname.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include "judge/cgroups.h"
#include "judge/sandbox.h"
#include "sandbox_view.h"

namespace judge {

namespace {

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

// Whether the kernel counts RLIMIT_NPROC per user namespace (Linux 5.14's
// ucounts): a limit set inside a sandbox then counts its tasks alone.
bool nproc_per_user_namespace() {
  utsname u{};
  int major = 0, minor = 0;
  if (uname(&u) != 0 || std::sscanf(u.release, "%d.%d", &major, &minor) != 2) return false;
  return major > 5 || (major == 5 && minor >= 14);
}

} // namespace

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
    const std::string bwrap = view::find_program(options.bwrap);
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
