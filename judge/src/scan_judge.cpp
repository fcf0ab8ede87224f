#include "judge/scan_judge.h"

#include <algorithm>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "judge/seeds.h"
#include "judge/session.h"
#include "scan/reference.h"

namespace judge {

namespace {

// Bytes past the output that the worker must leave as they were.
constexpr std::size_t kGuardBytes = 4096;
constexpr unsigned char kPoison = 0xa5;

// The course's "random" input (values 0 to 9), from a generator the worker
// cannot predict: a fresh seed per call.
void fill_random(std::vector<int>& v, std::uint64_t seed) {
  std::uint64_t s = seed;
  for (int& x : v) {
    s += 0x9e3779b97f4a7c15ull; // splitmix64
    std::uint64_t z = s;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    x = static_cast<int>(z % 10);
  }
}

// A small input may hold no repeat at all (17 values of 0-9: one time in
// five), and then "none" is the right answer of a find_repeats that does
// nothing. Such an input gets one repeat, at a place the seed picks.
void ensure_a_repeat(std::vector<int>& v, std::uint64_t seed) {
  if (v.size() < 2) return;
  for (std::size_t i = 0; i + 1 < v.size(); ++i)
    if (v[i] == v[i + 1]) return;
  const std::size_t at = static_cast<std::size_t>(seed % (v.size() - 1));
  v[at + 1] = v[at];
}

std::string mismatch(int call, std::int64_t index, int got, int want) {
  return "output of timed call " + std::to_string(call) + " differs from the reference at index " +
         std::to_string(index) + " (got " + std::to_string(got) + ", want " + std::to_string(want) +
         ")";
}

// Checks one call's output; empty when right.
std::string check_output(ScanTest test, int call, const SharedArray& out, std::int64_t n,
                         const Answer& answer, const std::vector<int>& want,
                         std::int64_t want_count) {
  std::int64_t count = n;
  if (test == ScanTest::kFindRepeats) {
    if (answer.value != want_count)
      return "timed call " + std::to_string(call) + " returned " + std::to_string(answer.value) +
             " repeats, the reference finds " + std::to_string(want_count);
    count = want_count;
  }
  std::vector<int> got(static_cast<std::size_t>(count));
  if (count > 0) out.read(0, got.data(), got.size() * sizeof(int));
  const std::int64_t at = scan::first_mismatch(got.data(), want.data(), count);
  if (at < count) return mismatch(call, at, got[at], want[at]);
  // Past its array: the guard. (find_repeats may use its array past the
  // count as scratch, as the course's may.)
  const std::size_t end = static_cast<std::size_t>(n) * sizeof(int);
  const std::size_t guard = std::min(out.bytes() - end, kGuardBytes);
  std::vector<unsigned char> tail(guard);
  if (guard > 0) out.read(end, tail.data(), guard);
  for (std::size_t i = 0; i < guard; ++i)
    if (tail[i] != kPoison)
      return "timed call " + std::to_string(call) + " wrote past its output (byte " +
             std::to_string(end + i) + ")";
  return {};
}

} // namespace

const char* test_name(ScanTest test) {
  return test == ScanTest::kScan ? "scan" : "find_repeats";
}

double measure_switch_ms(const std::string& calibration_worker, const JudgeOptions& options,
                         const SandboxPlan& plan) {
  SharedArray input = SharedArray::create(MemoryKind::kDevice, sizeof(int));
  SharedArray output = SharedArray::create(MemoryKind::kDevice, sizeof(int));
  Session session(calibration_worker,
                  {"--memory", "device", "--input-bytes", std::to_string(input.bytes()),
                   "--output-bytes", std::to_string(output.bytes())},
                  {input.fd(), output.fd()}, options.log_dir + "/calibration.log", options.sandbox,
                  plan);
  const std::string not_ready = session.wait_ready(options.start_timeout_s);
  if (!not_ready.empty()) throw std::runtime_error("the judge's calibration worker " + not_ready);
  std::vector<double> probes;
  for (int i = 0; i < 9; ++i) {
    const Answer a = session.call(Command::kScan, 1, options.call_timeout_s);
    if (!a.failure.empty() || a.worker_failed)
      throw std::runtime_error("the judge's calibration worker failed: " + a.failure + a.message);
    probes.push_back(probe_device_ms());
  }
  session.quit();
  return median_of(probes);
}

ScanRow judge_scan(ScanTest test, std::int64_t n, const ScanJudgeOptions& options,
                   const SandboxPlan& plan) {
  ScanRow row;
  row.test = test;
  row.n = n;
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(int);
  SharedArray input = SharedArray::create(options.memory, bytes);
  SharedArray output = SharedArray::create(options.memory, bytes + kGuardBytes);
  const std::string log =
      options.log_dir + "/worker-" + test_name(test) + "-" + std::to_string(n) + ".log";
  Session session(options.worker,
                  {"--memory", memory_name(options.memory), "--input-bytes",
                   std::to_string(input.bytes()), "--output-bytes", std::to_string(output.bytes())},
                  {input.fd(), output.fd()}, log, options.sandbox, plan);
  row.reason = session.wait_ready(options.start_timeout_s);
  if (!row.reason.empty()) return row;
  row.empty_ms = session.empty_round_trip(5, options.call_timeout_s);

  std::mt19937_64 seeds = input_seeds(options.secret, options.seed);
  std::vector<int> in(static_cast<std::size_t>(n)), want(static_cast<std::size_t>(n));
  const Command command = test == ScanTest::kScan ? Command::kScan : Command::kFindRepeats;
  for (int call = 1; call <= options.runs; ++call) {
    const std::uint64_t seed = seeds();
    fill_random(in, seed);
    if (test == ScanTest::kFindRepeats) ensure_a_repeat(in, seed >> 17);
    std::int64_t want_count = 0;
    if (test == ScanTest::kScan)
      scan::exclusive_scan_serial(in.data(), want.data(), n);
    else
      want_count = scan::find_repeats_serial(in.data(), n, want.data());
    // The worker is still while its input is written (as saxpy's): what it
    // does once it can see the input is on the clock.
    row.reason = session.pause(kPauseSeconds);
    if (!row.reason.empty()) return row;
    if (n > 0) input.write(0, in.data(), bytes);
    output.fill(kPoison);
    const Answer answer = session.call_resuming(command, n, options.call_timeout_s);
    if (!answer.failure.empty()) {
      row.reason = answer.failure;
      return row;
    }
    // The GPU runs one process's context at a time: work the worker left
    // running delays the judge's probe, and is charged to the call.
    const LateWork late = probe_late_work(options.memory, options.switch_ms,
                                          "timed call " + std::to_string(call), answer.ms);
    if (!late.reason.empty()) {
      row.reason = late.reason;
      session.quit();
      return row;
    }
    const double charged = late.charged_ms;
    if (answer.worker_failed) {
      row.reason = "failed: " + answer.message;
      session.quit();
      return row;
    }
    row.reason = check_output(test, call, output, n, answer, want, want_count);
    if (!row.reason.empty()) {
      session.quit();
      return row;
    }
    row.times_ms.push_back(answer.ms + charged);
    row.charged_ms = std::max(row.charged_ms, charged);
  }
  session.quit();
  row.correct = true;
  return row;
}

} // namespace judge
