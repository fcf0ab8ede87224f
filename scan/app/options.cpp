#include "options.h"

#include <getopt.h>

#include "common/cli.h"
#include "scan/scan.h"

namespace scan_app {

const char* test_name(Test test) {
  return test == Test::kScan ? "scan" : "find_repeats";
}

namespace {

enum LongOnly { kSeed = 1000, kBench };

Test parse_test(const std::string& text) {
  if (text == "scan") return Test::kScan;
  if (text == "find_repeats") return Test::kFindRepeats;
  throw common::UsageError("-m/--test: unknown test '" + text + "' (valid: scan, find_repeats)");
}

} // namespace

Options parse_options(int argc, char** argv) {
  static const option kLongOptions[] = {{"test", required_argument, nullptr, 'm'},
                                        {"input", required_argument, nullptr, 'i'},
                                        {"arraysize", required_argument, nullptr, 'n'},
                                        {"thrust", no_argument, nullptr, 't'},
                                        {"algorithm", required_argument, nullptr, 'a'},
                                        {"runs", required_argument, nullptr, 'r'},
                                        {"seed", required_argument, nullptr, kSeed},
                                        {"bench", no_argument, nullptr, kBench},
                                        {"help", no_argument, nullptr, 'h'},
                                        {nullptr, 0, nullptr, 0}};
  Options opt;
  optind = 0; // start afresh: tests parse several command lines in one process
  opterr = 0; // our own messages
  bool algorithm_given = false, runs_given = false;
  int c;
  while ((c = getopt_long(argc, argv, ":m:i:n:ta:r:?", kLongOptions, nullptr)) != -1) {
    switch (c) {
    case 'm':
      opt.test = parse_test(optarg);
      opt.test_given = true;
      break;
    case 'i': {
      const auto input = scan::find_input(optarg);
      if (!input)
        throw common::UsageError(std::string("-i/--input: unknown input '") + optarg +
                                 "' (valid: " + scan::input_names() + ")");
      opt.input = *input;
      break;
    }
    case 'n':
      opt.n = common::parse_int(optarg, "-n/--arraysize", 0, scan::kMaxScanElements);
      opt.n_given = true;
      break;
    case 't':
      opt.thrust = true;
      break;
    case 'a': {
      const std::string name = optarg;
      algorithm_given = true;
      opt.all_algorithms = name == "all";
      if (opt.all_algorithms) break;
      const auto algorithm = scan::find_algorithm(name);
      if (!algorithm)
        throw common::UsageError("-a/--algorithm: unknown algorithm '" + name +
                                 "' (valid: " + scan::algorithm_names() + ", all, student)");
      opt.algorithm = *algorithm;
      break;
    }
    case 'r':
      opt.runs = static_cast<int>(common::parse_int(optarg, "-r/--runs", 1, 1000));
      runs_given = true;
      break;
    case kSeed:
      opt.seed = static_cast<unsigned>(common::parse_int(optarg, "--seed", 0, 4294967295LL));
      break;
    case kBench:
      opt.bench = true;
      break;
    case 'h':
      opt.help = true;
      return opt;
    default: // '?' or ':': "-?" asks for help, anything else is a usage error
      opt.help = common::getopt_help_or_throw(c, argv, kLongOptions);
      return opt;
    }
  }
  common::reject_operands(argc, argv);

  // The bench times every algorithm its own way: nothing to choose there.
  if (opt.bench && (algorithm_given || opt.thrust || runs_given))
    throw common::UsageError(std::string("--bench times every algorithm; it takes no ") +
                             (algorithm_given ? "-a"
                              : opt.thrust    ? "-t"
                                              : "-r"));
  if (opt.bench && !opt.test_given && opt.n_given && opt.n > scan::kMaxRepeatsElements)
    opt.test_given = true; // only scan goes that far: bench it alone
  if (opt.thrust) {
    if (algorithm_given && (opt.all_algorithms || opt.algorithm != scan::Algorithm::kCub))
      throw common::UsageError(
          "-t/--thrust runs the library (cub); it cannot go with -a " +
          std::string(opt.all_algorithms ? "all" : scan::algorithm_name(opt.algorithm)));
    opt.algorithm = scan::Algorithm::kCub;
  }
  if (opt.test == Test::kFindRepeats && opt.n > scan::kMaxRepeatsElements)
    throw common::UsageError("-n/--arraysize: find_repeats takes at most " +
                             std::to_string(scan::kMaxRepeatsElements) + " elements");
  return opt;
}

namespace {

// -a's lines: a handout holds the student's slot alone (and CUB, -t).
std::string algorithm_help() {
#ifdef SUITE_HANDOUT
  return "student (default): your code, scan/student/student_scan.cu\n";
// suite-only
#else
  return scan::algorithm_names() + ", all, or student (default " +
         scan::algorithm_name(scan::kDefaultAlgorithm) +
         ")\n"
         "                           student: your code, scan/student/student_scan.cu\n"
         "                           for find_repeats: kogge-stone, blelloch = flags, that\n"
         "                           scan, scatter; single-pass = one fused kernel;\n"
         "                           cub = DeviceSelect::If\n";
// /suite-only
#endif
}

} // namespace

std::string usage(const char* program) {
  return std::string("Usage: ") + program +
         " [options]\n"
         "Exclusive scan and find_repeats on the GPU, checked against the serial reference.\n"
         "Program Options:\n"
         "  -m  --test <TYPE>        scan or find_repeats (default scan)\n"
         "  -i  --input <NAME>       " +
         scan::input_names() +
         " (default random)\n"
         "                           random: rand() % 10; wide: rand(), sums wrap int32\n"
         "  -n  --arraysize <INT>    Number of elements in arrays (default 64)\n"
         "  -t  --thrust             Use the library implementation (CUB, which Thrust calls)\n"
         "  -a  --algorithm <NAME>   " +
         algorithm_help() +
         "  -r  --runs <INT>         Timed runs, the best is printed (default 3)\n"
         "      --seed <INT>         Seed for srand() before the random inputs (default 1)\n"
         "      --bench              Time every algorithm with CUDA events against CUB and\n"
         "                           memcpy (sizes 10M, 40M, 2^28 unless -n is given; both\n"
         "                           tests unless -m is given, or -n is past find_repeats'\n"
         "                           limit); -a, -t and -r do not go with it\n"
         "  -?  --help               This message\n"
         "Prints the course's lines in its order: \"Array size: N\", \"Student GPU time: X ms\"\n"
         "(\"Thrust GPU time\" with -t: host time around the call plus cudaDeviceSynchronize,\n"
         "data already on the device, best of the runs) and the check's verdict; then\n"
         "\"Serial CPU time: X ms\" (one run of the serial reference it is checked against).\n"
         "Sums wrap modulo 2^32, like the serial reference.\n"
         "Exit status: 0 correct, 1 wrong result or failure (no GPU, too little memory), 2 "
         "usage.\n";
}

} // namespace scan_app
