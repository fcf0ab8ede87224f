// The course's grading contract as the judge holds it: the graded sizes and
// scenes, the timed calls, and each part's points and score rule. Written
// once, in judge/contract/course.json; the build makes contract_data.h from
// it, and the checks below hold it to what the score rules assume.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace judge {

enum class Formula {
  kProportional, // points * T_ref / T
  kStepped,      // floor_points + ceil((points - floor_points) * T_ref / T)
};

enum class Items { kCounts, kScenes };

// One row's score, for a correct result: `points` when T <= full_at T_ref;
// a stepped rule scores `floor_points` when T > floor_beyond T_ref.
struct ScoreRule {
  std::string_view name;
  double points;
  Formula formula;
  double full_at;
  double floor_beyond;
  double floor_points;
  // Interleaved timing stops repeating once the scores at the medians'
  // times are within this of the score (points).
  double steady_within;
};

struct GradedPart {
  std::string_view part; // a judge test: scan, find_repeats, render
  Items items;           // what its rows are: the counts or the scenes
  std::string_view rule; // a ScoreRule's name
};

} // namespace judge

#include "judge/contract_data.h"

namespace judge {

namespace contract_checks {

constexpr bool rules_are_sound() {
  for (const ScoreRule& r : contract::kRules) {
    if (!(r.points > 0) || !(r.full_at >= 1) || !(r.steady_within >= 0)) return false;
    if (r.formula == Formula::kStepped &&
        (!(r.floor_beyond > r.full_at) || r.floor_points < 0 || !(r.floor_points < r.points)))
      return false;
  }
  return true;
}

constexpr bool parts_name_rules() {
  for (const GradedPart& p : contract::kParts) {
    bool found = false;
    for (const ScoreRule& r : contract::kRules) found = found || r.name == p.rule;
    if (!found) return false;
  }
  return true;
}

static_assert(rules_are_sound(), "course.json: a rule needs points > 0 and full_at >= 1; a "
                                 "stepped one floor_beyond > full_at, 0 <= floor_points < points");
static_assert(parts_name_rules(), "course.json: every part names one of the rules");
static_assert(contract::kRuns >= 1 && contract::kSize >= 1 && contract::kSaxpyCount >= 1,
              "course.json: runs, size and saxpy_count are positive");
static_assert(contract::kMaxRuns >= contract::kRuns, "course.json: max_runs is at least runs");

} // namespace contract_checks

// The rule of a scoring part; nothing for a part that scores none (saxpy).
const ScoreRule* part_rule(std::string_view part);

// The contract's counts and scenes, as the judge's options hold them.
std::vector<std::int64_t> contract_counts();
std::vector<std::string> contract_scenes();

// A correct row's score by `rule`, from the reference's time and the
// graded worker's (ms, both positive).
double course_score(const ScoreRule& rule, double ref_ms, double ms);

// A correct row's score at the two best times, and with either side's
// median instead (low: the graded worker's; high: the reference's): where
// they differ, the timing's spread reaches a threshold.
struct RowScores {
  double score, low, high;
};
RowScores row_scores(const ScoreRule& rule, double ref_best, double ref_median, double best,
                     double median);

} // namespace judge
