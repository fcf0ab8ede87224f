#include "judge/judge_options.h"

#include <algorithm>

namespace judge {

double seconds_left(const JudgeOptions& options) {
  using namespace std::chrono;
  if (options.deadline == steady_clock::time_point::max()) return 1e9;
  return std::max(0.0, duration<double>(options.deadline - steady_clock::now()).count());
}

std::string time_limit_reason(bool started) {
  return started ? "time limit: the judge's time (--time-limit) ran out during this row"
                 : "time limit: the judge's time (--time-limit) ran out before this row";
}

} // namespace judge
