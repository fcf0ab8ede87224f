// The judge's rows: tab-separated on standard output, for people, and as
// JSON lines in the --rows file, for scripts, which read each field by its
// name.
#pragma once

#include <fstream>
#include <string>
#include <vector>

namespace judge_app {

class RowPrinter {
public:
  // `rows_file` empty: standard output only. Throws when it cannot be
  // written.
  explicit RowPrinter(const std::string& rows_file);

  // One row (the judge's usage text names the fields). `sandboxed` false
  // notes "unsandboxed" where there is no other reason. `more_json`: more
  // fields of the JSON line, each with its leading comma.
  void print(const std::string& test, const std::string& item, bool correct,
             const std::vector<double>& times, double empty_ms, double charged_ms,
             const std::string& reason, bool sandboxed, const std::string& more_json = "");

private:
  std::ofstream rows_;
  bool to_file_ = false;
};

// `text` as a JSON string, quotes included: every byte outside printable
// ASCII escaped, so any bytes a reason holds make valid JSON.
std::string json_string(const std::string& text);

} // namespace judge_app
