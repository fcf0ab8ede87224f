#include "scan/algorithm.h"

#include "common/enum_names.h"

namespace scan {

namespace {
// The ladder's algorithms in order; the student's slot is found by name but
// is not one of them.
constexpr common::NamedValue<Algorithm> kAlgorithmNames[] = {
    // suite-only
    {Algorithm::kKoggeStone, "kogge-stone"},
    {Algorithm::kBlelloch, "blelloch"},
    {Algorithm::kSinglePass, "single-pass"},
    // /suite-only
    {Algorithm::kCub, "cub"}};
constexpr char kStudentName[] = "student";
} // namespace

const char* algorithm_name(Algorithm algorithm) {
  return algorithm == Algorithm::kStudent ? kStudentName
                                          : common::enum_name(kAlgorithmNames, algorithm);
}

std::vector<Algorithm> all_algorithms() {
  std::vector<Algorithm> all;
  for (const auto& entry : kAlgorithmNames) all.push_back(entry.value);
  return all;
}

std::string algorithm_names() {
  return common::enum_names(kAlgorithmNames);
}

std::optional<Algorithm> find_algorithm(const std::string& name) {
  if (name == kStudentName) return Algorithm::kStudent;
  return common::enum_from_name(kAlgorithmNames, name);
}

} // namespace scan
