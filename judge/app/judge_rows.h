// The judge's rows: tab-separated on standard output, for people; as JSON
// lines in the --rows file; and as a table in the --rows-table file, a
// header line of column names and then one tab-separated line a row, which
// scripts read each column by its name, parsing no JSON.
#pragma once

#include <cstddef>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

namespace judge_app {

// A field of a row beyond the common ones: its value as text (none: JSON's
// null, an empty cell), written as a JSON string where `quoted`, else as
// a JSON number or literal.
struct Field {
  std::string name;
  std::optional<std::string> value;
  bool quoted = false;
};
using Fields = std::vector<Field>;

// The --rows-table columns, in order: the common fields, then role, the
// fields of judge score and stable, empty where a row has none.
extern const std::vector<std::string> kTableColumns;

// `fields` as JSON members, each with its leading comma.
std::string json_members(const Fields& fields);
// The header line of the table (kTableColumns), and one row of it: each
// named column's value, tabs and line breaks in it made spaces.
std::string table_header();
std::string table_line(const Fields& fields);

class RowPrinter {
public:
  // A file name empty: that form is not written. Throws when one cannot be
  // written.
  RowPrinter(const std::string& rows_file, const std::string& table_file);

  // One row (the judge's usage text names the fields). `sandboxed` false
  // notes "unsandboxed" where there is no other reason. `more`: the fields
  // of the JSON line and the table beyond the common ones.
  void print(const std::string& test, const std::string& item, bool correct,
             const std::vector<double>& times, double empty_ms, double charged_ms,
             const std::string& reason, bool sandboxed, const Fields& more = {});

private:
  std::ofstream rows_, table_;
  bool to_rows_ = false, to_table_ = false;
};

// How json_string writes what is not printable ASCII.
enum class JsonText {
  // Every such byte as \u00XX: any bytes a reason holds make valid JSON.
  kBytes,
  // Text already valid UTF-8 (valid_utf8): control characters escaped as
  // jq escapes them (\b \t \n \f \r, else \u00xx), other characters as
  // they are, so results.json reads as jq wrote it.
  kUtf8,
};

// `text` as a JSON string, quotes included.
std::string json_string(const std::string& text, JsonText how = JsonText::kBytes);

// `bytes` made valid UTF-8 as jq makes a file it reads: each invalid
// sequence (a stray byte, a sequence cut short, overlong, a surrogate, past
// U+10FFFF) becomes U+FFFD.
std::string valid_utf8(const std::string& bytes);

// The length of the UTF-8 sequence a byte starts: 1 to 4; 0 for a byte no
// sequence starts with (a continuation byte, C0, C1, F5 to FF).
std::size_t utf8_announced_length(unsigned char first);

} // namespace judge_app
