// A fresh random seed for each run of a test program, so every run checks new
// inputs; the environment variable named by the caller (e.g. SCAN_TEST_SEED)
// repeats a failing run. Failures print it, through seed_note.
#pragma once

#include <cstdlib>
#include <random>
#include <string>

inline unsigned test_seed_from(const char* variable) {
  if (const char* env = std::getenv(variable))
    return static_cast<unsigned>(std::strtoul(env, nullptr, 10));
  return std::random_device{}();
}
