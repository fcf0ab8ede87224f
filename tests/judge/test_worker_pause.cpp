// Worker::pause holds every process of a sandboxed worker still, those
// that left its session and its process tree's middle included, and
// resume() lets them all go on; what ran while held is seen. The worker is
// a shell whose loops write to its log: the log stops growing while it is
// paused. Each case runs both ways of pausing: the freezer cgroup (skipped
// where the judge can make none: an ordinary user) and signals.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

#include "judge/sandbox.h"
#include "temp_dir.h"

namespace {

std::string read_all(const std::string& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Waits up to `seconds` for the log to hold `a` and `b` lines past `from`.
bool both_write(const std::string& log, std::size_t from, double seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < deadline) {
    const std::string text = read_all(log);
    if (text.size() > from && text.find("a\n", from) != std::string::npos &&
        text.find("b\n", from) != std::string::npos)
      return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

enum class Way { kFreezer, kSignals };

class WorkerPause : public ::testing::TestWithParam<Way> {
protected:
  // The plan for this case's way of pausing, or a skip saying why none.
  void plan_for(bool unsandboxed) {
    options_.unsandboxed = unsandboxed;
    options_.output_limit_bytes = std::int64_t{64} << 20;
    options_.pause_by_signals = GetParam() == Way::kSignals;
    try {
      plan_ = judge::plan_sandbox(options_);
    } catch (const std::exception& e) {
      GTEST_SKIP() << "SKIPPED: no sandbox here: " << e.what();
    }
    if (GetParam() == Way::kFreezer && plan_.freezer_cgroup_parent.empty())
      GTEST_SKIP() << "SKIPPED: no freezer cgroup here: " << plan_.limits_note;
  }
  judge::SandboxOptions options_;
  judge::SandboxPlan plan_;
};

// (Named by a function: a lambda's parameter would shadow the macro's.)
std::string way_name(const ::testing::TestParamInfo<Way>& way) {
  return way.param == Way::kFreezer ? "freezer" : "signals";
}
INSTANTIATE_TEST_SUITE_P(Ways, WorkerPause, ::testing::Values(Way::kFreezer, Way::kSignals),
                         way_name);

TEST_P(WorkerPause, HoldsEveryProcessOfTheSandboxStill) {
  plan_for(false);
  if (IsSkipped()) return;
  const judge::SandboxOptions& options = options_;
  const judge::SandboxPlan& plan = plan_;
  TempDir dir;
  const std::string log = dir.file("worker.log");
  // A loop in a new session whose parent has gone (taken in by the
  // sandbox's first process), and one in the shell itself; each starts a
  // process per line, so processes come and go while it is paused.
  judge::Worker worker =
      judge::Worker::start({"/bin/sh", "-c",
                            "(setsid sh -c 'while :; do echo a; sleep 0.01; done' &); "
                            "while :; do echo b; sleep 0.01; done"},
                           {}, log, options, plan);
  ASSERT_TRUE(both_write(log, 0, 10)) << read_all(log);

  ASSERT_EQ(worker.pause(5), "");
  // Whatever was on its way to the log is written by now.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const std::size_t paused_size = std::filesystem::file_size(log);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_EQ(std::filesystem::file_size(log), paused_size) << "it wrote while paused";
  EXPECT_EQ(worker.poll(), std::nullopt) << "pausing ended it";
  EXPECT_EQ(worker.held_still(), "") << "a worker that stayed still is not seen to run";

  EXPECT_EQ(worker.resume(), "");
  EXPECT_TRUE(both_write(log, paused_size, 10)) << "not every loop went on after resume()";
  worker.kill();
  EXPECT_NE(worker.poll(), std::nullopt);
}

// A worker that forks all the time: a fork under way when the pause
// stops its parent still ends in a child, which the pause must find and
// stop too (else it runs, and the judge would say the worker started a
// process while held).
TEST_P(WorkerPause, AForkUnderWayIsHeldToo) {
  plan_for(false);
  if (IsSkipped()) return;
  TempDir dir;
  const std::string log = dir.file("worker.log");
  judge::Worker worker = judge::Worker::start(
      {"/bin/sh", "-c", "echo a; echo b; while :; do (:); (:) & done"}, {}, log, options_, plan_);
  ASSERT_TRUE(both_write(log, 0, 10)) << read_all(log);
  for (int round = 0; round < 100; ++round) {
    ASSERT_EQ(worker.pause(5), "") << "round " << round;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    ASSERT_EQ(worker.held_still(), "") << "round " << round;
    ASSERT_EQ(worker.resume(), "") << "round " << round;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  worker.kill();
  EXPECT_NE(worker.poll(), std::nullopt);
}

// Waits up to `seconds` for the log to grow past `from`.
bool grows(const std::string& log, std::size_t from, double seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < deadline) {
    if (std::filesystem::file_size(log) > from) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

// A zombie leader: its first thread's state (Z) is not the process's.
TEST_P(WorkerPause, HoldsAZombieLeadersOtherThreadsStill) {
  plan_for(false);
  if (IsSkipped()) return;
  const judge::SandboxOptions& options = options_;
  const judge::SandboxPlan& plan = plan_;
  TempDir dir;
  const std::string log = dir.file("worker.log");
  judge::Worker worker = judge::Worker::start({ZOMBIE_LEADER_PATH}, {}, log, options, plan);
  ASSERT_TRUE(grows(log, 0, 10)) << "it never wrote";

  ASSERT_EQ(worker.pause(5), "");
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const std::size_t paused_size = std::filesystem::file_size(log);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_EQ(std::filesystem::file_size(log), paused_size) << "its live thread wrote while paused";

  worker.resume();
  EXPECT_TRUE(grows(log, paused_size, 10)) << "it did not go on after resume()";
  worker.kill();
}

// A stop can be ended by any SIGCONT, one the worker arranged for itself
// included (a child's exit signal, a timer's): here the test sends it, as
// such a signal would come. What ran while held is seen; a freezer is not
// ended by it at all.
TEST_P(WorkerPause, ASigcontEndsNoFreezeAndWhatRanIsSeen) {
  plan_for(true); // its own pid is the one to signal
  if (IsSkipped()) return;
  const judge::SandboxOptions& options = options_;
  const judge::SandboxPlan& plan = plan_;
  TempDir dir;
  const std::string pid_file = dir.file("pid");
  judge::Worker worker =
      judge::Worker::start({"/bin/sh", "-c", "echo $$ > '" + pid_file + "'; while :; do :; done"},
                           {}, dir.file("log"), options, plan);
  pid_t pid = 0;
  for (int i = 0; i < 1000 && pid == 0; ++i) {
    std::ifstream in(pid_file);
    if (!(in >> pid)) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_GT(pid, 0) << "it never wrote its pid";

  ASSERT_EQ(worker.pause(5), "");
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(worker.held_still(), "") << "held, it did not run";
  ASSERT_EQ(::kill(pid, SIGCONT), 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const std::string why = worker.held_still();
  if (GetParam() == Way::kFreezer) {
    EXPECT_EQ(why, "") << "a SIGCONT thawed the freezer";
    EXPECT_EQ(worker.resume(), "");
  } else {
    EXPECT_NE(why.find("while the judge held it still"), std::string::npos) << why;
    // It runs on meanwhile: resume() sees it too.
    EXPECT_NE(worker.resume().find("while the judge held it still"), std::string::npos);
  }
  worker.kill();
}

// Killed while held (a worker rejected mid-pair): it ends at once, with
// its cgroups (a frozen task on cgroup v1 takes no SIGKILL until thawed).
TEST_P(WorkerPause, AHeldWorkerIsKilledAtOnce) {
  plan_for(false);
  if (IsSkipped()) return;
  TempDir dir;
  const std::string log = dir.file("worker.log");
  judge::Worker worker = judge::Worker::start(
      {"/bin/sh", "-c", "while :; do echo b; sleep 0.01; done"}, {}, log, options_, plan_);
  ASSERT_TRUE(grows(log, 0, 10)) << "it never wrote";
  ASSERT_EQ(worker.pause(5), "");
  const auto start = std::chrono::steady_clock::now();
  worker.kill();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  EXPECT_NE(worker.poll(), std::nullopt);
}

TEST_P(WorkerPause, AnEndedWorkerNeedsNoPause) {
  plan_for(true);
  if (IsSkipped()) return;
  const judge::SandboxOptions& options = options_;
  const judge::SandboxPlan& plan = plan_;
  TempDir dir;
  judge::Worker worker = judge::Worker::start({"/bin/true"}, {}, dir.file("log"), options, plan);
  EXPECT_EQ(worker.finish(10), "exited with status 0");
  EXPECT_EQ(worker.pause(1), "");
  EXPECT_EQ(worker.resume(), "");
}

} // namespace
