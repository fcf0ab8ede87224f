// Runs a built program from a test and returns its exit status and output,
// for checking command-line behaviour (usage errors, messages).
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

struct ProgramResult {
  int status = -1;    // exit status, or -1 if it did not exit normally
  std::string output; // stdout and stderr together
};

// `command` is passed to the shell; quote arguments yourself.
inline ProgramResult run_program(const std::string& command) {
  ProgramResult result;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return result;
  std::array<char, 4096> buffer;
  std::size_t got;
  while ((got = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
    result.output.append(buffer.data(), got);
  const int raw = pclose(pipe);
  if (raw != -1 && WIFEXITED(raw)) result.status = WEXITSTATUS(raw);
  return result;
}

// Runs `command` with its standard output on /dev/full, where every write
// fails (no space left), and checks that `program` says so: exit status 1
// and the one line "PROGRAM: error: cannot write standard output..." on
// stderr. Returns what is wrong, or "" when nothing is.
inline std::string unwritable_output_problem(const std::string& command,
                                             const std::string& program) {
  const ProgramResult r = run_program("{ " + command + " >/dev/full; }");
  const std::string expected = program + ": error: cannot write standard output";
  if (r.status != 1) return "exit status " + std::to_string(r.status) + ": " + r.output;
  if (r.output.rfind(expected, 0) != 0 || r.output.find('\n') != r.output.size() - 1)
    return "not one line '" + expected + "...': " + r.output;
  return "";
}
