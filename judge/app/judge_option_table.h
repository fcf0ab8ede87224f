// The judge's options as one table: each option's name, its value, its
// help and what it sets. The parser (judge_cli.cpp) and the help text are
// both made from it, so an option cannot be parsed without being
// described, nor described without being parsed.
#pragma once

#include <string>
#include <vector>

#include "judge_cli.h"

namespace judge_app {

// What parsing keeps beside the command until every option is read.
struct ParseState {
  std::string worker; // as given; made absolute once all options are read
};

struct OptionSpec {
  const char* name;  // the long option, without its dashes
  const char* value; // the value's name in the help; null for a flag
  const char* help;  // its lines, '\n' between them
  // Sets what the option sets; false when it printed what was asked
  // instead and the judge stops there (--list-scenes).
  bool (*apply)(JudgeCommand& command, ParseState& state, const char* value);
};

// Every option but -h/--help, in the order the help lists them.
const std::vector<OptionSpec>& option_table();

// The help's Options section, from the table.
std::string options_help();

} // namespace judge_app
