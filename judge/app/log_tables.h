// The tables of a grade.sh log folder (docs/grading.md, "Logs"), read as
// typed rows: scores.tsv, one row per graded item, and not_graded.tsv, one
// row per part that could not be graded. Each is tab-separated, its first
// line the column names; a column is found by its name, never by where it
// stands. The text is read as jq reads a file (valid_utf8), so the
// results.json made from it is what the jq program it replaces wrote.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace judge_app {

// A cell: nothing where the header has no such column (jq's null), "" where
// a row is shorter than the header.
using Cell = std::optional<std::string>;

struct ScoreRow {
  Cell part, item, seed, reference, ref_ms, your_ms, speedup, verdict, score, max_score,
      round_trip_ms, note;
};

struct NotGradedRow {
  Cell part, reason, max_score;
};

// A table's text split into its header and rows: lines split at "\n", empty
// ones skipped, cells at "\t". Throws std::runtime_error, naming `what`, for
// a row with more cells than the header.
struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};
Table split_table(const std::string& text, const std::string& what);

// The cell of `row` in the column named `column` (the last such column).
Cell cell_of(const Table& table, const std::vector<std::string>& row, const std::string& column);

std::vector<ScoreRow> score_rows(const Table& table);
std::vector<NotGradedRow> not_graded_rows(const Table& table);

// The file's bytes as jq 1.6 reads one (--rawfile): in 4096-byte pieces,
// each made valid UTF-8 alone (a piece is first extended by the rest of a
// character cut at its end). Throws std::runtime_error where it cannot be
// read.
std::string read_as_jq(const std::string& path);

} // namespace judge_app
