// render_bench_cpu's command line: what -k (suffix lengths) measures and
// what it refuses. The timed runs are benchmarks, not tests.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "test_util.h"

namespace {

using render_test::contains;
using render_test::ProgramRun;

ProgramRun run_bench(const std::vector<std::string>& args) {
  return render_test::run_built(RENDER_BENCH_CPU_PROGRAM, args);
}

int lines(const std::string& text) {
  return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

// Snow blends every circle: -k names the snow scenes it skips on one line
// of stderr and measures the rest.
TEST(BenchCpu, SuffixLengthsSaySnowIsSkipped) {
  const ProgramRun run = run_bench({"-k", "-s", "16", "rgb", "snowsingle"});
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(lines(run.err), 1) << run.err;
  EXPECT_EQ(run.err.rfind("render_bench_cpu: skipping snowsingle:", 0), 0u) << run.err;
  EXPECT_TRUE(contains(run.out, "\nrgb ")) << run.out;
  EXPECT_FALSE(contains(run.out, "snowsingle")) << run.out;
  // Nothing skipped, nothing said.
  const ProgramRun flat = run_bench({"-k", "-s", "16", "rgb"});
  EXPECT_EQ(flat.status, 0) << flat.err;
  EXPECT_TRUE(flat.err.empty()) << flat.err;
}

// Usage errors: one line, status 2, nothing measured.
TEST(BenchCpu, SuffixLengthsRefuseOnlySnowAndTimingOptions) {
  struct Case {
    std::vector<std::string> args;
    std::string says;
  };
  const std::vector<Case> cases = {
      {{"-k", "snow", "snowsingle"}, "snow scenes blend every circle (got snow, snowsingle)"},
      {{"-k", "-n", "3", "rgb"}, "times nothing; -n does not go with it"},
      {{"-t", "2", "-k", "rgb"}, "times nothing; -t does not go with it"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.says);
    const ProgramRun run = run_bench(c.args);
    EXPECT_EQ(run.status, 2) << run.err;
    EXPECT_EQ(lines(run.err), 1) << run.err;
    EXPECT_EQ(run.err.rfind("render_bench_cpu: ", 0), 0u) << run.err;
    EXPECT_TRUE(contains(run.err, c.says)) << run.err;
    EXPECT_TRUE(run.out.empty()) << run.out;
  }
}

} // namespace
