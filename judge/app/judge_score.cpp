#include "judge_score.h"

#include <getopt.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>

#include "common/cli.h"
#include "judge/contract.h"
#include "judge_rows.h"

namespace judge_app {

const char kScoreUsage[] =
    R"(Usage: judge score --part PART --status STATUS --best-ms MS --reference-ms MS [options]
Scores one row as the course does (judge/contract/course.json): 0 unless
STATUS is ok; otherwise by the part's rule from the reference's time T_ref
and the graded worker's best call T. Prints one JSON object: part, ref_ms
(the reference time scored against), score (null without both times),
max_score, score_low and score_high (the score with the graded worker's
median instead of its best, and with the reference's median instead of
its best: apart from score, the timing's spread reaches a threshold), and
speedup (T_ref / T, null without both times).
Options:
  --part scan|find_repeats|render  the graded part
  --status ok|rejected  the judge's verdict on the row
  --best-ms MS          the graded worker's best call ("-": none)
  --median-ms MS        its median call (default: its best)
  --reference-ms MS     the reference's best time ("-": none)
  --reference-median-ms MS  the reference's median (default: its best)
  --reference-cores N   the reference time is a serial one: divided by N
                        (perfect scaling on N cores), kept to 4 decimals
  --table               print the fields as the judge's --rows-table does
                        (a header line of column names, then one
                        tab-separated line; an empty cell for null)
  -h, --help            this text
)";

namespace {

enum Long { kPart = 1000, kStatus, kBest, kMedian, kReference, kReferenceMedian, kCores, kTable };

// A time in ms, or nothing for "-".
std::optional<double> parse_ms(const char* text, const char* option) {
  const std::string s = text;
  if (s == "-") return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || *end != '\0' || !(v >= 0) || !(v < 1e12))
    throw common::UsageError(std::string(option) + ": '" + s + "' is not a time in ms (or -)");
  return v;
}

// The number as the tables and scripts read it: at most nine decimals, no
// exponent, no trailing zeros.
std::string plain(double v, int decimals = 9) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, v);
  std::string s = text;
  if (s.find('.') != std::string::npos) {
    s.erase(s.find_last_not_of('0') + 1);
    if (s.back() == '.') s.pop_back();
  }
  return s;
}

std::optional<std::string> number(const std::optional<double>& v, int decimals = 9) {
  return v ? std::optional<std::string>(plain(*v, decimals)) : std::nullopt;
}

} // namespace

Fields score_fields(const judge::ScoreRule& rule, bool ok, const RowTimes& t) {
  const auto score_of = [&](const std::optional<double>& r,
                            const std::optional<double>& mine) -> std::optional<double> {
    if (!ok) return 0.0;
    if (!r || !mine) return std::nullopt;
    return judge::course_score(rule, *r, *mine);
  };
  const std::optional<double> median = t.median ? t.median : t.best;
  const std::optional<double> ref_median = t.ref_median ? t.ref_median : t.ref;
  std::optional<double> speedup;
  if (t.ref && t.best && *t.best > 0) speedup = *t.ref / *t.best;
  return {{"ref_ms", number(t.ref, 4)},
          {"score", number(score_of(t.ref, t.best))},
          {"max_score", plain(rule.points)},
          {"score_low", number(score_of(t.ref, median))},
          {"score_high", number(score_of(ref_median, t.best))},
          {"speedup", number(speedup, 6)}};
}

int run_score(int argc, char** argv) {
  static const option kLong[] = {
      {"part", required_argument, nullptr, kPart},
      {"status", required_argument, nullptr, kStatus},
      {"best-ms", required_argument, nullptr, kBest},
      {"median-ms", required_argument, nullptr, kMedian},
      {"reference-ms", required_argument, nullptr, kReference},
      {"reference-median-ms", required_argument, nullptr, kReferenceMedian},
      {"reference-cores", required_argument, nullptr, kCores},
      {"table", no_argument, nullptr, kTable},
      {"help", no_argument, nullptr, 'h'},
      {nullptr, 0, nullptr, 0}};
  std::string part, status;
  std::optional<double> best, median, ref, ref_median;
  bool have_best = false, have_ref = false, table = false;
  std::int64_t cores = 1;
  optind = 1;
  int c;
  opterr = 0; // getopt_help_or_throw says what is wrong, in one line
  while ((c = getopt_long(argc, argv, ":h?", kLong, nullptr)) != -1) {
    switch (c) {
    case kPart:
      part = optarg;
      break;
    case kStatus:
      status = optarg;
      break;
    case kBest:
      best = parse_ms(optarg, "--best-ms"), have_best = true;
      break;
    case kMedian:
      median = parse_ms(optarg, "--median-ms");
      break;
    case kReference:
      ref = parse_ms(optarg, "--reference-ms"), have_ref = true;
      break;
    case kReferenceMedian:
      ref_median = parse_ms(optarg, "--reference-median-ms");
      break;
    case kCores:
      cores = common::parse_int(optarg, "--reference-cores", 1, 65536);
      break;
    case kTable:
      table = true;
      break;
    case 'h':
      std::cout << kScoreUsage;
      return 0;
    default:
      if (common::getopt_help_or_throw(c, argv, kLong)) std::cout << kScoreUsage;
      return 0;
    }
  }
  common::reject_operands(argc, argv);
  const judge::ScoreRule* rule = judge::part_rule(part);
  if (!rule)
    throw common::UsageError("--part: '" + part +
                             "' is not a scoring part (scan, find_repeats, render)");
  if (status != "ok" && status != "rejected")
    throw common::UsageError("--status: '" + status + "' is not ok or rejected");
  if (!have_best || !have_ref)
    throw common::UsageError("--best-ms and --reference-ms are required");
  // A serial time over the cores, to the judge's 4 decimals, as every time
  // a table shows.
  const auto per_core = [&](std::optional<double>& t) {
    if (t) t = std::strtod(plain(*t / double(cores), 4).c_str(), nullptr);
  };
  if (cores > 1) per_core(ref), per_core(ref_median);

  const Fields fields = score_fields(*rule, status == "ok", {ref, ref_median, best, median});
  if (table)
    std::cout << table_header() << "\n" << table_line(fields) << "\n";
  else
    std::cout << "{\"part\":" << json_string(part) << json_members(fields) << "}\n";
  return 0;
}

} // namespace judge_app
