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

int run(int argc, char** argv) {
  const scan_app::Options opt = scan_app::parse_options(argc, argv);
  if (opt.help) {
    std::cout << scan_app::usage(argv[0]);
    return 0;
  }
  const std::string no_device = common::no_device_reason();
  if (!no_device.empty()) throw std::runtime_error("no usable CUDA device: " + no_device);
  return opt.bench ? scan_app::run_bench(opt) : scan_app::run_check(opt);
}

} // namespace

int main(int argc, char** argv) {
  return common::run_main("cudaScan", [&] { return run(argc, argv); });
}
