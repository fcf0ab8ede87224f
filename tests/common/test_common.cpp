#include <fcntl.h>
#include <getopt.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "common/bandwidth.h"
#include "common/cli.h"
#include "common/cuda_check.h"
#include "common/cuda_handle.h"
#include "common/device.h"
#include "common/device_buffer.h"
#include "common/enum_names.h"
#include "common/event.h"
#include "common/graph.h"
#include "common/host_memory.h"
#include "common/stream.h"
#include "common/timer.h"
#include "gpu_test.h"

namespace {

TEST(ParseInt, AcceptsWholeNumbersInRange) {
  EXPECT_EQ(common::parse_int("0", "-n", 0, 10), 0);
  EXPECT_EQ(common::parse_int("10", "-n", 0, 10), 10);
  EXPECT_EQ(common::parse_int("+7", "-n", 0, 10), 7);
  EXPECT_EQ(common::parse_int("-3", "-x", -5, 5), -3);
  EXPECT_EQ(common::parse_int("9223372036854775807", "-n", 0, INT64_MAX), INT64_MAX);
}

TEST(ParseInt, RejectsGarbageAndOutOfRange) {
  for (const char* bad : {"", "abc", "1e5", "12x", " 5", "5 ", "-", "+", "0x10", "1.5"})
    EXPECT_THROW(common::parse_int(bad, "-n", 0, 100), common::UsageError) << bad;
  EXPECT_THROW(common::parse_int("-5", "-n", 0, 100), common::UsageError);
  EXPECT_THROW(common::parse_int("101", "-n", 0, 100), common::UsageError);
  EXPECT_THROW(common::parse_int("99999999999999999999999", "-n", 0, INT64_MAX),
               common::UsageError);
}

TEST(ParseInt, MessageNamesOptionAndRange) {
  try {
    common::parse_int("99999999999", "-n/--arraysize", 0, 1000);
    FAIL() << "no exception";
  } catch (const common::UsageError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("-n/--arraysize"), std::string::npos) << msg;
    EXPECT_NE(msg.find("1000"), std::string::npos) << msg;
  }
}

TEST(RunMain, MapsExceptionsToExitStatus) {
  EXPECT_EQ(common::run_main("t", [] { return 0; }), 0);
  EXPECT_EQ(common::run_main("t", [] { return 3; }), 3);
  EXPECT_EQ(common::run_main("t", []() -> int { throw common::UsageError("bad"); }), 2);
  EXPECT_EQ(common::run_main("t", []() -> int { throw std::runtime_error("broken"); }), 1);
  EXPECT_EQ(common::run_main("t", []() -> int { throw std::bad_alloc(); }), 1);
}

// Runs run_main with standard output on /dev/full (every write fails) and
// standard error thrown away, then ends the process with its status. Only
// for EXPECT_EXIT in the threadsafe style, whose child is a fresh run of this
// program: a plain fork of a threaded test process could inherit a lock
// another thread held (stdio, malloc) and hang. The alarm ends a body that
// hangs all the same, which EXPECT_EXIT then reports.
[[noreturn]] void run_main_on_full_device(const std::function<int()>& body) {
  constexpr unsigned kSecondsAllowed = 60;
  std::cout.flush(); // the test framework's own output, not the body's
  std::fflush(stdout);
  const int full = open("/dev/full", O_WRONLY);
  const int null = open("/dev/null", O_WRONLY);
  if (full < 0 || null < 0 || dup2(full, STDOUT_FILENO) < 0 || dup2(null, STDERR_FILENO) < 0)
    _exit(99);
  alarm(kSecondsAllowed);
  _exit(common::run_main("t", body));
}

// run_main's exit status for `body` on a full device is `status`.
void expect_status_on_full_device(const char* what, const std::function<int()>& body, int status) {
  SCOPED_TRACE(what);
  EXPECT_EXIT(run_main_on_full_device(body), ::testing::ExitedWithCode(status), "");
}

TEST(RunMain, OutputThatCannotBeWrittenFails) {
#ifdef GTEST_FLAG_SET
  GTEST_FLAG_SET(death_test_style, "threadsafe");
#else
  ::testing::GTEST_FLAG(death_test_style) = "threadsafe";
#endif
  // Short output sits in the buffer until the end: run_main flushes it.
  expect_status_on_full_device(
      "a short line through std::cout",
      [] {
        std::cout << "a line\n";
        return 0;
      },
      1);
  expect_status_on_full_device(
      "a short line through printf",
      [] {
        std::printf("a line\n");
        return 0;
      },
      1);
  // Long output fails on the way; a failure status of the body's own stays.
  expect_status_on_full_device(
      "long output",
      [] {
        for (int i = 0; i < 10000; ++i) std::cout << "a longer line of output\n";
        return 0;
      },
      1);
  expect_status_on_full_device(
      "the body's own status",
      [] {
        std::cout << "a line\n";
        return 3;
      },
      3);
  // Nothing printed, nothing to fail.
  expect_status_on_full_device(
      "nothing printed", [] { return 0; }, 0);
}

// The getopt_long message for a value given to a long option without one.
std::string getopt_message(std::vector<std::string> words) {
  static const option kLong[] = {{"bench", no_argument, nullptr, 1000},
                                 {"size", required_argument, nullptr, 's'},
                                 {nullptr, 0, nullptr, 0}};
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  optind = 0;
  opterr = 0;
  int c;
  while ((c = getopt_long(static_cast<int>(words.size()), argv.data(), ":s:", kLong, nullptr)) !=
         -1)
    if (c == '?' || c == ':') return common::getopt_usage_error(c, argv.data(), kLong).what();
  return "";
}

TEST(GetoptUsageError, SaysWhichOptionTakesNoValue) {
  EXPECT_EQ(getopt_message({"p", "--bench=1"}), "--bench takes no value");
  EXPECT_EQ(getopt_message({"p", "--bench="}), "--bench takes no value");
  EXPECT_EQ(getopt_message({"p", "--bogus=1"}), "unknown option --bogus=1");
  EXPECT_EQ(getopt_message({"p", "--size"}), "option --size needs a value");
  EXPECT_EQ(getopt_message({"p", "-x"}), "unknown option -x");
  // Inside a group after a valid --name=value, the short option is the one at fault.
  EXPECT_EQ(getopt_message({"p", "--size=3", "-xq"}), "unknown option -x");
  EXPECT_EQ(getopt_message({"p", "--size=3", "-qx"}), "unknown option -q");
  EXPECT_EQ(getopt_message({"p", "--size=3", "--bench=2"}), "--bench takes no value");
}

TEST(CudaCheck, ThrowsWithCallFileAndLine) {
  try {
    CUDA_CHECK(cudaErrorInvalidValue);
    FAIL() << "no exception";
  } catch (const common::CudaError& e) {
    const std::string msg = e.what();
    EXPECT_EQ(e.code(), cudaErrorInvalidValue);
    EXPECT_NE(msg.find("cudaErrorInvalidValue"), std::string::npos) << msg;
    EXPECT_NE(msg.find("test_common.cpp:"), std::string::npos) << msg;
    EXPECT_NE(msg.find("failed at"), std::string::npos) << msg;
  }
  EXPECT_NO_THROW(CUDA_CHECK(cudaSuccess));
}

// The handle owner on a stand-in handle (a counter) so it runs without a GPU:
// each handle is released once, by its last owner, and a moved-from owner
// releases nothing.
cudaError_t count_release(int* released) {
  ++*released;
  return cudaSuccess;
}
using CountedHandle = common::CudaHandle<int*, count_release>;

TEST(CudaHandle, ReleasesEachHandleOnceThroughMoves) {
  int first = 0, second = 0;
  {
    CountedHandle a;
    *a.out() = &first;
    CountedHandle b = std::move(a);
    EXPECT_EQ(a.get(), nullptr);
    EXPECT_EQ(b.get(), &first);
    CountedHandle c;
    *c.out() = &second;
    c = std::move(b); // c's own handle is released now
    EXPECT_EQ(second, 1);
    EXPECT_EQ(first, 0);
    c = std::move(c);
    EXPECT_EQ(c.get(), &first);
  }
  EXPECT_EQ(first, 1);
  EXPECT_EQ(second, 1);
}

TEST(Summary, MinMedianMaxMean) {
  const common::Summary odd = common::summarize({5, 1, 3});
  EXPECT_EQ(odd.count, 3u);
  EXPECT_DOUBLE_EQ(odd.min, 1);
  EXPECT_DOUBLE_EQ(odd.median, 3);
  EXPECT_DOUBLE_EQ(odd.max, 5);
  EXPECT_DOUBLE_EQ(odd.mean, 3);
  EXPECT_DOUBLE_EQ(common::summarize({4, 1, 2, 3}).median, 2.5);
  EXPECT_EQ(common::summarize({}).count, 0u);
}

TEST(Stopwatch, MeasuresASleepAndRestarts) {
  common::Stopwatch sw;
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const double slept = sw.elapsed_ms();
  EXPECT_GE(slept, 19.0);
  EXPECT_LT(slept, 5000.0);
  sw.restart();
  EXPECT_LT(sw.elapsed_ms(), slept);
}

TEST(Device, ReasonAndAnswerAgree) {
  EXPECT_EQ(common::has_cuda_device(), common::no_device_reason().empty());
  if (!common::has_cuda_device()) {
    EXPECT_EQ(common::short_device_name(), "no GPU");
  }
}

TEST(Device, LoadsKernelsEagerlyUnlessTheCallerChoseAMode) {
  const char* had = std::getenv("CUDA_MODULE_LOADING");
  const std::string saved = had ? had : "";
  unsetenv("CUDA_MODULE_LOADING");
  common::load_kernels_eagerly();
  ASSERT_NE(std::getenv("CUDA_MODULE_LOADING"), nullptr);
  EXPECT_STREQ(std::getenv("CUDA_MODULE_LOADING"), "EAGER");
  setenv("CUDA_MODULE_LOADING", "LAZY", 1);
  common::load_kernels_eagerly();
  EXPECT_STREQ(std::getenv("CUDA_MODULE_LOADING"), "LAZY");
  if (had)
    setenv("CUDA_MODULE_LOADING", saved.c_str(), 1);
  else
    unsetenv("CUDA_MODULE_LOADING");
}

TEST(HostMemory, RefusesMoreThanTheMachineHasNamingTheBytes) {
  const std::size_t available = common::available_host_memory();
  if (available == 0) GTEST_SKIP() << "this system does not say how much memory is available";
  EXPECT_NO_THROW(common::require_host_memory(1024, "a small run"));
  try {
    common::require_host_memory(available * 4, "-n 123 (input)");
    FAIL() << "four times the available memory was accepted";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("-n 123 (input) needs " + std::to_string(available * 4) +
                        " bytes of host memory"),
              std::string::npos)
        << what;
  }
}

TEST(DeviceBuffer, EmptyBufferNeedsNoDevice) {
  common::DeviceBuffer<float> empty;
  EXPECT_EQ(empty.size(), 0u);
  EXPECT_EQ(empty.data(), nullptr);
  common::DeviceBuffer<float> zero(0, "zero");
  EXPECT_TRUE(zero.empty());
}

class CommonGpu : public GpuTest {};

TEST_F(CommonGpu, BannerListsDevice0) {
  std::ostringstream out;
  common::print_device_banner(out);
  EXPECT_NE(out.str().find("Device 0: "), std::string::npos);
  EXPECT_NE(out.str().find("CUDA Cap:"), std::string::npos);
}

TEST_F(CommonGpu, BufferRoundTripAndMove) {
  std::vector<int> host(1000);
  for (int i = 0; i < 1000; ++i) host[i] = i * 7 - 3;
  common::DeviceBuffer<int> a(1000, "a");
  a.copy_from_host(host.data(), host.size());
  common::DeviceBuffer<int> b = std::move(a);
  EXPECT_EQ(a.data(), nullptr);
  EXPECT_EQ(b.size(), 1000u);
  std::vector<int> back(1000, -1);
  b.copy_to_host(back.data(), back.size());
  EXPECT_EQ(back, host);
  EXPECT_THROW(b.copy_to_host(back.data(), 1001), std::out_of_range);
}

TEST_F(CommonGpu, MappedBufferTakesDeviceWrites) {
  common::MappedBuffer<int> mapped(4, "mapped");
  ASSERT_NE(mapped.device_data(), nullptr);
  mapped[3] = -1;
  const int values[4] = {5, 6, 7, 8};
  common::DeviceBuffer<int> d(4, "d");
  d.copy_from_host(values, 4);
  // A copy to the device address lands in the host memory (kernels writing
  // through it are tested by find_repeats' count).
  CUDA_CHECK(cudaMemcpy(mapped.device_data(), d.data(), sizeof values, cudaMemcpyDefault));
  EXPECT_EQ(mapped[0], 5);
  EXPECT_EQ(mapped[3], 8);
  EXPECT_EQ(common::MappedBuffer<int>().device_data(), nullptr);
}

TEST_F(CommonGpu, ImpossibleAllocationNamesLabelAndBytes) {
  try {
    common::DeviceBuffer<char> huge(std::size_t{1} << 50, "huge test buffer");
    FAIL() << "allocated a petabyte";
  } catch (const common::CudaError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("huge test buffer"), std::string::npos) << msg;
    EXPECT_NE(msg.find(std::to_string(std::size_t{1} << 50)), std::string::npos) << msg;
  }
  // The failure must not poison later calls.
  common::DeviceBuffer<char> ok(16, "ok");
  EXPECT_EQ(ok.size(), 16u);
}

TEST_F(CommonGpu, EventTimerAndBandwidthArePositive) {
  // A 64 MiB device copy takes measurable time on any GPU.
  common::DeviceBuffer<char> a(std::size_t{64} << 20, "a"), b(std::size_t{64} << 20, "b");
  common::CudaEventTimer timer;
  timer.start();
  ASSERT_EQ(cudaMemcpyAsync(b.data(), a.data(), a.bytes(), cudaMemcpyDeviceToDevice, nullptr),
            cudaSuccess);
  timer.stop();
  EXPECT_GT(timer.elapsed_ms(), 0.0);
  EXPECT_GT(common::measure_d2d_gbs(std::size_t{1} << 24, 3), 0.0);
  EXPECT_GT(common::measure_h2d_pinned_gbs(std::size_t{1} << 22, 2), 0.0);
}

// A stream told to wait on an event runs its later work after the work the
// event marked on another stream: a 64 MiB device copy on one stream, then a
// copy of its destination on another.
TEST_F(CommonGpu, EventOrdersWorkAcrossStreamsAndMoves) {
  const std::size_t n = std::size_t{16} << 20;
  std::vector<int> host(n);
  for (std::size_t i = 0; i < n; ++i) host[i] = static_cast<int>(i * 13 + 1);
  common::DeviceBuffer<int> a(n, "a"), b(n, "b"), c(n, "c");
  a.copy_from_host(host.data(), n);
  common::CudaStream first, second;
  common::CudaEvent moved;
  common::CudaEvent copied = std::move(moved);
  EXPECT_EQ(moved.get(), nullptr);
  ASSERT_EQ(cudaMemcpyAsync(b.data(), a.data(), b.bytes(), cudaMemcpyDeviceToDevice, first.get()),
            cudaSuccess);
  copied.record(first.get());
  copied.make_wait(second.get());
  ASSERT_EQ(cudaMemcpyAsync(c.data(), b.data(), c.bytes(), cudaMemcpyDeviceToDevice, second.get()),
            cudaSuccess);
  second.synchronize();
  std::vector<int> back(n, -1);
  c.copy_to_host(back.data(), n);
  EXPECT_EQ(back, host);
}

} // namespace

// A graph replays what was queued during its capture, each launch again (not
// the capture itself, which runs nothing). A capture that throws leaves the
// stream taking plain work and the graph empty.
TEST_F(CommonGpu, GraphReplaysItsCaptureAndSurvivesAThrow) {
  common::CudaStream stream;
  common::DeviceBuffer<int> a(1024, "a"), b(1024, "b");
  std::vector<int> ones(1024, 0x01010101), back(1024, 0);
  a.copy_from_host(std::vector<int>(1024, 0).data(), 1024);
  common::CudaGraph graph;
  EXPECT_TRUE(graph.empty());
  EXPECT_THROW(graph.launch(stream.get()), std::logic_error);
  graph.capture(stream.get(), [&] {
    CUDA_CHECK(cudaMemsetAsync(a.data(), 1, a.bytes(), stream.get()));
    CUDA_CHECK(
        cudaMemcpyAsync(b.data(), a.data(), a.bytes(), cudaMemcpyDeviceToDevice, stream.get()));
  });
  ASSERT_FALSE(graph.empty());
  stream.synchronize();
  a.copy_to_host(back.data(), 1024);
  EXPECT_EQ(back, std::vector<int>(1024, 0)) << "the capture ran its work";
  graph.launch(stream.get());
  stream.synchronize();
  b.copy_to_host(back.data(), 1024);
  EXPECT_EQ(back, ones);
  // Once more, after the destination was overwritten.
  CUDA_CHECK(cudaMemset(b.data(), 0, b.bytes()));
  graph.launch(stream.get());
  stream.synchronize();
  b.copy_to_host(back.data(), 1024);
  EXPECT_EQ(back, ones);

  EXPECT_THROW(graph.capture(stream.get(),
                             [&] {
                               CUDA_CHECK(cudaMemsetAsync(a.data(), 2, a.bytes(), stream.get()));
                               throw std::runtime_error("queue failed");
                             }),
               std::runtime_error);
  EXPECT_TRUE(graph.empty());
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusActive;
  ASSERT_EQ(cudaStreamIsCapturing(stream.get(), &status), cudaSuccess);
  EXPECT_EQ(status, cudaStreamCaptureStatusNone);
  CUDA_CHECK(cudaMemsetAsync(a.data(), 3, a.bytes(), stream.get()));
  stream.synchronize();
  a.copy_to_host(back.data(), 1024);
  EXPECT_EQ(back, std::vector<int>(1024, 0x03030303));
}

// ------------------------------------------------------------ enum names

namespace {
enum class Fruit { Apple, Pear, Plum, Unnamed };
constexpr common::NamedValue<Fruit> kFruitNames[] = {
    {Fruit::Apple, "apple"}, {Fruit::Pear, "pear"}, {Fruit::Plum, "plum"}};
} // namespace

TEST(EnumNames, NameOfEveryValueAndTheMissingOne) {
  EXPECT_STREQ(common::enum_name(kFruitNames, Fruit::Apple), "apple");
  EXPECT_STREQ(common::enum_name(kFruitNames, Fruit::Plum), "plum");
  EXPECT_STREQ(common::enum_name(kFruitNames, Fruit::Unnamed), "?");
  EXPECT_STREQ(common::enum_name(kFruitNames, Fruit::Unnamed, "unknown"), "unknown");
}

TEST(EnumNames, ValueOfANameExactlyAsWritten) {
  EXPECT_EQ(common::enum_from_name(kFruitNames, "pear"), Fruit::Pear);
  EXPECT_EQ(common::enum_from_name(kFruitNames, "Pear"), std::nullopt);
  EXPECT_EQ(common::enum_from_name(kFruitNames, "pea"), std::nullopt);
  EXPECT_EQ(common::enum_from_name(kFruitNames, ""), std::nullopt);
}

TEST(EnumNames, NamesJoinedInTableOrder) {
  EXPECT_EQ(common::enum_names(kFruitNames), "apple, pear, plum");
  EXPECT_EQ(common::enum_names(kFruitNames, "|"), "apple|pear|plum");
}
