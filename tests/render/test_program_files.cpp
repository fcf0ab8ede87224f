// The render program and its files and streams as a careful user meets them:
// outputs it must not replace, inputs it must not wait on, output that cannot
// be written, and signals while it writes (no temporary file left).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "render/renderer_factory.h"
#include "run_program.h"
#include "test_util.h"

namespace {

using render_test::contains;
using render_test::ProgramRun;
using render_test::TempDir;

TEST(ProgramFiles, InputThatIsAPipeIsRefusedAtOnce) {
  const TempDir dir;
  const std::string fifo = dir.file("scene");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // timeout: a program that opens the pipe waits for a writer for ever.
  const ProgramResult run = run_program("timeout 10 " + std::string(RENDER_PROGRAM) +
                                        " -s 8 -f '' --scene-file '" + fifo + "'");
  EXPECT_EQ(run.status, 1) << run.output;
  EXPECT_EQ(run.output,
            "render: error: " + fifo + ": cannot open scene file: not a regular file\n");
  // The same for a stored image to check against.
  const ProgramResult check = run_program("timeout 10 " + std::string(RENDER_PROGRAM) +
                                          " -r cpu -s 8 -f '' --check-against '" + fifo + "' rgb");
  EXPECT_EQ(check.status, 1) << check.output;
  EXPECT_EQ(check.output, "render: error: cannot read " + fifo + ": not a regular file\n");
}

TEST(ProgramFiles, ReadOnlyOutputIsKept) {
  const TempDir dir;
  const std::vector<std::string> args = {"-r", "cpu", "-s", "8", "-f", dir.file("o"), "rgb"};
  ASSERT_EQ(render_test::run_program(args).status, 0);
  const std::string image = dir.file("o_0000.png");
  const std::vector<std::uint8_t> before = render_test::read_file(image);
  ASSERT_EQ(::chmod(image.c_str(), 0444), 0);
  const std::vector<std::string> other = {"-r", "cpu", "-s", "9", "-f", dir.file("o"), "rgb"};
  const ProgramRun run = render_test::run_program(other);
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.err,
            "render: error: cannot write " + image + ": it is read-only (refused to replace it)\n");
  EXPECT_EQ(render_test::read_file(image), before);
  EXPECT_EQ(dir.files(), std::vector<std::string>{"o_0000.png"});
}

TEST(ProgramFiles, SymbolicLinkOutputIsRefused) {
  const TempDir dir;
  const std::string link = dir.file("full_0000.png");
  ASSERT_EQ(::symlink("/dev/full", link.c_str()), 0);
  const ProgramRun run =
      render_test::run_program({"-r", "cpu", "-s", "8", "-f", "full", "rgb"}, dir.path());
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.err, "render: error: cannot write full_0000.png: it is a symbolic link (refused: "
                     "the link would be replaced, not written through)\n");
  struct stat info {};
  ASSERT_EQ(::lstat(link.c_str(), &info), 0);
  EXPECT_TRUE(S_ISLNK(info.st_mode));
  EXPECT_EQ(dir.files(), std::vector<std::string>{"full_0000.png"});
}

// Standard output that cannot be written (a full disk) is a failure, also
// for the help and the scene list.
TEST(ProgramFiles, UnwritableStandardOutputFails) {
  for (const char* args : {"-r cpu -s 8 -f '' rgb", "--help", "--list"})
    EXPECT_EQ(unwritable_output_problem(std::string(RENDER_PROGRAM) + " " + args, "render"), "")
        << args;
}

// The hidden temporary files of the program's folder.
std::vector<std::string> temp_files(const TempDir& dir) {
  std::vector<std::string> found;
  for (const std::string& name : dir.files())
    if (name.rfind(".tmp-", 0) == 0) found.push_back(name);
  return found;
}

// True once a temporary file holds bytes: the image is being written (the
// empty probe made before rendering does not count).
bool writing_started(const TempDir& dir) {
  std::error_code ignored;
  for (const std::string& name : temp_files(dir))
    if (std::filesystem::file_size(dir.file(name), ignored) > 0) return true;
  return false;
}

enum class Outcome { Killed, FinishedFirst, Failed };

// Renders an empty scene of side `size` to rgbaf (quick to render, long to
// write) and sends `signal_number` while the file is written.
Outcome interrupt_while_writing(const TempDir& dir, int size, int signal_number,
                                std::string& detail) {
  const std::string side = std::to_string(size);
  const std::string prefix = dir.file("big");
  const pid_t child = fork();
  if (child == 0) {
    // A signal ignored here (tests started in the background by a shell
    // without job control ignore SIGINT) stays ignored across exec, and the
    // program rightly keeps it so: give the child the default action.
    ::signal(signal_number, SIG_DFL);
    const int null = ::open("/dev/null", O_WRONLY);
    if (null >= 0) {
      ::dup2(null, STDOUT_FILENO);
      ::dup2(null, STDERR_FILENO);
    }
    ::execl(RENDER_PROGRAM, RENDER_PROGRAM, "-r", "cpu", "-s", side.c_str(), "--first", "0",
            "--format", "rgbaf", "-f", prefix.c_str(), "rgb", static_cast<char*>(nullptr));
    _exit(127);
  }
  if (child < 0) {
    detail = "fork failed";
    return Outcome::Failed;
  }
  int raw = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (!writing_started(dir)) {
    if (::waitpid(child, &raw, WNOHANG) == child) return Outcome::FinishedFirst;
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(child, SIGKILL);
      ::waitpid(child, &raw, 0);
      detail = "no temporary file appeared";
      return Outcome::Failed;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  ::kill(child, signal_number);
  ::waitpid(child, &raw, 0);
  if (WIFSIGNALED(raw) && WTERMSIG(raw) == signal_number) return Outcome::Killed;
  if (WIFEXITED(raw) && WEXITSTATUS(raw) == 0) return Outcome::FinishedFirst;
  detail = "the program did not end by the signal (status " + std::to_string(raw) + ")";
  return Outcome::Failed;
}

// A render stopped by Ctrl-C or SIGTERM while it writes an image ends by that
// signal and leaves no temporary file. Should the write win the race, the
// test tries again with a larger image.
TEST(ProgramFiles, SignalWhileWritingLeavesNoTemporaryFile) {
  for (const int signal_number : {SIGTERM, SIGINT}) {
    SCOPED_TRACE(strsignal(signal_number));
    bool killed = false;
    for (const int size : {4096, 8192, 8192}) {
      const TempDir dir;
      std::string detail;
      const Outcome outcome = interrupt_while_writing(dir, size, signal_number, detail);
      ASSERT_NE(outcome, Outcome::Failed) << detail;
      EXPECT_TRUE(temp_files(dir).empty()) << "a temporary file is left";
      if (outcome == Outcome::Killed) {
        killed = true;
        break;
      }
    }
    EXPECT_TRUE(killed) << "every render finished before the signal came";
  }
}

// -r auto that falls back to the CPU says that --cuda-mode is not used.
TEST(ProgramFiles, CudaModeIgnoredOnTheCpuIsSaid) {
  const ProgramRun run =
      render_test::run_program({"-s", "8", "-f", "", "--cuda-mode", "binned", "rgb"});
  EXPECT_EQ(run.status, 0) << run.err;
  const render::RendererChoice choice = render::choose_renderer(render::RendererKind::Auto);
  if (choice.kind == render::RendererKind::Cuda) {
    EXPECT_TRUE(run.err.empty()) << run.err;
    EXPECT_TRUE(contains(run.out, "CUDA mode: ")) << run.out;
  } else {
    EXPECT_EQ(run.err, "render: warning: --cuda-mode binned is ignored: the CPU renderer runs (" +
                           choice.reason + ")\n");
  }
  // Not given, nothing to say.
  EXPECT_TRUE(render_test::run_program({"-s", "8", "-f", "", "rgb"}).err.empty());
}

} // namespace
