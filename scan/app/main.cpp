// cudaScan: the course's scan assignment program. Runs exclusive_scan or
// find_repeats on the GPU, checks the result against the serial reference and
// prints the course's timing line; --bench times every algorithm.
#include <iostream>
#include <stdexcept>

#include "bench.h"
#include "common/cli.h"
#include "common/device.h"
#include "options.h"
#include "run_check.h"

namespace {

// One name in the usage line and in error lines, whatever path ran it.
constexpr char kProgram[] = "cudaScan";

int run(int argc, char** argv) {
  const scan_app::Options opt = scan_app::parse_options(argc, argv);
  if (opt.help) {
    std::cout << scan_app::usage(kProgram);
    return 0;
  }
  common::require_cuda_device();
  return opt.bench ? scan_app::run_bench(opt) : scan_app::run_check(opt);
}

} // namespace

int main(int argc, char** argv) {
  common::load_kernels_eagerly(); // no timed run pays for loading a kernel
  return common::run_main(kProgram, [&] { return run(argc, argv); });
}
