#include "judge_rows.h"

#include <cstdint>
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

// jq's two-character escapes of control characters (0 for none).
char short_escape(unsigned char c) {
  switch (c) {
  case '\b':
    return 'b';
  case '\t':
    return 't';
  case '\n':
    return 'n';
  case '\f':
    return 'f';
  case '\r':
    return 'r';
  default:
    return 0;
  }
}

bool continuation(unsigned char c) {
  return (c & 0xc0) == 0x80;
}

// The length of the valid character at bytes[i], 0 where none starts there.
std::size_t utf8_length(const std::string& bytes, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(bytes[i + k]); };
  const std::size_t length = utf8_announced_length(byte(0));
  if (length == 0 || i + length > bytes.size()) return 0;
  std::uint32_t code = byte(0) & (0xff >> (length + 1));
  for (std::size_t k = 1; k < length; ++k) {
    if (!continuation(byte(k))) return 0;
    code = (code << 6) | (byte(k) & 0x3f);
  }
  static const std::uint32_t kFirst[] = {0, 0, 0x80, 0x800, 0x10000}; // not overlong
  if (code < kFirst[length] || (code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff) return 0;
  return length;
}

// The bytes one U+FFFD stands for where no valid character starts at i, as
// jq counts them: a byte no sequence starts with alone; a sequence cut short
// by the end of the text, all of the rest; else the first byte and the
// continuation bytes after it, up to the length it announces.
std::size_t invalid_length(const std::string& bytes, std::size_t i) {
  const std::size_t length = utf8_announced_length(static_cast<unsigned char>(bytes[i]));
  if (length <= 1) return 1;
  if (i + length > bytes.size()) return bytes.size() - i;
  std::size_t k = 1;
  while (k < length && continuation(static_cast<unsigned char>(bytes[i + k]))) ++k;
  return k;
}

std::string fixed4(double v) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(4) << v;
  return out.str();
}

} // namespace

std::string json_string(const std::string& text, JsonText how) {
  std::string out = "\"";
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (how == JsonText::kUtf8 && c >= 0x80) {
      out += ch; // a byte of a UTF-8 character, kept
    } else if (how == JsonText::kUtf8 && short_escape(c)) {
      out += '\\';
      out += short_escape(c);
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

std::size_t utf8_announced_length(unsigned char c) {
  if (c < 0x80) return 1;
  if (c < 0xc2) return 0;
  if (c < 0xe0) return 2;
  if (c < 0xf0) return 3;
  return c < 0xf5 ? 4 : 0;
}

std::string valid_utf8(const std::string& bytes) {
  static const std::string kReplacement = "\xef\xbf\xbd"; // U+FFFD
  std::string out;
  out.reserve(bytes.size());
  const std::size_t end = bytes.size();
  for (std::size_t i = 0; i < end;) {
    const std::size_t length = utf8_length(bytes, i);
    if (length > 0) {
      out.append(bytes, i, length);
      i += length;
    } else {
      out += kReplacement;
      i += invalid_length(bytes, i);
    }
  }
  return out;
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
