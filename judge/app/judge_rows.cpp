#include "judge_rows.h"

#include <cstdio>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include "judge/session.h"

namespace judge_app {

namespace {

// A field of the tab-separated row: no tab or line break of its own.
std::string field(std::string text) {
  for (char& c : text)
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  return text;
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

RowPrinter::RowPrinter(const std::string& rows_file) {
  if (rows_file.empty()) return;
  rows_.open(rows_file, std::ios::trunc);
  if (!rows_) throw std::runtime_error("--rows: cannot write " + rows_file);
  to_file_ = true;
}

void RowPrinter::print(const std::string& test, const std::string& item, bool correct,
                       const std::vector<double>& times, double empty_ms, double charged_ms,
                       const std::string& reason, bool sandboxed, const std::string& more_json) {
  const std::string why = reason.empty() && !sandboxed ? "unsandboxed" : reason;
  std::ostringstream best, median;
  best << std::fixed << std::setprecision(4);
  median << std::fixed << std::setprecision(4);
  if (correct) {
    best << judge::best_of(times);
    median << judge::median_of(times);
  }
  std::cout << std::fixed << std::setprecision(4) << test << '\t' << item << '\t'
            << (correct ? "ok" : "rejected") << '\t' << (correct ? best.str() : "-") << '\t'
            << (correct ? median.str() : "-") << '\t' << empty_ms << '\t' << charged_ms << '\t'
            << times.size() << '\t' << field(why) << std::endl;
  if (!to_file_) return;
  rows_ << std::fixed << std::setprecision(4) << "{\"test\":" << json_string(test)
        << ",\"item\":" << json_string(item) << ",\"status\":\"" << (correct ? "ok" : "rejected")
        << "\",\"best_ms\":" << (correct ? best.str() : "null")
        << ",\"median_ms\":" << (correct ? median.str() : "null") << ",\"empty_ms\":" << empty_ms
        << ",\"charged_ms\":" << charged_ms << ",\"runs\":" << times.size()
        << ",\"reason\":" << json_string(why) << more_json << "}" << std::endl;
  if (!rows_) throw std::runtime_error("--rows: a row could not be written");
}

} // namespace judge_app
