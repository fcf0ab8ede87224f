#include "judge/contract.h"

#include <cmath>

namespace judge {

const ScoreRule* part_rule(std::string_view part) {
  for (const GradedPart& p : contract::kParts) {
    if (p.part != part) continue;
    for (const ScoreRule& r : contract::kRules)
      if (r.name == p.rule) return &r;
  }
  return nullptr;
}

std::vector<std::int64_t> contract_counts() {
  return {contract::kCounts.begin(), contract::kCounts.end()};
}

std::vector<std::string> contract_scenes() {
  return {contract::kScenes.begin(), contract::kScenes.end()};
}

double course_score(const ScoreRule& rule, double ref_ms, double ms) {
  if (ms <= rule.full_at * ref_ms) return rule.points;
  if (rule.formula == Formula::kProportional) return rule.points * ref_ms / ms;
  if (ms > rule.floor_beyond * ref_ms) return rule.floor_points;
  return rule.floor_points + std::ceil((rule.points - rule.floor_points) * ref_ms / ms);
}

RowScores row_scores(const ScoreRule& rule, double ref_best, double ref_median, double best,
                     double median) {
  return {course_score(rule, ref_best, best), course_score(rule, ref_best, median),
          course_score(rule, ref_median, best)};
}

} // namespace judge
