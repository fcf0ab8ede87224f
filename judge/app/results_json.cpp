#include "results_json.h"

#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <regex>
#include <stdexcept>

#include "judge_rows.h"

namespace judge_app {

namespace {

struct Test {
  std::string name;
  double score, max_score;
  std::string status;
  Cell output; // nothing: null (a not-graded row with no reason column)
};

// A cell as jq's string interpolation writes it: "null" for none.
std::string text(const Cell& cell) {
  return cell.value_or("null");
}

std::string quoted(const std::string& s) {
  return json_string(s, JsonText::kUtf8);
}

std::string score_of(const Cell& cell, const char* column) {
  if (!cell)
    throw std::runtime_error(std::string("scores.tsv has rows but no ") + column + " column");
  return *cell;
}

// What the judge and grade.sh said of the row, as the student reads it.
std::string row_output(const ScoreRow& r) {
  std::string out = "verdict: " + text(r.verdict) + "\nyour time: " + text(r.your_ms) +
                    " ms, reference time: " + text(r.ref_ms) + " ms (" + text(r.reference) +
                    "), speedup " + text(r.speedup);
  // A seed to replay the row's check with; "-" where the part has none.
  if (r.seed && *r.seed != "-" && !r.seed->empty()) out += "\ncheck seed: " + *r.seed;
  if (r.round_trip_ms.value_or("-") != "-")
    out += "\ntimed by the judge (its empty round trip: " + *r.round_trip_ms + " ms)";
  if (!r.note.value_or("").empty()) out += "\nthe judge: " + *r.note;
  return out;
}

std::string test_json(const Test& t) {
  return "    {\n      \"name\": " + quoted(t.name) + ",\n      \"score\": " + jq_number(t.score) +
         ",\n      \"max_score\": " + jq_number(t.max_score) +
         ",\n      \"status\": " + quoted(t.status) +
         ",\n      \"output\": " + (t.output ? quoted(*t.output) : "null") + "\n    }";
}

} // namespace

std::string jq_number(double v) {
  if (std::isnan(v)) return "null";
  v = std::fmax(-DBL_MAX, std::fmin(DBL_MAX, v)); // jq prints infinities as the largest double
  // The shortest digits that read back as v, and where the point goes.
  char buffer[64];
  const auto [end, ec] =
      std::to_chars(buffer, buffer + sizeof buffer, std::fabs(v), std::chars_format::scientific);
  if (ec != std::errc()) throw std::runtime_error("cannot print a number");
  const std::string sci(buffer, end);
  const std::size_t e = sci.find('e');
  std::string digits = sci.substr(0, e);
  if (digits.size() > 1) digits.erase(1, 1); // the point
  const int exponent = std::atoi(sci.c_str() + e + 1);
  std::string out = std::signbit(v) ? "-" : "";
  if (v == 0) return out + "0";
  const int point = exponent + 1, count = int(digits.size());
  if (point <= -4 || point > count + 15) {
    char tail[16];
    std::snprintf(tail, sizeof tail, "e%+03d", exponent);
    return out + digits.substr(0, 1) + (count > 1 ? "." + digits.substr(1) : "") + tail;
  }
  if (point <= 0) return out + "0." + std::string(-point, '0') + digits;
  if (point >= count) return out + digits + std::string(point - count, '0');
  return out + digits.substr(0, point) + "." + digits.substr(point);
}

double score_number(const std::string& text) {
  static const std::regex kNumber("[0-9]+(\\.[0-9]+)?");
  return std::regex_match(text, kNumber) ? std::strtod(text.c_str(), nullptr) : 0;
}

std::string gradescope_results(const std::vector<ScoreRow>& scores,
                               const std::vector<NotGradedRow>& not_graded,
                               std::optional<long> execution_time) {
  std::vector<Test> tests;
  for (const ScoreRow& r : scores) {
    tests.push_back({text(r.part) + " " + text(r.item), score_number(score_of(r.score, "score")),
                     score_number(score_of(r.max_score, "max_score")),
                     r.verdict == "ok" ? "passed" : "failed", row_output(r)});
  }
  std::string output = "Graded by scripts/grade.sh: one test per graded item.";
  for (const NotGradedRow& r : not_graded) {
    tests.push_back({text(r.part) + " (not graded)", 0, score_number(r.max_score.value_or("0")),
                     "failed", r.reason});
    output += "\n" + text(r.part) + ": not graded: " + text(r.reason);
  }
  // Summed in the tests' order, as jq's add.
  double total = 0;
  for (const Test& t : tests) total += t.score;
  std::string json = "{\n  \"score\": " + jq_number(total) + ",\n";
  if (execution_time) json += "  \"execution_time\": " + std::to_string(*execution_time) + ",\n";
  json += "  \"output\": " + quoted(output) +
          ",\n  \"visibility\": \"visible\",\n  \"stdout_visibility\": \"hidden\",\n  \"tests\": ";
  if (tests.empty()) return json + "[]\n}\n";
  json += "[\n";
  for (std::size_t i = 0; i < tests.size(); ++i)
    json += test_json(tests[i]) + (i + 1 < tests.size() ? ",\n" : "\n");
  return json + "  ]\n}\n";
}

} // namespace judge_app
