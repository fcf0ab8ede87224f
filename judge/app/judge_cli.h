// The judge's command line: its options, parsed and checked, and what it
// is to run.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "judge/contract.h"
#include "judge/judge_options.h"
#include "judge/scan_judge.h"

namespace judge_app {

// The judge's help text (its options from judge_option_table.h).
std::string judge_usage();

struct JudgeCommand {
  judge::JudgeOptions options; // the worker's path absolute already
  std::vector<judge::ScanTest> scan_tests;
  bool render = false, saxpy = false;
  std::vector<std::int64_t> counts = judge::contract_counts();
  std::vector<std::string> scenes = judge::contract_scenes();
  int size = judge::contract::kSize;
  bool trusted_untimed = false;
  std::string secret_file;      // absolute; empty: none
  std::string rows_file;        // --rows; empty: none
  std::string rows_table_file;  // --rows-table; empty: none
  std::string reference_worker; // absolute; empty: the graded worker alone
  bool allow_every_gpu = false; // --allow-every-gpu
  double time_limit_s = 0;      // --time-limit; 0: none
};

// The command `argv` asks for, checked; nothing when it printed what was
// asked instead (--help, --list-scenes). Throws common::UsageError.
std::optional<JudgeCommand> parse_command_line(int argc, char** argv);

// `path` made absolute, or a usage error naming `option`.
std::string absolute(const std::string& path, const char* option);

} // namespace judge_app
