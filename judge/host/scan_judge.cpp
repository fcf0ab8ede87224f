#include "judge/scan_judge.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "judge/contract.h"
#include "judge/device_memory.h"
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

namespace {

// One call's input and what the serial reference makes of it.
struct CallInput {
  std::vector<int> in, want;
  std::int64_t want_count = 0;
};

CallInput draw_input(ScanTest test, std::int64_t n, std::uint64_t seed) {
  CallInput c;
  c.in.resize(static_cast<std::size_t>(n));
  c.want.resize(static_cast<std::size_t>(n));
  fill_random(c.in, seed);
  if (test == ScanTest::kFindRepeats) ensure_a_repeat(c.in, seed >> 17);
  if (test == ScanTest::kScan)
    scan::exclusive_scan_serial(c.in.data(), c.want.data(), n);
  else
    c.want_count = scan::find_repeats_serial(c.in.data(), n, c.want.data());
  return c;
}

// One worker of a row: its arrays, its session and its row. It is held
// still (paused) between its timed calls, so that another worker timed
// meanwhile runs alone and nothing it does unseen runs off the clock.
class Side {
public:
  Side(ScanTest test, std::int64_t n, const std::string& worker, const std::string& log,
       const ScanJudgeOptions& options, const SandboxPlan& plan)
      : input_(SharedArray::create(options.memory, static_cast<std::size_t>(n) * sizeof(int))),
        output_(SharedArray::create(options.memory,
                                    static_cast<std::size_t>(n) * sizeof(int) + kGuardBytes)),
        free_before_start_(options.memory == MemoryKind::kDevice ? device_free_bytes() : 0),
        session_(worker,
                 {"--memory", memory_name(options.memory), "--input-bytes",
                  std::to_string(input_.bytes()), "--output-bytes",
                  std::to_string(output_.bytes())},
                 {input_.fd(), output_.fd()}, log, options.sandbox, plan),
        options_(options) {
    row.test = test;
    row.n = n;
  }

  // Ready, its empty round trip measured, and held still; false (the
  // reason in the row) when it is not.
  bool start() {
    row.reason = session_.wait_ready(options_.start_timeout_s);
    if (!row.reason.empty()) return false;
    row.empty_ms = session_.empty_round_trip(5, options_.call_timeout_s);
    return hold();
  }

  // Timed call `call` on `input`, checked; held still again after it.
  // False (the worker gone, the reason in the row) when the row is over;
  // or, with the worker still held, when the GPU was busy before the call
  // (`busy` then says why: whose work it was is the caller's to say).
  bool timed_call(int call, const CallInput& input) {
    const std::int64_t n = row.n;
    const std::string when = "before timed call " + std::to_string(call);
    if (seconds_left(options_) <= 0) {
      row.reason = time_limit_reason(true); // still held: finish() or the session ends it
      return false;
    }
    // Every worker is held still now: nothing may run on the GPU, before
    // the input is written (a kernel left resident would read it off the
    // clock) and again after (work waiting on the write would compute it).
    busy = probe_held_idle(options_.memory, options_.switch_ms, when);
    if (!busy.empty()) return false;
    if (n > 0) input_.write(0, input.in.data(), static_cast<std::size_t>(n) * sizeof(int));
    output_.fill(kPoison);
    busy = probe_held_idle(options_.memory, options_.switch_ms, when + ", its input written");
    if (!busy.empty()) return false;
    // The worker was still while its input was written: what it does once
    // it can see the input is on the clock.
    const Command command = row.test == ScanTest::kScan ? Command::kScan : Command::kFindRepeats;
    // The memory held for a trusted worker is its own during its call
    // (every other worker is held still).
    if (reserve) reserve->release();
    const double wait_s = std::min(options_.call_timeout_s, seconds_left(options_) + 0.5);
    const Answer answer = session_.call_resuming(command, n, wait_s);
    if (reserve) reserve->retake();
    if (!answer.failure.empty()) {
      row.reason = wait_s < options_.call_timeout_s && seconds_left(options_) <= 0
                       ? time_limit_reason(true)
                       : answer.failure;
      return false;
    }
    // The GPU runs one process's context at a time: work the worker left
    // running delays the judge's probe, and is charged to the call.
    const LateWork late = probe_late_work(options_.memory, options_.switch_ms,
                                          "timed call " + std::to_string(call), answer.ms);
    if (!late.reason.empty()) return end(late.reason);
    if (answer.worker_failed) return end("failed: " + answer.message);
    const std::string wrong =
        check_output(row.test, call, output_, n, answer, input.want, input.want_count);
    if (!wrong.empty()) return end(wrong);
    row.times_ms.push_back(answer.ms + late.charged_ms);
    row.charged_ms = std::max(row.charged_ms, late.charged_ms);
    return hold() && within_memory("after timed call " + std::to_string(call));
  }

  // A graded worker beside a reference: its hold on the GPU's memory is
  // bounded, counted from what was free just before it started (its
  // static constructors run before it is ready).
  void bound_memory() {
    if (options_.memory == MemoryKind::kDevice && options_.gpu_memory_limit_mib > 0)
      free_at_start_ = free_before_start_;
  }
  // Whether the worker holds no more of the GPU's memory than its bound
  // (every worker held still); ends the row when it holds more.
  bool within_memory(const std::string& when) {
    if (!free_at_start_) return true;
    const std::size_t free = device_free_bytes();
    const std::int64_t held_mib =
        free >= *free_at_start_ ? 0 : static_cast<std::int64_t>((*free_at_start_ - free) >> 20);
    if (held_mib <= options_.gpu_memory_limit_mib) return true;
    return end("holds " + std::to_string(held_mib) + " MiB of the GPU's memory " + when +
               ", over its limit of " + std::to_string(options_.gpu_memory_limit_mib) +
               " MiB (--gpu-memory-limit)");
  }

  // The worker leaves (unless a failure ended it): the row is correct when
  // every call was and there was one.
  void finish() {
    if (!row.reason.empty()) {
      leave();
      return;
    }
    row.reason = leave();
    row.correct = row.reason.empty() && !row.times_ms.empty();
  }

  // Ends the row with `why` (its worker leaves).
  bool end(const std::string& why) {
    row.reason = why;
    leave();
    return false;
  }

  ScanRow row;
  std::string busy;                 // the GPU busy before a call, while every worker was held
  DeviceReserve* reserve = nullptr; // memory held for this (trusted) worker

private:
  // Asks the worker to leave, once: empty, or why it is rejected (quit()).
  std::string leave() {
    if (left_) return {};
    left_ = true;
    return session_.quit();
  }
  bool hold() {
    row.reason = session_.pause(kPauseSeconds);
    return row.reason.empty();
  }

  SharedArray input_, output_;
  std::size_t free_before_start_; // the GPU's free bytes just before the worker started
  Session session_;
  const ScanJudgeOptions& options_;
  std::optional<std::size_t> free_at_start_; // bytes free when a bounded worker started
  bool left_ = false;
};

std::string log_name(const ScanJudgeOptions& options, const char* who, ScanTest test,
                     std::int64_t n) {
  return options.log_dir + "/" + who + "-" + test_name(test) + "-" + std::to_string(n) + ".log";
}

InputLog input_log(const ScanJudgeOptions& options, ScanTest test, std::int64_t n) {
  return InputLog(options.log_dir + "/judge-" + test_name(test) + "-" + std::to_string(n) +
                      ".inputs",
                  options.secret);
}

// The next call's input, its seed noted in the row's input log.
CallInput next_input(ScanTest test, std::int64_t n, std::mt19937_64& seeds, InputLog& log) {
  const std::uint64_t seed = seeds();
  log.add(seed, static_cast<std::uint64_t>(n));
  return draw_input(test, n, seed);
}

} // namespace

ScanRow judge_scan(ScanTest test, std::int64_t n, const ScanJudgeOptions& options,
                   const SandboxPlan& plan) {
  if (seconds_left(options) <= 0) {
    ScanRow none;
    none.test = test;
    none.n = n;
    none.reason = time_limit_reason(false);
    return none;
  }
  Side side(test, n, options.worker, log_name(options, "worker", test, n), options, plan);
  if (!side.start()) return side.row;
  std::mt19937_64 seeds = input_seeds(options.secret, options.seed);
  InputLog inputs = input_log(options, test, n);
  for (int call = 1; call <= options.runs; ++call) {
    if (side.timed_call(call, next_input(test, n, seeds, inputs))) continue;
    // Alone, GPU work before a call is the worker's own.
    if (!side.busy.empty()) side.end(side.busy);
    return side.row;
  }
  side.finish();
  return side.row;
}

ScanPair judge_scan_pair(ScanTest test, std::int64_t n, const ScanJudgeOptions& options,
                         const std::string& reference_worker, const SandboxPlan& plan) {
  ScanPair pair;
  pair.reference.test = pair.graded.test = test;
  pair.reference.n = pair.graded.n = n;
  if (seconds_left(options) <= 0) {
    pair.graded.reason = time_limit_reason(false);
    return pair;
  }
  Side reference(test, n, reference_worker, log_name(options, "reference", test, n), options, plan);
  // The graded worker starts once the reference is ready and held: nothing
  // it starts can take the processes or the cores the reference's start
  // needs, nor the GPU memory its calls allocate, which the judge holds for
  // it until each of its calls.
  std::optional<DeviceReserve> reserve;
  std::optional<Side> graded;
  const ScoreRule& rule = *part_rule(test_name(test));
  std::mt19937_64 seeds = input_seeds(options.secret, options.seed);
  InputLog inputs = input_log(options, test, n);
  const int limit = std::max(options.runs, contract::kMaxRuns);
  if (reference.start()) {
    if (options.memory == MemoryKind::kDevice) {
      reserve.emplace(reference_scratch_bytes(n));
      reference.reserve = &*reserve;
    }
    graded.emplace(test, n, options.worker, log_name(options, "worker", test, n), options, plan);
    graded->bound_memory();
  }
  if (graded && graded->start() && graded->within_memory("once it was ready")) {
    for (int call = 1; call <= limit; ++call) {
      // The same input for both, each timed alone, the order alternating.
      const CallInput input = next_input(test, n, seeds, inputs);
      Side& first = call % 2 == 1 ? reference : *graded;
      Side& second = call % 2 == 1 ? *graded : reference;
      if (!first.timed_call(call, input) || !second.timed_call(call, input)) {
        // GPU work while both were held is the graded worker's: the
        // reference is ours, and answers only once its work has ended.
        const std::string busy = !first.busy.empty() ? first.busy : second.busy;
        if (!busy.empty()) graded->end(busy);
        // The time limit is the graded worker's: the reference's row stands.
        if (reference.row.reason == time_limit_reason(true)) {
          reference.row.reason.clear();
          if (graded->row.reason.empty()) graded->end(time_limit_reason(true));
        }
        break;
      }
      if (call < options.runs) continue;
      // Repeated until the score no longer rests on which calls were fastest.
      const RowScores s =
          row_scores(rule, best_of(reference.row.times_ms), median_of(reference.row.times_ms),
                     best_of(graded->row.times_ms), median_of(graded->row.times_ms));
      pair.stable = std::abs(s.low - s.score) <= rule.steady_within &&
                    std::abs(s.high - s.score) <= rule.steady_within;
      if (pair.stable) break;
    }
  }
  reference.finish();
  reference.reserve = nullptr;
  reserve.reset();
  pair.reference = reference.row;
  if (!graded) return pair;
  graded->finish();
  pair.graded = graded->row;
  // A reference that failed once the graded worker was beside it is timed
  // again alone: passing then, its failure was the graded worker's doing
  // (GPU memory taken, work left running), and the graded row is rejected
  // for it; failing alone too, it is the grader's (the part is not graded).
  ScanJudgeOptions alone = options;
  alone.worker = reference_worker;
  if (!pair.reference.reason.empty() && pair.graded.reason.empty()) {
    const ScanRow again = judge_scan(test, n, alone, plan);
    if (again.correct) {
      pair.graded.correct = false;
      pair.graded.reason =
          "made the reference fail beside it (" + pair.reference.reason + "; alone, it passed)";
      pair.reference = again;
    }
  } else if (pair.reference.reason.empty() && pair.reference.times_ms.empty() &&
             !pair.graded.reason.empty() && seconds_left(options) > 0) {
    // The graded worker failed before the reference's first call (at its
    // start, over its memory): the reference is timed alone, so that the
    // part keeps its row.
    pair.reference = judge_scan(test, n, alone, plan);
  }
  return pair;
}

} // namespace judge
