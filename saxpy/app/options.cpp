#include "options.h"

#include <getopt.h>

#include <stdexcept>
#include <string>

#include "common/cli.h"

namespace saxpy_app {

namespace {
enum LongOnly { kChunk = 1000 };
} // namespace

namespace {

// -v's lines: a handout holds the student's kernel alone.
std::string variant_help([[maybe_unused]] const std::string& variant) {
#ifdef SUITE_HANDOUT
  return "  -v  --variant <NAME>   student (default): your kernel, "
         "saxpy/student/student_saxpy.cu\n";
#else
  return "  -v  --variant <NAME>   course, tuned, both or student (default " + variant +
         ")\n"
         "                         course: pageable memory, one element per thread\n"
         "                         tuned:  pinned memory, chunks copied in on one stream while\n"
         "                                 earlier ones compute and copy out on others,\n"
         "                                 16-byte vector loads\n"
         "                         student: your kernel, saxpy/student/student_saxpy.cu\n";
#endif
}

// --chunk is the tuned trip's, which a handout does not hold.
std::string chunk_help() {
#ifdef SUITE_HANDOUT
  return "";
#else
  return "      --chunk <INT>      Floats per chunk of the tuned trip (default " +
         std::to_string(saxpy::kDefaultChunk) + ", max " + std::to_string(saxpy::kMaxChunk) +
         ");\n"
         "                         the last chunks halve down to " +
         std::to_string(saxpy::kTailChunk) +
         " so the trip ends soon\n"
         "                         after its last copy in; each chunk is several CUDA calls, so\n"
         "                         chunks of a few floats are for tests, not timing\n";
#endif
}

} // namespace

std::string usage_text(const char* program) {
  const std::string n = std::to_string(kDefaultN), max_n = std::to_string(kMaxN);
  const std::string variant = saxpy::default_variants().size() > 1 ? "both" : "student";
  return std::string("Usage: ") + program +
         " [options]\n"
         "Computes result = a*x + y over N floats on the GPU (a = 2, x[i] = y[i] = i % 10)\n"
         "and checks every result against the serial CPU version for bitwise equality\n"
         "(the kernels round the product and the sum separately, as the CPU does).\n"
         "Program Options:\n"
         "  -n  --arraysize <INT>  Number of elements in arrays (default " +
         n + ", max " + max_n + ")\n" + variant_help(variant) +
         "  -r  --runs <INT>       Runs per variant, best is summarized (default 3)\n" +
         chunk_help() +
         "  -?  --help             This message\n"
         "Each run prints the whole trip (copies in, kernel, copy out) and the kernel alone,\n"
         "with effective bandwidth (GB/s = 2^30 bytes per second, as the course prints it),\n"
         "beside the device-to-device memcpy bandwidth measured in the same run.\n"
         "Exit status: 0 correct, 1 wrong result or failure (no GPU, out of memory), 2 usage.\n";
}

Options parse_options(int argc, char** argv) {
  Options opt;
  static const option long_options[] = {{"arraysize", required_argument, nullptr, 'n'},
                                        {"variant", required_argument, nullptr, 'v'},
                                        {"runs", required_argument, nullptr, 'r'},
                                        {"chunk", required_argument, nullptr, kChunk},
                                        {"help", no_argument, nullptr, 'h'},
                                        {nullptr, 0, nullptr, 0}};
  optind = 0; // start afresh: tests parse several command lines in one process
  opterr = 0; // we print our own messages
  int c;
  while ((c = getopt_long(argc, argv, ":n:v:r:?", long_options, nullptr)) != -1) {
    switch (c) {
    case 'n':
      opt.n = static_cast<std::size_t>(common::parse_int(optarg, "-n/--arraysize", 0, kMaxN));
      break;
    case 'v': {
      const std::string v = optarg;
      if (v == "both") {
        opt.variants = {saxpy::Variant::Course, saxpy::Variant::Tuned};
        break;
      }
      try {
        opt.variants = {saxpy::parse_variant(v)};
      } catch (const std::invalid_argument&) {
        throw common::UsageError("-v/--variant: unknown variant '" + v +
                                 "' (valid: course, tuned, both, student)");
      }
      break;
    }
    case 'r':
      opt.runs = static_cast<int>(common::parse_int(optarg, "-r/--runs", 1, 1000));
      break;
    case kChunk:
      opt.chunk = static_cast<std::size_t>(
          common::parse_int(optarg, "--chunk", 1, static_cast<std::int64_t>(saxpy::kMaxChunk)));
      break;
    case 'h':
      opt.help = true;
      return opt;
    default: // '?' or ':': "-?" asks for help, anything else is a usage error
      opt.help = common::getopt_help_or_throw(c, argv, long_options);
      return opt;
    }
  }
  common::reject_operands(argc, argv);
  return opt;
}

} // namespace saxpy_app
