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

namespace {

std::string held_idle(Probes& p, double switch_ms) {
  return judge::judge_held_idle(switch_ms, "before timed call 3", [&p] { return p(); });
}

} // namespace

// With every worker held still, the GPU must be idle: a probe as fast as
// after an honest worker, or one slow probe of noise, passes.
TEST(HeldIdle, AnIdleGpuPasses) {
  Probes fast{{0.15}};
  EXPECT_EQ(held_idle(fast, 0.15), "");
  Probes noise{{1.7, 0.16}};
  EXPECT_EQ(held_idle(noise, 0.15), "");
  EXPECT_EQ(noise.taken, 2);
}

// Work left running while held (a resident kernel that would read the next
// input off the clock) slows both probes past 1 ms: named, with when.
TEST(HeldIdle, WorkRunningWhileHeldIsNamed) {
  Probes busy{{2.3, 2.2}};
  const std::string why = held_idle(busy, 0.14);
  EXPECT_NE(why.find("GPU work running while the judge held it still, before timed call 3"),
            std::string::npos)
      << why;
  EXPECT_NE(why.find("the judge's probe took 2.3"), std::string::npos) << why;
}

// The limit is 1 ms beyond the switch's cost, whatever the call would take.
TEST(HeldIdle, TheLimitIsOneMillisecond) {
  Probes under{{1.1, 1.1}};
  EXPECT_EQ(held_idle(under, 0.15), "");
  Probes over{{1.2, 1.2}};
  EXPECT_NE(held_idle(over, 0.15), "");
}
