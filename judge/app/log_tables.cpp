#include "log_tables.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>

#include "judge_rows.h"

namespace judge_app {

namespace {

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t at; (at = text.find(separator, start)) != std::string::npos; start = at + 1)
    parts.push_back(text.substr(start, at - start));
  parts.push_back(text.substr(start));
  return parts;
}

// How many bytes past a piece's end complete the character cut there (jq's
// jvp_utf8_backtrack): 0 where none is cut.
std::size_t missing_bytes(const std::string& piece) {
  if (piece.size() < 2) return 0;
  std::size_t i = piece.size() - 1, seen = 1;
  while ((static_cast<unsigned char>(piece[i]) & 0xc0) == 0x80) {
    if (i == 0) return 0;
    --i, ++seen;
  }
  const std::size_t length = utf8_announced_length(static_cast<unsigned char>(piece[i]));
  return length > seen ? length - seen : 0;
}

} // namespace

Table split_table(const std::string& text, const std::string& what) {
  Table table;
  bool first = true;
  for (const std::string& line : split(text, '\n')) {
    if (line.empty()) continue;
    std::vector<std::string> cells = split(line, '\t');
    if (first) {
      table.header = std::move(cells), first = false;
      continue;
    }
    if (cells.size() > table.header.size())
      throw std::runtime_error(what + ": a row has more cells than the header has columns");
    table.rows.push_back(std::move(cells));
  }
  return table;
}

Cell cell_of(const Table& table, const std::vector<std::string>& row, const std::string& column) {
  for (std::size_t i = table.header.size(); i-- > 0;)
    if (table.header[i] == column) return i < row.size() ? row[i] : "";
  return std::nullopt;
}

std::vector<ScoreRow> score_rows(const Table& table) {
  std::vector<ScoreRow> rows;
  for (const auto& r : table.rows) {
    const auto at = [&](const char* column) { return cell_of(table, r, column); };
    rows.push_back({at("part"), at("item"), at("seed"), at("reference"), at("ref_ms"),
                    at("your_ms"), at("speedup"), at("verdict"), at("score"), at("max_score"),
                    at("round_trip_ms"), at("note")});
  }
  return rows;
}

std::vector<NotGradedRow> not_graded_rows(const Table& table) {
  std::vector<NotGradedRow> rows;
  for (const auto& r : table.rows)
    rows.push_back(
        {cell_of(table, r, "part"), cell_of(table, r, "reason"), cell_of(table, r, "max_score")});
  return rows;
}

std::string read_as_jq(const std::string& path) {
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"),
                                                             std::fclose);
  if (!file) throw std::runtime_error("cannot read " + path + ": " + std::strerror(errno));
  std::string text, piece;
  char buffer[4096 + 4];
  while (true) {
    std::size_t n = std::fread(buffer, 1, 4096, file.get());
    if (n == 0) break;
    piece.assign(buffer, n);
    const std::size_t missing = missing_bytes(piece);
    if (missing > 0 && !std::feof(file.get()) && !std::ferror(file.get())) {
      n = std::fread(buffer, 1, missing, file.get());
      piece.append(buffer, n);
    }
    text += valid_utf8(piece);
  }
  if (std::ferror(file.get())) throw std::runtime_error("cannot read " + path);
  return text;
}

} // namespace judge_app
