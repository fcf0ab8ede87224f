// The worker's view (an allowlist of what bubblewrap shows it) and the
// copies of the programs it runs.
#include "sandbox_view.h"

#include <glob.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

namespace judge::view {

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

namespace {

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

} // namespace

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

namespace {

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

} // namespace

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

} // namespace judge::view
