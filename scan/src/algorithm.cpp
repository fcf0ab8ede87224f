#include "scan/algorithm.h"

namespace scan {

const char* algorithm_name(Algorithm algorithm) {
  switch (algorithm) {
  case Algorithm::kKoggeStone:
    return "kogge-stone";
  case Algorithm::kBlelloch:
    return "blelloch";
  case Algorithm::kSinglePass:
    return "single-pass";
  case Algorithm::kCub:
    return "cub";
  case Algorithm::kStudent:
    return "student";
  }
  return "?";
}

std::vector<Algorithm> all_algorithms() {
  return {Algorithm::kKoggeStone, Algorithm::kBlelloch, Algorithm::kSinglePass, Algorithm::kCub};
}

std::string algorithm_names() {
  std::string names;
  for (Algorithm a : all_algorithms())
    names += (names.empty() ? "" : ", ") + std::string(algorithm_name(a));
  return names;
}

std::optional<Algorithm> find_algorithm(const std::string& name) {
  for (Algorithm a : all_algorithms())
    if (name == algorithm_name(a)) return a;
  if (name == algorithm_name(Algorithm::kStudent)) return Algorithm::kStudent;
  return std::nullopt;
}

} // namespace scan
