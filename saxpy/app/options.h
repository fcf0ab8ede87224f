// The cudaSaxpy program's command line: parsing into Options and the help
// text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "saxpy/saxpy.h"

namespace saxpy_app {

constexpr std::int64_t kDefaultN = 100'000'000;
// 2^33 floats is 32 GiB per array: far past any course input, and past it
// the host arrays alone would not fit most machines.
constexpr std::int64_t kMaxN = std::int64_t{1} << 33;

struct Options {
  bool help = false;
  std::size_t n = kDefaultN;
  std::vector<saxpy::Variant> variants = saxpy::default_variants();
  int runs = 3;
  std::size_t chunk = saxpy::kDefaultChunk;
};

// Parses argv (argv[0] the program). Throws common::UsageError with one
// line naming the option and what is wrong.
Options parse_options(int argc, char** argv);

// The --help text, `program` in its usage line.
std::string usage_text(const char* program);

} // namespace saxpy_app
