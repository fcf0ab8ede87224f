// scan_tune: times the single-pass kernels at the sizes the targets name: the
// register kernels over several tilings (threads per block, 16-byte vectors
// per thread) and Hopper's pipelines over several shapes (pipeline.cuh),
// checking each against the serial reference first. Its table chose the
// tilings and pipelines in src/single_pass.cu; docs/scan.md keeps the numbers.
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
#include "pipeline.cuh"
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

// One line of a pipeline's results: its shape in the register kernels'
// columns (threads, 16-byte vectors per thread), then tile KB, stages, store
// look-back and reducer warps, blocks per SM and prefetch distance in tiles.
template <class P>
void report_pipeline(const char* kernel, const Context& c, double us, double bytes, bool prefetch) {
  std::printf(
      "%-13s %8d %5d %6d %7d %8s %12lld %10.1f %9.1f %9.1f%%  %dKBx%d st%d lb%d rd%d %dblk pf%d\n",
      kernel, P::kThreads, P::kTileItems / P::kThreads / 4, P::kSleepNs, 32,
      prefetch ? "yes" : "no", static_cast<long long>(c.n), us, bytes / (us * 1e-6) / 1e9,
      100.0 * c.memcpy_us / us, P::kTileItems / 256, P::kStages, P::kStoreWarps, P::kLookbackWarps,
      P::kReduceWarps, P::kBlocksPerSm, P::kPrefetchTiles);
}

// The pipelined scan (pipeline.cuh): tile items, stages, store warps, blocks
// per SM, look-back warps, prefetch distance in tiles.
template <int kTileItems, int kStages, int kStoreWarps, int kBlocks, int kLookbackWarps,
          int kPrefetchTiles, int kReduceWarps = 1, int kSleepNs = 100>
bool tune_pipelined_scan(Context& c) {
  using P = scan::detail::Pipeline<kTileItems, kStages, kStoreWarps, kBlocks, kLookbackWarps,
                                   kPrefetchTiles, kReduceWarps, kSleepNs>;
  using Op = scan::detail::ScanOp;
  if (scan::detail::pipeline_slots<P, Op>() == 0) {
    std::printf("%-13s: skipped (needs sm_90 code and the shared memory of an H100)\n",
                "pipe-scan");
    return true;
  }
  auto op = [&](int s) {
    auto* out = reinterpret_cast<unsigned*>(c.sets->out[s].data());
    scan::detail::launch_pipelined<P>(reinterpret_cast<const unsigned*>(c.sets->in[s].data()), c.n,
                                      c.lookback->next(), c.stream,
                                      Op{out, scan::detail::aligned16(out)});
  };
  poison_output(c);
  op(0);
  CUDA_CHECK(cudaStreamSynchronize(c.stream));
  if (!check(c, c.expected_scan, c.n, "pipelined scan")) return false;
  report_pipeline<P>("pipe-scan", c, 1e3 * scan_app::median_event_ms(op, c.sets->count(), c.stream),
                     8.0 * static_cast<double>(c.n), kPrefetchTiles > 0);
  return true;
}

// Checks a find_repeats run's count and output.
bool check_repeats(const Context& c, const common::DeviceBuffer<long long>& count,
                   const char* what) {
  long long got = 0;
  count.copy_to_host(&got, 1);
  if (got != c.expected_count) {
    std::fprintf(stderr, "scan_tune: %s count %lld, expected %lld\n", what, got,
                 static_cast<long long>(c.expected_count));
    return false;
  }
  return check(c, c.expected_repeats, got, what);
}

template <int kTileItems, int kStages, int kStoreWarps, int kBlocks, int kLookbackWarps,
          int kPrefetchTiles, int kReduceWarps = 1>
bool tune_pipelined_repeats(Context& c) {
  using P = scan::detail::Pipeline<kTileItems, kStages, kStoreWarps, kBlocks, kLookbackWarps,
                                   kPrefetchTiles, kReduceWarps>;
  using Op = scan::detail::RepeatsOp;
  if (scan::detail::pipeline_slots<P, Op>() == 0) {
    std::printf("%-13s: skipped (needs sm_90 code and the shared memory of an H100)\n",
                "pipe-repeats");
    return true;
  }
  common::DeviceBuffer<long long> count(1, "count");
  auto op = [&](int s) {
    scan::detail::launch_pipelined<P>(reinterpret_cast<const unsigned*>(c.sets->in[s].data()), c.n,
                                      c.lookback->next(), c.stream,
                                      Op{c.sets->out[s].data(), count.data()});
  };
  poison_output(c);
  op(0);
  CUDA_CHECK(cudaStreamSynchronize(c.stream)); // the copies below run on the legacy stream
  if (!check_repeats(c, count, "pipelined find_repeats")) return false;
  report_pipeline<P>("pipe-repeats", c,
                     1e3 * scan_app::median_event_ms(op, c.sets->count(), c.stream),
                     4.0 * static_cast<double>(c.n + c.expected_count), kPrefetchTiles > 0);
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
  if (!check_repeats(c, count, "find_repeats")) return false;
  report<T>("find_repeats", c, 1e3 * scan_app::median_event_ms(op, c.sets->count(), c.stream),
            4.0 * static_cast<double>(c.n + c.expected_count),
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
    Lookback lookback(n / 512 + 1); // enough for the smallest tile below (1024 items)
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
    // Tiles held in registers (the first design, the kernels of GPUs before
    // Hopper, and smaller tiles for short inputs: docs/scan.md, change 14),
    // then Hopper's pipelines (change 15): the shipped ones first, then
    // without the L2 prefetch, then neighbours from the sweep.
    ok = ok && tune_scan<128, 8, 100>(c) && tune_scan<128, 4, 100>(c);
    ok = ok && tune_pipelined_scan<8192, 7, 8, 1, 2, 64, 2>(c) &&
         tune_pipelined_scan<8192, 7, 8, 1, 2, 0, 2>(c) &&
         tune_pipelined_scan<8192, 6, 8, 1, 2, 64, 2>(c) &&
         tune_pipelined_scan<8192, 7, 8, 1, 2, 64, 4>(c) &&
         tune_pipelined_scan<4096, 6, 4, 2, 2, 128, 1>(c);
    ok = ok && tune_repeats<256, 12, false>(c) && tune_repeats<256, 12>(c);
    ok = ok && tune_pipelined_repeats<8192, 7, 16, 1, 2, 64, 4>(c) &&
         tune_pipelined_repeats<8192, 7, 8, 1, 2, 64, 2>(c) &&
         tune_pipelined_repeats<8192, 7, 16, 1, 2, 0, 4>(c) &&
         tune_pipelined_repeats<8192, 6, 16, 1, 2, 64, 4>(c) &&
         tune_pipelined_repeats<8192, 7, 16, 1, 2, 64, 8>(c) &&
         tune_pipelined_repeats<4096, 6, 8, 2, 2, 128, 2>(c);
  }
  return ok ? 0 : 1;
}

} // namespace

int main(int argc, char** argv) {
  return common::run_main("scan_tune", [&] { return run(argc, argv); });
}
