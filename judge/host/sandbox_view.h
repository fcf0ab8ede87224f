// What the sandbox's parts share inside the judge (not a public header):
// the worker's view, built as bubblewrap's command line, and the file
// tests the view and the host probing both make.
#pragma once

#include <sys/stat.h>

#include <string>
#include <vector>

#include "judge/sandbox.h"

namespace judge::view {

inline bool exists(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0;
}

inline bool is_folder(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// The program a name runs: itself when it holds a '/', else the first match
// on PATH (exec in the child must not search); throws where there is none.
std::string find_program(const std::string& name);

// A copy of `program` that nobody may run from a folder anyone may enter
// (see sandbox_view.cpp), made once per program.
std::string reachable_copy(const std::string& program);

// bubblewrap's command line that runs `argv` in the worker's view, which
// shows `programs` besides the system's.
std::vector<std::string> bwrap_command(const std::vector<std::string>& argv,
                                       const std::vector<std::string>& programs,
                                       const SandboxOptions& options, bool disable_userns);

} // namespace judge::view
