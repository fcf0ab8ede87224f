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
// fails (no space left): `output` is then its standard error alone.
inline ProgramResult run_program_to_full_device(const std::string& command) {
  return run_program("{ " + command + " >/dev/full; }");
}
