// The judgement of GPU work left running after an answer, on probe times
// given by the test: a charge for any excess, a rejection only when a
// second probe is slow too.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "judge/shared_array.h"

namespace {

// A probe that gives `times` in turn and counts its calls.
struct Probes {
  std::vector<double> times;
  int taken = 0;
  double operator()() { return times.at(static_cast<std::size_t>(taken++)); }
};

judge::LateWork judge_on(Probes& p, double switch_ms, double call_ms) {
  return judge::judge_late_work(switch_ms, "call 1", call_ms, [&p] { return p(); });
}

TEST(LateWork, AProbeAsFastAsAfterAnHonestWorkerChargesNothing) {
  Probes p{{0.12}};
  const judge::LateWork w = judge_on(p, 0.15, 0.5);
  EXPECT_EQ(w.charged_ms, 0.0);
  EXPECT_EQ(w.reason, "");
  EXPECT_EQ(p.taken, 1);
}

TEST(LateWork, ASlowerProbeWithinTheLimitIsChargedOnce) {
  Probes p{{0.95}};
  const judge::LateWork w = judge_on(p, 0.15, 0.5);
  EXPECT_NEAR(w.charged_ms, 0.8, 1e-9);
  EXPECT_EQ(w.reason, "");
  EXPECT_EQ(p.taken, 1);
}

// One slow probe is noise when the next is fast: charged, not rejected.
TEST(LateWork, OneSlowProbeThenAFastOneIsChargedNotRejected) {
  Probes p{{1.693, 0.16}};
  const judge::LateWork w = judge_on(p, 0.154, 0.02);
  EXPECT_NEAR(w.charged_ms, 1.693 - 0.154, 1e-9);
  EXPECT_EQ(w.reason, "");
  EXPECT_EQ(p.taken, 2);
}

TEST(LateWork, TwoSlowProbesReject) {
  Probes p{{5.0, 4.0}};
  const judge::LateWork w = judge_on(p, 0.15, 0.5);
  EXPECT_NEAR(w.charged_ms, 4.85, 1e-9);
  EXPECT_NE(w.reason.find("GPU work still running after call 1 answered"), std::string::npos)
      << w.reason;
  EXPECT_NE(w.reason.find("and again 4.0"), std::string::npos) << w.reason;
}

// The limit grows with the call: a tenth of a long call's time more.
TEST(LateWork, TheLimitIsOneMillisecondAndATenthOfTheCall) {
  Probes under{{2.9, 2.9}};
  EXPECT_EQ(judge_on(under, 0.0, 20.0).reason, "");
  Probes over{{3.1, 3.1}};
  EXPECT_NE(judge_on(over, 0.0, 20.0).reason, "");
}

} // namespace
