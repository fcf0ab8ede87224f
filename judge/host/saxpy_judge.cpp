#include "judge/saxpy_judge.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "common/bandwidth.h"
#include "judge/seeds.h"
#include "judge/session.h"
#include "judge/shared_array.h"
#include "saxpy/saxpy.h"

namespace judge {

namespace {

// Bytes past each result that the worker must leave as they were.
constexpr std::size_t kGuardBytes = 4096;
constexpr unsigned char kPoison = 0xa5;

// A fresh input: x and y in [-1, 1) and a (returned) in [0.5, 2), from a
// seed the worker cannot predict.
float fill_random(std::vector<float>& x, std::vector<float>& y, std::uint64_t seed) {
  std::uint64_t s = seed;
  const auto next = [&s] {
    s += 0x9e3779b97f4a7c15ull; // splitmix64
    std::uint64_t z = s;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  };
  // The top 24 bits: every value exact in a float.
  const auto unit = [&next] { return static_cast<float>(next() >> 40) * 0x1p-24f; };
  for (float& v : x) v = 2.0f * unit() - 1.0f;
  for (float& v : y) v = 2.0f * unit() - 1.0f;
  return 0.5f + 1.5f * unit();
}

// Every bit of a float: 9 significant digits.
std::string exact(float v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", static_cast<double>(v));
  return text;
}

// Empty when the guard past `out`'s first `bytes` is untouched.
std::string check_guard(const SharedArray& out, std::size_t bytes, const std::string& what) {
  const std::size_t guard = std::min(out.bytes() - bytes, kGuardBytes);
  std::vector<unsigned char> tail(guard);
  if (guard > 0) out.read(bytes, tail.data(), guard);
  for (std::size_t i = 0; i < guard; ++i)
    if (tail[i] != kPoison)
      return what + " wrote past its result (byte " + std::to_string(bytes + i) + ")";
  return {};
}

// Empty when `out` holds `want` bit for bit and its guard is untouched.
std::string check_result(const SharedArray& out, const std::vector<float>& want,
                         const std::string& what) {
  const std::size_t bytes = want.size() * sizeof(float);
  std::vector<float> got(want.size());
  out.read(0, got.data(), bytes);
  for (std::size_t i = 0; i < want.size(); ++i)
    if (std::memcmp(&got[i], &want[i], sizeof(float)) != 0)
      return "result of " + what + " differs from the reference at index " + std::to_string(i) +
             " (got " + exact(got[i]) + ", want " + exact(want[i]) + ")";
  return check_guard(out, bytes, what);
}

} // namespace

std::vector<SaxpyRow> judge_saxpy(std::int64_t n, const JudgeOptions& options,
                                  const SandboxPlan& plan) {
  std::vector<SaxpyRow> rows(2);
  rows[0].test = "saxpy_trip";
  rows[1].test = "saxpy_kernel";
  for (SaxpyRow& row : rows) row.n = n;
  const auto reject_all = [&rows](const std::string& reason) {
    for (SaxpyRow& row : rows)
      if (!row.correct && row.reason.empty()) row.reason = reason;
    return rows;
  };
  const std::size_t count = static_cast<std::size_t>(n), bytes = count * sizeof(float);
  // x, y and the result, on the host for the trip and in options.memory
  // for the kernel alone; each result with its guard.
  SharedArray host[3], device[3];
  std::vector<int> fds;
  for (int i = 0; i < 3; ++i) {
    host[i] = SharedArray::create(MemoryKind::kHost, bytes + (i == 2 ? kGuardBytes : 0));
    fds.push_back(host[i].fd());
  }
  for (int i = 0; i < 3; ++i) {
    device[i] = SharedArray::create(options.memory, bytes + (i == 2 ? kGuardBytes : 0));
    fds.push_back(device[i].fd());
  }
  // Each array's size as made (device ones rounded up): the worker maps
  // them whole.
  Session session(
      options.worker,
      {"--memory", memory_name(options.memory), "--elements", std::to_string(n), "--host-bytes",
       std::to_string(host[0].bytes()), "--host-result-bytes", std::to_string(host[2].bytes()),
       "--device-bytes", std::to_string(device[0].bytes()), "--device-result-bytes",
       std::to_string(device[2].bytes())},
      fds, options.log_dir + "/worker-saxpy-" + std::to_string(n) + ".log", options.sandbox, plan);
  const std::string not_ready = session.wait_ready(options.start_timeout_s);
  if (!not_ready.empty()) return reject_all(not_ready);
  const double empty_ms = session.empty_round_trip(5, options.call_timeout_s);
  for (SaxpyRow& row : rows) row.empty_ms = empty_ms;

  std::mt19937_64 seeds = input_seeds(options.secret, options.seed);
  InputLog inputs(options.log_dir + "/judge-saxpy-" + std::to_string(n) + ".inputs",
                  options.secret);
  std::vector<float> x(count), y(count), want(count);
  for (SaxpyRow& row : rows) {
    const bool trip = &row == &rows[0];
    SharedArray* arrays = trip ? host : device;
    for (int call = 1; call <= options.runs; ++call) {
      if (seconds_left(options) <= 0) {
        session.quit();
        return reject_all(time_limit_reason(true));
      }
      const std::uint64_t seed = seeds();
      inputs.add(seed, static_cast<std::uint64_t>(n));
      const float a = fill_random(x, y, seed);
      saxpy::saxpy_serial(count, a, x.data(), y.data(), want.data());
      // Nothing of the worker runs while the inputs are written: a thread
      // that watched them could copy them ahead of the clock. It goes on
      // once the clock runs (call_resuming).
      const std::string still = session.pause(kPauseSeconds);
      if (!still.empty()) return reject_all(still);
      const std::string what = std::string(trip ? "trip " : "kernel call ") + std::to_string(call);
      // Held still, the worker has nothing running on the GPU, before its
      // inputs are written and after (a kernel it left would compute off
      // the clock).
      std::string busy = probe_held_idle(options.memory, options.switch_ms, "before " + what);
      if (busy.empty()) {
        arrays[0].write(0, x.data(), bytes);
        arrays[1].write(0, y.data(), bytes);
        host[2].fill(kPoison);
        device[2].fill(kPoison);
        busy = probe_held_idle(options.memory, options.switch_ms,
                               "before " + what + ", its inputs written");
      }
      if (!busy.empty()) {
        session.quit();
        return reject_all(busy);
      }
      const Answer answer = session.call_resuming(
          trip ? Command::kSaxpyTrip : Command::kSaxpyKernel, n, options.call_timeout_s, a);
      if (!answer.failure.empty()) return reject_all(what + ": " + answer.failure);
      const LateWork late = probe_late_work(options.memory, options.switch_ms, what, answer.ms);
      if (!late.reason.empty())
        row.reason = late.reason;
      else if (answer.worker_failed)
        row.reason = what + " failed: " + answer.message;
      else
        row.reason = check_result(arrays[2], want, what);
      // The trip's device result is the worker's scratch, but its own.
      if (row.reason.empty() && trip) row.reason = check_guard(device[2], bytes, what);
      if (!row.reason.empty()) {
        session.quit();
        return reject_all(row.reason);
      }
      row.times_ms.push_back(answer.ms + late.charged_ms);
      row.charged_ms = std::max(row.charged_ms, late.charged_ms);
    }
    row.correct = true;
  }
  session.quit();
  return rows;
}

double device_copy_ms(std::size_t bytes) {
  // Read and written: twice the bytes at the measured rate.
  return 2.0 * static_cast<double>(bytes) / (common::measure_d2d_gbs(bytes) * 1e9) * 1e3;
}

} // namespace judge
