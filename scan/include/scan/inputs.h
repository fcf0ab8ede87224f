// The inputs cudaScan can run on, generated on the host.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace scan {

enum class InputKind {
  kOnes,        // all 1 (the course's "ones")
  kRandom,      // rand() % 10 after srand(seed): the course's "random" for seed 1
  kZeros,       // all 0
  kAlternating, // 0, 1, 0, 1, ...: no repeats
  kEqual,       // all 7: every index is a repeat
  kAscending,   // 0, 1, 2, ...: no repeats; sums pass INT32_MAX after 65537
                //   elements and wrap modulo 2^32 past 92682
  kWide,        // rand() (0 to RAND_MAX) after srand(seed): sums wrap int32 at once
};

const char* input_name(InputKind kind);
std::vector<InputKind> all_inputs();
std::string input_names(); // "ones, random, zeros, ..."
std::optional<InputKind> find_input(const std::string& name);

// Fills out[0..n) with the input. Random kinds call std::srand(seed) first, so
// a seed gives the same values on every run of the same C library.
void fill_input(InputKind kind, int* out, std::int64_t n, unsigned seed);

} // namespace scan
