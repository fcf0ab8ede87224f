// Checks that a program prints the course's lines in the course's order, with
// any of our own lines allowed between and after them.
#pragma once

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

// Each of `starts` begins a line of `output`, each later one on a later line.
inline ::testing::AssertionResult lines_in_order(const std::string& output,
                                                 const std::vector<std::string>& starts) {
  std::istringstream in(output);
  std::string line;
  std::size_t next = 0;
  while (next < starts.size() && std::getline(in, line))
    if (line.rfind(starts[next], 0) == 0) ++next;
  if (next == starts.size()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "no line starting '" << starts[next] << "' after the earlier ones in:\n"
         << output;
}
