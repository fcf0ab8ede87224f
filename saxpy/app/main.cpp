// cudaSaxpy: SAXPY on the GPU, timed with and without host transfers, against
// a serial CPU version and the memcpy bandwidth of the same GPU.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/bandwidth.h"
#include "common/cli.h"
#include "common/device.h"
#include "common/device_buffer.h"
#include "common/host_memory.h"
#include "common/timer.h"
#include "options.h"
#include "saxpy/saxpy.h"

namespace {

constexpr float kAlpha = 2.0f;
// One name in the usage line and in error lines, whatever path ran it.
constexpr char kProgram[] = "cudaSaxpy";

double gib_per_s(double bytes, double ms) {
  return ms > 0 ? bytes / (1024.0 * 1024.0 * 1024.0) / (ms * 1e-3) : 0.0;
}

// Index of the first element that differs bitwise, or n.
std::size_t first_mismatch(const float* got, const float* want, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    if (std::memcmp(&got[i], &want[i], sizeof(float)) != 0) return i;
  return n;
}

struct Best {
  double total_ms = std::numeric_limits<double>::infinity();
  double kernel_ms = std::numeric_limits<double>::infinity();
};

int run_program(int argc, char** argv) {
  const saxpy_app::Options opt = saxpy_app::parse_options(argc, argv);
  if (opt.help) {
    std::fputs(saxpy_app::usage_text(kProgram).c_str(), stdout);
    return 0;
  }
  common::require_cuda_device();
  common::print_device_banner(std::cout);

  const std::size_t n = opt.n;
  const double bytes = saxpy::saxpy_bytes(n);
  // x, y, the reference and the result, plus pinned x, y and result for the
  // tuned variant.
  const bool tuned = std::find(opt.variants.begin(), opt.variants.end(), saxpy::Variant::Tuned) !=
                     opt.variants.end();
  common::require_host_memory((tuned ? 7 : 4) * n * sizeof(float),
                              "-n " + std::to_string(n) + " (host arrays)");
  std::vector<float> x(n), y(n), expected(n), result(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = y[i] = static_cast<float>(i % 10);

  common::Stopwatch serial_clock;
  saxpy::saxpy_serial(n, kAlpha, x.data(), y.data(), expected.data());
  const double serial_ms = serial_clock.elapsed_ms();

  // Ceilings of this GPU, measured now. Copies of at least 64 MiB so they run
  // at full speed, at most 1 GiB to keep the run short.
  const std::size_t probe =
      std::min<std::size_t>(std::max<std::size_t>(n * 4, 64u << 20), 1u << 30);
  const double d2d_gbs = common::measure_d2d_gbs(probe);
  const double h2d_gbs = common::measure_h2d_pinned_gbs(probe);
  const double to_gib = 1e9 / (1024.0 * 1024.0 * 1024.0);
  // The course's lines come first, in its order ("Running 3 timing tests:",
  // then each run's "Effective BW" line); our own lines follow them.
  std::printf("Running %d timing tests:\n", opt.runs);

  bool all_correct = true;
  std::vector<Best> best(opt.variants.size());
  for (std::size_t v = 0; v < opt.variants.size(); ++v) {
    const saxpy::Variant variant = opt.variants[v];
    std::printf("\n%s variant:\n", saxpy::variant_name(variant));
    // The tuned trip reads and writes pinned host memory; filling it is
    // setup, outside the timed trip.
    common::PinnedBuffer<float> px, py, presult;
    const float *in_x = x.data(), *in_y = y.data();
    float* out = result.data();
    if (variant == saxpy::Variant::Tuned) {
      px = common::PinnedBuffer<float>(n, "pinned x");
      py = common::PinnedBuffer<float>(n, "pinned y");
      presult = common::PinnedBuffer<float>(n, "pinned result");
      std::copy(x.begin(), x.end(), px.data());
      std::copy(y.begin(), y.end(), py.data());
      in_x = px.data();
      in_y = py.data();
      out = presult.data();
    }
    for (int r = 0; r < opt.runs; ++r) {
      std::fill(out, out + n, std::numeric_limits<float>::quiet_NaN()); // catch unwritten output
      const saxpy::Timing t = saxpy::run(variant, n, kAlpha, in_x, in_y, out, opt.chunk);
      std::printf("Effective BW by CUDA saxpy: %.3f ms\t\t[%.3f GB/s]\n", t.total_ms,
                  gib_per_s(bytes, t.total_ms));
      std::printf("Kernel only (no transfers): %.3f ms\t\t[%.3f GB/s]\n", t.kernel_ms,
                  gib_per_s(bytes, t.kernel_ms));
      const std::size_t bad = first_mismatch(out, expected.data(), n);
      if (bad != n) {
        std::printf("Mismatch at index %zu: got %.9g, expected %.9g\n", bad,
                    static_cast<double>(out[bad]), static_cast<double>(expected[bad]));
        all_correct = false;
      }
      best[v].total_ms = std::min(best[v].total_ms, t.total_ms);
      best[v].kernel_ms = std::min(best[v].kernel_ms, t.kernel_ms);
    }
  }

  std::printf("\n");
  std::printf("Serial CPU saxpy:            %.3f ms\t\t[%.3f GB/s]\n", serial_ms,
              gib_per_s(bytes, serial_ms));
  std::printf("Device-to-device memcpy:     %.3f GB/s (bytes read + written)\n", d2d_gbs * to_gib);
  std::printf("Pinned host-to-device copy:  %.3f GB/s\n", h2d_gbs * to_gib);

  // The ideal trip moves the inputs in at the pinned copy rate; the result
  // copy out can overlap it (copies in each direction run at once).
  const double ideal_trip_ms = n ? 8.0 * static_cast<double>(n) / (h2d_gbs * 1e9) * 1e3 : 0.0;
  std::printf("\nSummary, best of %d runs, N = %zu, %s:\n", opt.runs, n,
              common::short_device_name().c_str());
  std::printf("%-8s %12s %10s %12s %10s %15s %15s\n", "variant", "trip ms", "GB/s", "kernel ms",
              "GB/s", "kernel/memcpy", "trip/ideal");
  for (std::size_t v = 0; v < opt.variants.size(); ++v) {
    const double kernel_gbs = gib_per_s(bytes, best[v].kernel_ms);
    std::printf("%-8s %12.3f %10.3f %12.3f %10.3f %15.3f %15.3f\n",
                saxpy::variant_name(opt.variants[v]), best[v].total_ms,
                gib_per_s(bytes, best[v].total_ms), best[v].kernel_ms, kernel_gbs,
                d2d_gbs > 0 ? kernel_gbs / (d2d_gbs * to_gib) : 0.0,
                ideal_trip_ms > 0 ? best[v].total_ms / ideal_trip_ms : 0.0);
  }
  std::printf("(ideal trip: %.3f ms = host-to-device bytes / pinned host-to-device bandwidth)\n",
              ideal_trip_ms);
  if (tuned) std::printf("(tuned trip: chunks of %zu floats, see --chunk)\n", opt.chunk);
  std::printf(all_correct ? "Results match the serial reference (bitwise).\n"
                          : "ERROR: results differ from the serial reference.\n");
  return all_correct ? 0 : 1;
}

} // namespace

int main(int argc, char** argv) {
  common::load_kernels_eagerly(); // no timed run pays for loading a kernel
  return common::run_main(kProgram, [&] { return run_program(argc, argv); });
}
