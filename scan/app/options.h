// cudaScan's command line: the course's options plus algorithm, seed, runs and bench.
#pragma once

#include <cstdint>
#include <string>

#include "scan/algorithm.h"
#include "scan/inputs.h"

namespace scan_app {

enum class Test { kScan, kFindRepeats };

const char* test_name(Test test); // "scan", "find_repeats"

constexpr std::int64_t kDefaultN = 64; // the course's default

struct Options {
  Test test = Test::kScan;
  bool test_given = false;
  scan::InputKind input = scan::InputKind::kRandom;
  std::int64_t n = kDefaultN;
  bool n_given = false;
  scan::Algorithm algorithm = scan::kDefaultAlgorithm;
  bool all_algorithms = false; // -a all
  bool thrust = false;         // -t: the library's path, reported as the course's Thrust line
  unsigned seed = 1;           // the C library's default seed, as the course runs
  int runs = 3;                // the course takes the best of 3
  bool bench = false;
  bool help = false;
};

// Parses argv. Throws common::UsageError naming the option on bad input.
Options parse_options(int argc, char** argv);

std::string usage(const char* program);

} // namespace scan_app
