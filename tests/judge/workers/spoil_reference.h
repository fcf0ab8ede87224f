// Where spoil_reference leaves its mark for spoilable_reference: beside the
// test's targets, which only an unsandboxed worker can write. It stands in
// for what a GPU worker does to the reference beside it (the GPU's memory
// taken, a kernel left resident), which host code cannot.
#pragma once

#include <string>

inline std::string spoil_mark() {
  const std::string targets = JUDGE_TEST_TARGETS; // may not exist: its folder does
  return targets.substr(0, targets.rfind('/')) + "/spoiled-reference";
}
