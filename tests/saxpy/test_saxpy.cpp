#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "common/device_buffer.h"
#include "course_lines.h"
#include "gpu_test.h"
#include "run_program.h"
#include "saxpy/saxpy.h"

namespace {

std::vector<float> random_floats(std::size_t n, std::mt19937& rng) {
  std::uniform_real_distribution<float> dist(-1000.0f, 1000.0f);
  std::vector<float> v(n);
  for (auto& f : v) f = dist(rng);
  return v;
}

// Bitwise: -0.0 vs 0.0 or a last-bit FMA difference must fail.
::testing::AssertionResult bitwise_equal(const std::vector<float>& got,
                                         const std::vector<float>& want) {
  if (got.size() != want.size()) return ::testing::AssertionFailure() << "sizes differ";
  for (std::size_t i = 0; i < got.size(); ++i)
    if (std::memcmp(&got[i], &want[i], sizeof(float)) != 0)
      return ::testing::AssertionFailure()
             << "index " << i << ": got " << got[i] << ", want " << want[i];
  return ::testing::AssertionSuccess();
}

TEST(SaxpySerial, ComputesAxPlusYWithTwoRoundings) {
  const std::vector<float> x{0, 1, 2, -3, 3e38f, 0.1f}, y{0, 1, -4, 3, 1.0f, 0.2f};
  std::vector<float> r(x.size());
  saxpy::saxpy_serial(x.size(), 2.0f, x.data(), y.data(), r.data());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const float product = 2.0f * x[i];
    EXPECT_EQ(r[i], product + y[i]) << i;
  }
  EXPECT_EQ(r[2], 0.0f);
  EXPECT_TRUE(std::isinf(r[4]));
}

TEST(SaxpySerial, EmptyInputWritesNothing) {
  float sentinel = 7.0f;
  saxpy::saxpy_serial(0, 2.0f, nullptr, nullptr, &sentinel);
  EXPECT_EQ(sentinel, 7.0f);
}

TEST(SaxpyVariant, ParsesNames) {
  EXPECT_EQ(saxpy::parse_variant("course"), saxpy::Variant::Course);
  EXPECT_EQ(saxpy::parse_variant("tuned"), saxpy::Variant::Tuned);
  EXPECT_THROW(saxpy::parse_variant("fast"), std::invalid_argument);
  EXPECT_STREQ(saxpy::variant_name(saxpy::Variant::Tuned), "tuned");
}

TEST(SaxpyProgram, UsageErrorsExitTwoWithOneLine) {
  for (const char* args : {"-n abc", "-n -5", "-n 99999999999", "-x", "-zq", "--bogus", "-n",
                           "-v fast", "-r 0", "extra", "--chunk 0", "--chunk -4", "--chunk abc",
                           "--chunk 1.5", "--chunk 99999999999", "--chunk"}) {
    const ProgramResult r = run_program(std::string(CUDASAXPY_PATH) + " " + args);
    EXPECT_EQ(r.status, 2) << args << ": " << r.output;
    EXPECT_NE(r.output.find("cudaSaxpy: "), std::string::npos) << args << ": " << r.output;
    EXPECT_EQ(r.output.find('\n'), r.output.size() - 1) << "more than one line: " << r.output;
  }
}

// The message names the option as typed, also inside a group of short ones.
TEST(SaxpyProgram, UsageErrorsNameTheOption) {
  for (const auto& [args, says] :
       {std::pair{"-zq", "unknown option -z"}, std::pair{"-r1 -y", "unknown option -y"},
        std::pair{"--bogus", "unknown option --bogus"}, std::pair{"-n", "option -n needs a value"},
        std::pair{"--arraysize", "option --arraysize needs a value"},
        std::pair{"--help=1", "--help takes no value"},
        std::pair{"--chunk", "option --chunk needs a value"},
        std::pair{"--chunk 0", "--chunk: 0 is out of range (allowed: 1 to 1073741824)"},
        std::pair{"--chunk=x", "--chunk: 'x' is not a whole number"}}) {
    const ProgramResult r = run_program(std::string(CUDASAXPY_PATH) + " " + args);
    EXPECT_NE(r.output.find(says), std::string::npos) << args << ": " << r.output;
  }
}

TEST(SaxpyProgram, HelpExitsZero) {
  for (const char* args : {"--help", "-?"}) {
    const ProgramResult r = run_program(std::string(CUDASAXPY_PATH) + " '" + args + "'");
    EXPECT_EQ(r.status, 0) << args;
    EXPECT_NE(r.output.find("--arraysize"), std::string::npos);
    EXPECT_NE(r.output.find("--chunk <INT>"), std::string::npos);
  }
}

// The usage line names the program as its error lines do, not by the path
// that ran it.
TEST(SaxpyProgram, UsageNamesTheProgram) {
  const ProgramResult r = run_program(std::string(CUDASAXPY_PATH) + " --help");
  EXPECT_EQ(r.output.rfind("Usage: cudaSaxpy [options]\n", 0), 0u) << r.output;
}

// Help that cannot be written is a failure, with one line on stderr.
TEST(SaxpyProgram, UnwritableOutputFails) {
  EXPECT_EQ(unwritable_output_problem(std::string(CUDASAXPY_PATH) + " --help", "cudaSaxpy"), "");
}

TEST(SaxpyProgram, NoDeviceIsAClearFailure) {
  if (common::has_cuda_device()) GTEST_SKIP() << "a GPU is present";
  const ProgramResult r = run_program(std::string(CUDASAXPY_PATH) + " -n 10");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.output.find("no CUDA device available"), std::string::npos) << r.output;
}

// The course's lines in its order: the banner, "Running 3 timing tests:" and
// a line per run; ours after them.
TEST(SaxpyProgram, PrintsTheCourseLinesInTheCourseOrder) {
  if (!common::has_cuda_device()) GTEST_SKIP() << "no usable CUDA device";
  const ProgramResult r = run_program(std::string(CUDASAXPY_PATH) + " -n 1000 -v course");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_TRUE(lines_in_order(
      r.output, {"Device 0: ", "Running 3 timing tests:", "Effective BW by CUDA saxpy: ",
                 "Effective BW by CUDA saxpy: ", "Effective BW by CUDA saxpy: ",
                 "Serial CPU saxpy: ", "Results match the serial reference"}));
}

struct GpuCase {
  saxpy::Variant variant;
  std::size_t n;
};

class SaxpyGpu : public GpuTestWithParam<GpuCase> {};

TEST_P(SaxpyGpu, WholeTripMatchesSerialBitwise) {
  const auto [variant, n] = GetParam();
  std::mt19937 rng(static_cast<unsigned>(n * 31 + static_cast<int>(variant)));
  const std::vector<float> x = random_floats(n, rng), y = random_floats(n, rng);
  const float a = std::uniform_real_distribution<float>(-3.0f, 3.0f)(rng);
  std::vector<float> want(n), got(n, std::numeric_limits<float>::quiet_NaN());
  saxpy::saxpy_serial(n, a, x.data(), y.data(), want.data());
  const saxpy::Timing t = saxpy::run(variant, n, a, x.data(), y.data(), got.data());
  EXPECT_TRUE(bitwise_equal(got, want));
  // Real work takes time; an empty run must not report negative time.
  if (n > 0) {
    EXPECT_GT(t.total_ms, 0.0);
    EXPECT_GT(t.kernel_ms, 0.0);
  } else {
    EXPECT_GE(t.total_ms, 0.0);
    EXPECT_GE(t.kernel_ms, 0.0);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Sizes, SaxpyGpu,
    ::testing::Values(GpuCase{saxpy::Variant::Course, 0}, GpuCase{saxpy::Variant::Course, 1},
                      GpuCase{saxpy::Variant::Course, 7}, GpuCase{saxpy::Variant::Course, 1000003},
                      GpuCase{saxpy::Variant::Course, 100000000}, GpuCase{saxpy::Variant::Tuned, 0},
                      GpuCase{saxpy::Variant::Tuned, 1}, GpuCase{saxpy::Variant::Tuned, 7},
                      GpuCase{saxpy::Variant::Tuned, 1000003},
                      GpuCase{saxpy::Variant::Tuned, 100000000}),
    [](const auto& p) {
      return std::string(saxpy::variant_name(p.param.variant)) + "_" + std::to_string(p.param.n);
    });

// The tuned trip with small chunks, odd ones too (every chunk after the first
// starts off a 16-byte boundary), still gives every float exactly.
class SaxpyChunkGpu : public GpuTestWithParam<std::size_t> {};

TEST_P(SaxpyChunkGpu, TunedTripWithSmallChunksMatchesSerialBitwise) {
  const std::size_t chunk = GetParam();
  const std::size_t n = chunk < 100 ? 10007 : 1000003;
  std::mt19937 rng(static_cast<unsigned>(chunk));
  const std::vector<float> x = random_floats(n, rng), y = random_floats(n, rng);
  std::vector<float> want(n), got(n, std::numeric_limits<float>::quiet_NaN());
  saxpy::saxpy_serial(n, -1.25f, x.data(), y.data(), want.data());
  saxpy::run(saxpy::Variant::Tuned, n, -1.25f, x.data(), y.data(), got.data(), chunk);
  EXPECT_TRUE(bitwise_equal(got, want)) << "chunk " << chunk;
}

INSTANTIATE_TEST_SUITE_P(Chunks, SaxpyChunkGpu,
                         ::testing::Values(std::size_t{1}, std::size_t{3}, std::size_t{1001},
                                           std::size_t{65537}, std::size_t{1} << 30));

class SaxpyKernelGpu : public GpuTest {};

// Pointers that are not 16-byte aligned take the scalar path; every offset
// and a length that is not a multiple of 4 must still be exact.
TEST_F(SaxpyKernelGpu, TunedKernelHandlesMisalignedPointers) {
  std::mt19937 rng(5);
  const std::size_t n = 100003;
  const std::vector<float> x = random_floats(n + 3, rng), y = random_floats(n + 3, rng);
  common::DeviceBuffer<float> dx(n + 3, "x"), dy(n + 3, "y"), dr(n + 3, "r");
  dx.copy_from_host(x.data(), n + 3);
  dy.copy_from_host(y.data(), n + 3);
  for (std::size_t offset = 0; offset < 4; ++offset) {
    const std::size_t len = n - offset;
    std::vector<float> want(len), got(len);
    saxpy::saxpy_serial(len, 1.5f, x.data() + offset, y.data() + offset, want.data());
    saxpy::launch_tuned_kernel(len, 1.5f, dx.data() + offset, dy.data() + offset,
                               dr.data() + offset, nullptr);
    ASSERT_EQ(
        cudaMemcpy(got.data(), dr.data() + offset, len * sizeof(float), cudaMemcpyDeviceToHost),
        cudaSuccess);
    EXPECT_TRUE(bitwise_equal(got, want)) << "offset " << offset;
  }
}

TEST_F(SaxpyKernelGpu, ProgramRunsSmallArraysCorrectly) {
  for (const char* n : {"0", "1", "7", "1000003"}) {
    const ProgramResult r = run_program(std::string(CUDASAXPY_PATH) + " -r 1 -n " + n);
    EXPECT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("Effective BW by CUDA saxpy:"), std::string::npos);
    EXPECT_NE(r.output.find("match the serial reference"), std::string::npos);
  }
}

TEST_F(SaxpyKernelGpu, ProgramTakesTheChunkSize) {
  const ProgramResult r =
      run_program(std::string(CUDASAXPY_PATH) + " -r 1 -v tuned -n 1000003 --chunk 4099");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("chunks of 4099 floats"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("match the serial reference"), std::string::npos) << r.output;
}

} // namespace
