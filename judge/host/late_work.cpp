// The judgement of GPU work left running after an answer, from the judge's
// probe times (probe_late_work in shared_array.h).
#include <algorithm>
#include <string>

#include "judge/shared_array.h"

namespace judge {

LateWork judge_late_work(double switch_ms, const std::string& what, double call_ms,
                         const std::function<double()>& probe) {
  LateWork w;
  const double limit = 1.0 + 0.1 * call_ms;
  const double first = probe();
  // The first probe's excess is charged whatever the second says: work that
  // ended during it was still the call's.
  w.charged_ms = std::max(0.0, first - switch_ms);
  if (w.charged_ms <= limit) return w;
  const double second = probe();
  if (second - switch_ms <= limit) return w;
  w.reason = "GPU work still running after " + what + " answered (the judge's probe took " +
             std::to_string(first) + " ms, and again " + std::to_string(second) +
             " ms, after an honest worker " + std::to_string(switch_ms) + " ms)";
  return w;
}

std::string judge_held_idle(double switch_ms, const std::string& when,
                            const std::function<double()>& probe) {
  const LateWork w = judge_late_work(switch_ms, "x", 0, probe);
  if (w.reason.empty()) return {};
  // The probe's times, as the late-work reason gives them.
  return "GPU work running while the judge held it still, " + when +
         w.reason.substr(w.reason.find(" (the judge's probe"));
}

} // namespace judge
