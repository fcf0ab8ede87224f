// scan_tune: times the single-pass kernels over several tilings (threads per
// block, 16-byte vectors per thread) at the sizes the targets name, checking
// each against the serial reference first. Its table chose the tilings in
// src/single_pass.cu; docs/scan.md keeps the numbers.
//
// Usage: scan_tune [N...]   (default 1M, 4M, 10M, 40M, 2^28; random input, rand() % 10)
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench_harness.h"
#include "common/cli.h"
#include "common/device.h"
#include "common/stream.h"
#include "scan/inputs.h"
#include "scan/reference.h"
#include "scan/scan.h"
#include "single_pass_kernels.cuh"

namespace {

using scan::detail::LookbackState;
using scan::detail::Tiling;

// Look-back words and the tile counter, zeroed once; every launch takes a new epoch.
struct Lookback {
  explicit Lookback(std::int64_t words)
      : status(static_cast<std::size_t>(words), "look-back words"), counter(1, "tile counter") {
    CUDA_CHECK(cudaMemset(status.data(), 0, status.bytes()));
    CUDA_CHECK(cudaMemset(counter.data(), 0, counter.bytes()));
  }
  LookbackState next() { return {status.data(), counter.data(), ++epoch}; }
  common::DeviceBuffer<unsigned long long> status;
  common::DeviceBuffer<unsigned> counter;
  unsigned epoch = 0;
};

struct Context {
  std::int64_t n;
  std::vector<int> input, expected_scan, expected_repeats;
  std::int64_t expected_count;
  scan_app::BufferSets* sets;
  Lookback* lookback;
  cudaStream_t stream;
  double memcpy_us;
};

bool check(const Context& c, const std::vector<int>& want, std::int64_t count, const char* what) {
  std::vector<int> got(static_cast<std::size_t>(count));
  c.sets->out[0].copy_to_host(got.data(), got.size());
  const std::int64_t bad = scan::first_mismatch(got.data(), want.data(), count);
  if (bad == count) return true;
  std::fprintf(stderr, "scan_tune: %s wrong at index %lld\n", what, static_cast<long long>(bad));
  return false;
}

// So that a kernel that writes nothing cannot pass on the last one's output.
void poison_output(const Context& c) {
  CUDA_CHECK(cudaMemsetAsync(c.sets->out[0].data(), 0xff, c.sets->out[0].bytes(), c.stream));
}

template <class T>
void report(const char* kernel, const Context& c, double us, double bytes, bool prefetch) {
  std::printf("%-13s %8d %5d %6d %7d %8s %12lld %10.1f %9.1f %9.1f%%\n", kernel, T::kThreads,
              T::kVecs, T::kSleepNs, 32 * T::kLookback, prefetch ? "yes" : "no",
              static_cast<long long>(c.n), us, bytes / (us * 1e-6) / 1e9, 100.0 * c.memcpy_us / us);
}

template <int kThreads, int kVecs, int kSleepNs = 0, int kLookback = 1> bool tune_scan(Context& c) {
  using T = Tiling<kThreads, kVecs, kSleepNs, kLookback>;
  auto op = [&](int s) {
    scan::detail::launch_single_pass_scan<T>(
        reinterpret_cast<const unsigned*>(c.sets->in[s].data()),
        reinterpret_cast<unsigned*>(c.sets->out[s].data()), c.n, c.lookback->next(), c.stream);
  };
  poison_output(c);
  op(0);
  CUDA_CHECK(cudaStreamSynchronize(c.stream));
  if (!check(c, c.expected_scan, c.n, "scan")) return false;
  report<T>("scan", c, 1e3 * scan_app::median_event_ms(op, c.sets->count(), c.stream),
            8.0 * static_cast<double>(c.n), false);
  return true;
}

template <int kThreads, int kVecs, bool kPrefetch = true, int kSleepNs = 100, int kLookback = 1>
bool tune_staged(Context& c) {
  using T = Tiling<kThreads, kVecs, kSleepNs, kLookback>;
  if (!scan::detail::staged_scan_runs_here<T>()) {
    std::printf("%-13s %8d %5d: skipped (needs sm_90 code and the shared memory of an H100)\n",
                "staged-scan", T::kThreads, T::kVecs);
    return true;
  }
  auto op = [&](int s) {
    scan::detail::launch_staged_scan<T>(reinterpret_cast<const unsigned*>(c.sets->in[s].data()),
                                        reinterpret_cast<unsigned*>(c.sets->out[s].data()), c.n,
                                        c.lookback->next(), c.stream, kPrefetch);
  };
  poison_output(c);
  op(0);
  CUDA_CHECK(cudaStreamSynchronize(c.stream));
  if (!check(c, c.expected_scan, c.n, "staged scan")) return false;
  report<T>("staged-scan", c, 1e3 * scan_app::median_event_ms(op, c.sets->count(), c.stream),
            8.0 * static_cast<double>(c.n),
            kPrefetch && scan::detail::use_prefetch(c.sets->in[0].data(), c.n));
  return true;
}

template <int kThreads, int kVecs, bool kPrefetch = true, int kSleepNs = 100, int kLookback = 1>
bool tune_repeats(Context& c) {
  using T = Tiling<kThreads, kVecs, kSleepNs, kLookback>;
  common::DeviceBuffer<long long> count(1, "count");
  auto op = [&](int s) {
    scan::detail::launch_fused_find_repeats<T>(c.sets->in[s].data(), c.n, c.sets->out[s].data(),
                                               count.data(), c.lookback->next(), c.stream,
                                               kPrefetch);
  };
  poison_output(c);
  op(0);
  CUDA_CHECK(cudaStreamSynchronize(c.stream)); // the copies below run on the legacy stream
  long long got = 0;
  count.copy_to_host(&got, 1);
  if (got != c.expected_count) {
    std::fprintf(stderr, "scan_tune: find_repeats count %lld, expected %lld\n", got,
                 static_cast<long long>(c.expected_count));
    return false;
  }
  if (!check(c, c.expected_repeats, got, "find_repeats")) return false;
  report<T>("find_repeats", c, 1e3 * scan_app::median_event_ms(op, c.sets->count(), c.stream),
            4.0 * static_cast<double>(c.n + got),
            kPrefetch && scan::detail::use_prefetch(c.sets->in[0].data(), c.n));
  return true;
}

int run(int argc, char** argv) {
  std::vector<std::int64_t> sizes;
  for (int i = 1; i < argc; ++i)
    sizes.push_back(common::parse_int(argv[i], "N", 1, scan::kMaxRepeatsElements));
  if (sizes.empty()) sizes = {1'000'000, 4'000'000, 10'000'000, 40'000'000, std::int64_t{1} << 28};
  common::require_cuda_device();
  const common::DeviceInfo device = common::query_devices().front();
  std::printf("scan_tune on %s; random input (rand() %% 10); median of CUDA-event timings\n",
              common::short_device_name().c_str());
  std::printf("%-13s %8s %5s %6s %7s %8s %12s %10s %9s %10s\n", "kernel", "threads", "vecs",
              "sleep", "window", "prefetch", "n", "time us", "GB/s", "of memcpy");
  common::CudaStream stream;
  bool ok = true;
  for (std::int64_t n : sizes) {
    Context c;
    c.n = n;
    c.input.resize(static_cast<std::size_t>(n));
    c.expected_scan.resize(c.input.size());
    c.expected_repeats.resize(c.input.size());
    scan::fill_input(scan::InputKind::kRandom, c.input.data(), n, 1);
    scan::exclusive_scan_serial(c.input.data(), c.expected_scan.data(), n);
    c.expected_count = scan::find_repeats_serial(c.input.data(), n, c.expected_repeats.data());
    scan_app::BufferSets sets =
        scan_app::make_buffer_sets(c.input, device.l2_bytes, std::size_t{1} << 30);
    Lookback lookback(n / 512 + 1); // enough for the smallest tile below (128 x 1 x 4 items)
    c.sets = &sets;
    c.lookback = &lookback;
    c.stream = stream.get();
    const auto bytes = static_cast<std::size_t>(4 * n);
    c.memcpy_us =
        1e3 * scan_app::median_event_ms(
                  [&](int s) {
                    CUDA_CHECK(cudaMemcpyAsync(sets.out[s].data(), sets.in[s].data(), bytes,
                                               cudaMemcpyDeviceToDevice, c.stream));
                  },
                  sets.count(), c.stream);
    std::printf("%-13s %8s %5s %6s %7s %8s %12lld %10.1f %9.1f\n", "memcpy", "-", "-", "-", "-",
                "-", static_cast<long long>(n), c.memcpy_us,
                8.0 * static_cast<double>(n) / (c.memcpy_us * 1e-6) / 1e9);
    // Tiles held in registers (the first design, and smaller tiles for short
    // inputs: docs/scan.md, change 14), then the staged tilings with and
    // without the L2 prefetch.
    ok = ok && tune_scan<128, 8, 100>(c) && tune_scan<128, 4, 100>(c) &&
         tune_scan<128, 2, 100>(c) && tune_scan<256, 4, 100>(c);
    ok = ok && tune_staged<128, 32, false>(c) && tune_staged<128, 32>(c) &&
         tune_staged<128, 24>(c) && tune_staged<128, 16>(c);
    ok = ok && tune_repeats<256, 12, false>(c) && tune_repeats<256, 12>(c) &&
         tune_repeats<256, 8>(c) && tune_repeats<256, 4>(c) && tune_repeats<128, 8>(c) &&
         tune_repeats<128, 4>(c) && tune_repeats<128, 2>(c);
  }
  return ok ? 0 : 1;
}

} // namespace

int main(int argc, char** argv) {
  return common::run_main("scan_tune", [&] { return run(argc, argv); });
}
