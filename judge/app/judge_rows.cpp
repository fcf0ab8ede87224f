#include "judge_rows.h"

#include <cstdio>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include "judge/session.h"

namespace judge_app {

const std::vector<std::string> kTableColumns = {
    "test",       "item",      "status",     "best_ms", "median_ms", "empty_ms",
    "charged_ms", "runs",      "reason",     "role",    "ref_ms",    "score",
    "max_score",  "score_low", "score_high", "speedup", "stable"};

namespace {

// A cell of a tab-separated line: no tab or line break of its own.
std::string cell(std::string text) {
  for (char& c : text)
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  return text;
}

std::string fixed4(double v) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(4) << v;
  return out.str();
}

} // namespace

std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c < 0x20 || c >= 0x7f) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
      out += escaped;
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

std::string json_members(const Fields& fields) {
  std::string out;
  for (const Field& f : fields) {
    out += "," + json_string(f.name) + ":";
    if (!f.value)
      out += "null";
    else
      out += f.quoted ? json_string(*f.value) : *f.value;
  }
  return out;
}

std::string table_header() {
  std::string line;
  for (const std::string& column : kTableColumns) line += (line.empty() ? "" : "\t") + column;
  return line;
}

std::string table_line(const Fields& fields) {
  std::string line;
  for (std::size_t i = 0; i < kTableColumns.size(); ++i) {
    if (i > 0) line += '\t';
    for (const Field& f : fields)
      if (f.name == kTableColumns[i] && f.value) {
        line += cell(*f.value);
        break;
      }
  }
  return line;
}

RowPrinter::RowPrinter(const std::string& rows_file, const std::string& table_file) {
  if (!rows_file.empty()) {
    rows_.open(rows_file, std::ios::trunc);
    if (!rows_) throw std::runtime_error("--rows: cannot write " + rows_file);
    to_rows_ = true;
  }
  if (!table_file.empty()) {
    table_.open(table_file, std::ios::trunc);
    if (!(table_ << table_header() << std::endl))
      throw std::runtime_error("--rows-table: cannot write " + table_file);
    to_table_ = true;
  }
}

void RowPrinter::print(const std::string& test, const std::string& item, bool correct,
                       const std::vector<double>& times, double empty_ms, double charged_ms,
                       const std::string& reason, bool sandboxed, const Fields& more) {
  const std::string why = reason.empty() && !sandboxed ? "unsandboxed" : reason;
  const std::optional<std::string> best =
      correct ? std::optional<std::string>(fixed4(judge::best_of(times))) : std::nullopt;
  const std::optional<std::string> median =
      correct ? std::optional<std::string>(fixed4(judge::median_of(times))) : std::nullopt;
  std::cout << test << '\t' << item << '\t' << (correct ? "ok" : "rejected") << '\t'
            << best.value_or("-") << '\t' << median.value_or("-") << '\t' << fixed4(empty_ms)
            << '\t' << fixed4(charged_ms) << '\t' << times.size() << '\t' << cell(why) << std::endl;
  Fields fields = {{"test", test, true},
                   {"item", item, true},
                   {"status", correct ? "ok" : "rejected", true},
                   {"best_ms", best},
                   {"median_ms", median},
                   {"empty_ms", fixed4(empty_ms)},
                   {"charged_ms", fixed4(charged_ms)},
                   {"runs", std::to_string(times.size())},
                   {"reason", why, true}};
  fields.insert(fields.end(), more.begin(), more.end());
  if (to_rows_) {
    rows_ << "{" << json_members(fields).substr(1) << "}" << std::endl;
    if (!rows_) throw std::runtime_error("--rows: a row could not be written");
  }
  if (to_table_) {
    table_ << table_line(fields) << std::endl;
    if (!table_) throw std::runtime_error("--rows-table: a row could not be written");
  }
}

} // namespace judge_app
