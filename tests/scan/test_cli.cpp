// The cudaScan program's exits and messages. Usage errors are found before
// any CUDA call, so they behave the same with and without a GPU.
#include <gtest/gtest.h>

#include <string>

#include "common/device.h"
#include "course_lines.h"
#include "run_program.h"
#include "scan/algorithm.h"

namespace {

ProgramResult cuda_scan(const std::string& args) {
  return run_program(std::string(CUDASCAN_PATH) + " " + args);
}

int lines(const std::string& text) {
  int count = 0;
  for (char c : text) count += c == '\n';
  return count;
}

TEST(CudaScanCli, UsageErrorsExitTwoWithOneLine) {
  const struct {
    const char* args;
    const char* says;
  } cases[] = {
      {"-n abc", "-n/--arraysize: 'abc' is not a whole number"},
      {"-n -1", "-n/--arraysize: -1 is out of range"},
      {"-n", "option -n needs a value"},
      {"-m sort", "-m/--test: unknown test 'sort'"},
      {"-i noise", "-i/--input: unknown input 'noise'"},
      {"-a quick", "-a/--algorithm: unknown algorithm 'quick'"},
      {"--frobnicate", "unknown option --frobnicate"},
      {"-zq", "unknown option -z"},
      {"--arraysize", "option --arraysize needs a value"},
      {"--bench=1", "--bench takes no value"},
      {"--thrust=yes", "--thrust takes no value"},
      {"--help=1", "--help takes no value"},
      {"stray", "unexpected argument 'stray'"},
      {"-t -a blelloch", "-t/--thrust"},
      {"-m find_repeats -n 2147483648", "find_repeats takes at most 2147483647"},
  };
  for (const auto& c : cases) {
    const ProgramResult r = cuda_scan(c.args);
    EXPECT_EQ(r.status, 2) << c.args << ": " << r.output;
    EXPECT_NE(r.output.find(c.says), std::string::npos) << c.args << ": " << r.output;
    EXPECT_EQ(lines(r.output), 1) << c.args << ": " << r.output;
    EXPECT_EQ(r.output.rfind("cudaScan: ", 0), 0u) << c.args << ": " << r.output;
  }
}

TEST(CudaScanCli, HelpExitsZero) {
  for (const char* args : {"--help", "'-?'"}) {
    const ProgramResult r = cuda_scan(args);
    EXPECT_EQ(r.status, 0) << args;
    EXPECT_NE(r.output.find("Usage:"), std::string::npos) << args;
    EXPECT_NE(r.output.find("--algorithm"), std::string::npos) << args;
  }
}

// The usage line names the program as its error lines do, not by the path
// that ran it.
TEST(CudaScanCli, UsageNamesTheProgram) {
  const ProgramResult r = cuda_scan("--help");
  EXPECT_EQ(r.output.rfind("Usage: cudaScan [options]\n", 0), 0u) << r.output;
}

// Help that cannot be written is a failure, with one line on stderr.
TEST(CudaScanCli, UnwritableOutputFails) {
  EXPECT_EQ(unwritable_output_problem(std::string(CUDASCAN_PATH) + " --help", "cudaScan"), "");
}

// Without a GPU: one line saying so, status 1. With one: a checked run.
TEST(CudaScanCli, RunsOrSaysThereIsNoDevice) {
  const ProgramResult r = cuda_scan("-n 100000");
  if (!common::has_cuda_device()) {
    EXPECT_EQ(r.status, 1) << r.output;
    EXPECT_NE(r.output.find("no CUDA device available"), std::string::npos) << r.output;
    EXPECT_EQ(lines(r.output), 1) << r.output;
    return;
  }
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("Student GPU time: "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("Scan outputs are correct!"), std::string::npos) << r.output;
}

// The course's lines in its order (as its reference program prints them),
// ours after them.
TEST(CudaScanCli, PrintsTheCourseLinesInTheCourseOrder) {
  if (!common::has_cuda_device()) GTEST_SKIP() << "no usable CUDA device";
  const ProgramResult scan = cuda_scan("-m scan -i ones -n 17");
  EXPECT_EQ(scan.status, 0) << scan.output;
  EXPECT_TRUE(lines_in_order(scan.output, {"Device 0: ", "Array size: 17", "Student GPU time: ",
                                           "Scan outputs are correct!", "Serial CPU time: "}));
  const ProgramResult repeats = cuda_scan("-m find_repeats -t -n 1000000");
  EXPECT_EQ(repeats.status, 0) << repeats.output;
  EXPECT_TRUE(
      lines_in_order(repeats.output, {"Device 0: ", "Array size: 1000000", "Thrust GPU time: ",
                                      "Find_repeats outputs are correct!", "Serial CPU time: "}));
}

TEST(CudaScanCli, TooLargeForTheDeviceNamesTheBytes) {
  const ProgramResult r = cuda_scan("-n 200000000000");
  EXPECT_EQ(r.status, 1) << r.output;
  if (!common::has_cuda_device()) {
    EXPECT_NE(r.output.find("no CUDA device available"), std::string::npos) << r.output;
    return;
  }
  EXPECT_NE(r.output.find("cudaScan: error: -n 200000000000"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("needs 1600"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("bytes of device memory"), std::string::npos) << r.output;
}

TEST(CudaScanCli, EveryAlgorithmAndTheLibraryLine) {
  if (!common::has_cuda_device()) GTEST_SKIP() << "no CUDA device available";
  for (const char* test : {"scan", "find_repeats"}) {
    const ProgramResult r = cuda_scan(std::string("-m ") + test + " -a all -n 300007 -i random");
    EXPECT_EQ(r.status, 0) << r.output;
    const std::string verdict = std::string(test) == "scan" ? "Scan outputs are correct! ("
                                                            : "Find_repeats outputs are correct! (";
    int found = 0;
    for (std::size_t at = r.output.find(verdict); at != std::string::npos;
         at = r.output.find(verdict, at + 1))
      ++found;
    EXPECT_EQ(found, static_cast<int>(scan::all_algorithms().size())) << r.output;
  }
  const ProgramResult t = cuda_scan("-t -n 1000");
  EXPECT_EQ(t.status, 0) << t.output;
  EXPECT_NE(t.output.find("Thrust GPU time: "), std::string::npos) << t.output;
}

// The checks' override of the pipeline's start size takes a whole count and
// nothing else: a value strtoll would read in part (" 5", "5x") is refused,
// with one line on stderr and status 1.
TEST(CudaScanCli, PipelineSizeOverrideMustBeACount) {
  if (!common::has_cuda_device()) GTEST_SKIP() << "no CUDA device available";
  for (const char* value : {" 5", "5x", "-1", "abc", "99999999999999999999"}) {
    // stderr alone: the group's stdout goes to /dev/null.
    const ProgramResult r =
        run_program(std::string("{ SCAN_PIPELINE_FROM='") + value + "' " + CUDASCAN_PATH +
                    " -a single-pass -n 1000 2>&1 >/dev/null; }");
    EXPECT_EQ(r.status, 1) << "'" << value << "': " << r.output;
    EXPECT_EQ(r.output.rfind("cudaScan: error: SCAN_PIPELINE_FROM: ", 0), 0u)
        << "'" << value << "': " << r.output;
    EXPECT_EQ(lines(r.output), 1) << "'" << value << "': " << r.output;
  }
  const ProgramResult r = run_program(std::string("SCAN_PIPELINE_FROM=0 ") + CUDASCAN_PATH +
                                      " -m find_repeats -a single-pass -n 1000");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("Find_repeats outputs are correct!"), std::string::npos) << r.output;
}

} // namespace
