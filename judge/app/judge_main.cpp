// judge: grades a scan or render worker from outside it. Prints one
// tab-separated row per test and size (scene): the judge's own times of the
// timed calls (each on a fresh input, each checked) and, for a rejected row,
// the reason.
#include <cuda_runtime_api.h>
#include <getopt.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "common/cli.h"
#include "common/cuda_check.h"
#include "common/device.h"
#include "judge/render_judge.h"
#include "judge/saxpy_judge.h"
#include "judge/scan_judge.h"
#include "judge/seeds.h"
#include "judge/session.h"
#include "scenes/scene.h"

namespace {

constexpr char kProgram[] = "judge";

constexpr char kUsage[] = R"(Usage: judge [options] --worker PATH TEST...
Grades the worker PATH (our worker main around the code under test) from a
separate, trusted process: runs it in a sandbox, gives each timed call a fresh
random input, times each call from request to answer, and checks each
call's output against the serial reference. TEST: scan, find_repeats (a
scan worker); saxpy (a saxpy worker: per count a row of the course's whole
trip, host arrays in and out, and one of the kernel alone on device arrays,
each call on a fresh input and a fresh a; with device memory first a row
"memcpy" of the judge's own device-to-device copy of one array, n in
bytes); render (a render worker: each timed frame a new variant of the
scene, set up after a decoy, its image checked; its load and read-back
beyond what the judge's empty renderer takes for them in the same run are
charged to the frame, and each frame's costs go to LOG_DIR/judge-render-
SCENE.tsv, the empty renderer's to judge-render-SCENE.empty.tsv).
Options:
  --worker PATH         the worker program (required)
  --counts LIST         element counts, comma-separated
                        (default 1000000,10000000,20000000,40000000)
  --scenes LIST         render's scenes, comma-separated (default
                        rgb,rand10k,rand100k,pattern,snowsingle,biglittle,rand1M,micro2M)
  --size N              render's image side (default 1024)
  --runs N              timed calls (frames) per row, the best counts
                        (default 3)
  --memory host|device  where the shared arrays live (default device; host is
                        for workers built on host code, as the tests do)
  --log-dir DIR         the worker's output, one log per row (default: a new
                        folder under /tmp, named on stderr)
  --hide PATH           a file or folder the worker must not see (repeatable;
                        the worker's view lists only the system's libraries,
                        its own program and its GPU, so this matters only
                        for paths under /usr or a library folder)
  --unsandboxed         run the worker without bubblewrap (own work only: rows
                        say "unsandboxed")
  --bwrap PATH          bubblewrap (default bwrap on PATH)
  --call-timeout SEC    longest wait for one answer (default 10)
  --start-timeout SEC   longest wait for the worker to be ready (default 60)
  --output-limit BYTES  most the worker may print (default 1048576)
  --memory-limit MIB    the worker's host memory limit: its data, and in a
                        memory cgroup where one can be made all it maps,
                        shared memory included (default 16384; 0: none,
                        e.g. for workers built with AddressSanitizer, whose
                        shadow memory counts as data)
  --max-processes N     tasks the worker may add, threads included (default 256)
  --seed N              seed of the inputs' seeds (default: drawn afresh);
                        the inputs come from it and the secret together
  --secret-file FILE    the grader's secret (at least 16 bytes, kept where
                        no worker can read it): the same seed and secret
                        give the same inputs, for a regrade. Without it a
                        fresh secret is drawn, so a seed reproduces nothing
                        and a worker that knows it predicts nothing
  --trusted-untimed     render: never charge the load and the read-back (for
                        our own reference workers: their frame is what the
                        course times)
  --list-scenes         print the scenes render takes, one a line, and stop
  -h, --help            this text
Output: '#' lines, then per row: test, n (render: the scene), status (ok
or rejected), best ms, median ms, empty round trip ms, the most work charged
to one call (GPU work seen running after an answer; for render also load
and read-back beyond their allowance; included in the times), timed calls,
reason. Exit status 0 when every row is ok, 1 when any is rejected or the
judge failed, 2 on usage errors.
)";

enum Long {
  kWorker = 1000,
  kCounts,
  kRuns,
  kMemory,
  kLogDir,
  kHide,
  kUnsandboxed,
  kBwrap,
  kCallTimeout,
  kStartTimeout,
  kOutputLimit,
  kMemoryLimit,
  kMaxProcesses,
  kSeed,
  kScenes,
  kSize,
  kListScenes,
  kTrustedUntimed,
  kSecretFile
};

std::vector<std::int64_t> parse_counts(const std::string& text) {
  std::vector<std::int64_t> counts;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ','))
    counts.push_back(common::parse_int(item, "--counts", 1, 2147483647));
  if (counts.empty()) throw common::UsageError("--counts: no count given");
  return counts;
}

std::vector<std::string> parse_scenes(const std::string& text) {
  std::vector<std::string> names;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item.empty()) throw common::UsageError("--scenes: an empty scene name");
    names.push_back(item);
  }
  if (names.empty()) throw common::UsageError("--scenes: no scene given");
  return names;
}

std::string absolute(const std::string& path, const char* option) {
  char* real = realpath(path.c_str(), nullptr);
  if (!real) throw common::UsageError(std::string(option) + ": no such file or folder: " + path);
  std::string out = real;
  free(real);
  return out;
}

std::string field(std::string text) {
  for (char& c : text)
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  return text;
}

// One row of the output (see kUsage).
void print_row(const std::string& test, const std::string& item, bool correct,
               const std::vector<double>& times, double empty_ms, double charged_ms,
               const std::string& reason, bool sandboxed) {
  std::cout << std::fixed << std::setprecision(4) << test << '\t' << item << '\t'
            << (correct ? "ok" : "rejected") << '\t';
  if (correct)
    std::cout << judge::best_of(times) << '\t' << judge::median_of(times);
  else
    std::cout << "-\t-";
  std::cout << '\t' << empty_ms << '\t' << charged_ms << '\t' << times.size() << '\t'
            << field(reason.empty() && !sandboxed ? "unsandboxed" : reason) << std::endl;
}

// The worker's log folder: --log-dir, hidden from the worker, or a new one.
void prepare_log_dir(judge::ScanJudgeOptions& opt) {
  if (!opt.log_dir.empty()) {
    struct stat st {};
    if (stat(opt.log_dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
      throw common::UsageError("--log-dir: no such folder: " + opt.log_dir);
    // Its own and the other rows' logs are none of the worker's business
    // (a folder of our own under /tmp is out of its sight already).
    opt.log_dir = absolute(opt.log_dir, "--log-dir");
    opt.sandbox.hide.push_back(opt.log_dir);
  }
}

void make_log_dir(judge::ScanJudgeOptions& opt) {
  if (!opt.log_dir.empty()) return;
  char name[] = "/tmp/judge-XXXXXX";
  if (!mkdtemp(name)) throw std::runtime_error("cannot make a log folder under /tmp");
  opt.log_dir = name;
  std::cerr << "judge: the worker's logs go to " << opt.log_dir << "\n";
}

// The worker's GPU, and no other, in its view (device memory only).
void bind_gpu(judge::ScanJudgeOptions& opt) {
  if (opt.memory != judge::MemoryKind::kDevice) return;
  common::require_cuda_device();
  int device = 0;
  char bus_id[32] = {};
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, device));
  opt.sandbox.device_nodes = judge::gpu_device_nodes(bus_id, &opt.sandbox.one_gpu);
}

std::string sandbox_header(const judge::ScanJudgeOptions& opt, const judge::SandboxPlan& plan) {
  const std::string how =
      plan.sandboxed ? std::string("bubblewrap") + (plan.drop_to_nobody ? ", as nobody" : "")
                     : "unsandboxed";
  std::string text = "# judge: worker " + opt.worker + "; sandbox: " + how +
                     (plan.limits_note.empty() ? "" : "; " + plan.limits_note) + "; memory " +
                     judge::memory_name(opt.memory);
  if (plan.sandboxed && opt.memory == judge::MemoryKind::kDevice)
    text += opt.sandbox.one_gpu
                ? "; the worker sees one GPU"
                : "; the worker sees every GPU (the judge's could not be told apart)";
  return text;
}

int run(int argc, char** argv) {
  static const option kLong[] = {{"worker", required_argument, nullptr, kWorker},
                                 {"counts", required_argument, nullptr, kCounts},
                                 {"runs", required_argument, nullptr, kRuns},
                                 {"memory", required_argument, nullptr, kMemory},
                                 {"log-dir", required_argument, nullptr, kLogDir},
                                 {"hide", required_argument, nullptr, kHide},
                                 {"unsandboxed", no_argument, nullptr, kUnsandboxed},
                                 {"bwrap", required_argument, nullptr, kBwrap},
                                 {"call-timeout", required_argument, nullptr, kCallTimeout},
                                 {"start-timeout", required_argument, nullptr, kStartTimeout},
                                 {"output-limit", required_argument, nullptr, kOutputLimit},
                                 {"memory-limit", required_argument, nullptr, kMemoryLimit},
                                 {"max-processes", required_argument, nullptr, kMaxProcesses},
                                 {"seed", required_argument, nullptr, kSeed},
                                 {"trusted-untimed", no_argument, nullptr, kTrustedUntimed},
                                 {"secret-file", required_argument, nullptr, kSecretFile},
                                 {"scenes", required_argument, nullptr, kScenes},
                                 {"size", required_argument, nullptr, kSize},
                                 {"list-scenes", no_argument, nullptr, kListScenes},
                                 {"help", no_argument, nullptr, 'h'},
                                 {nullptr, 0, nullptr, 0}};
  judge::ScanJudgeOptions opt;
  bool trusted_untimed = false;
  std::vector<std::int64_t> counts = {1000000, 10000000, 20000000, 40000000};
  std::vector<std::string> scene_list = {"rgb",        "rand10k",   "rand100k", "pattern",
                                         "snowsingle", "biglittle", "rand1M",   "micro2M"};
  int size = 1024;
  std::string worker, secret_file;
  opterr = 0;
  int c;
  while ((c = getopt_long(argc, argv, ":h?", kLong, nullptr)) != -1) {
    switch (c) {
    case kWorker:
      worker = optarg;
      break;
    case kCounts:
      counts = parse_counts(optarg);
      break;
    case kRuns:
      opt.runs = static_cast<int>(common::parse_int(optarg, "--runs", 1, 100));
      break;
    case kMemory:
      if (std::string(optarg) == "host")
        opt.memory = judge::MemoryKind::kHost;
      else if (std::string(optarg) == "device")
        opt.memory = judge::MemoryKind::kDevice;
      else
        throw common::UsageError(std::string("--memory: '") + optarg + "' (valid: host, device)");
      break;
    case kLogDir:
      opt.log_dir = optarg;
      break;
    case kHide:
      opt.sandbox.hide.push_back(absolute(optarg, "--hide"));
      break;
    case kUnsandboxed:
      opt.sandbox.unsandboxed = true;
      break;
    case kBwrap:
      opt.sandbox.bwrap = optarg;
      break;
    case kCallTimeout:
      opt.call_timeout_s =
          static_cast<double>(common::parse_int(optarg, "--call-timeout", 1, 3600));
      break;
    case kStartTimeout:
      opt.start_timeout_s =
          static_cast<double>(common::parse_int(optarg, "--start-timeout", 1, 3600));
      break;
    case kOutputLimit:
      opt.sandbox.output_limit_bytes = common::parse_int(optarg, "--output-limit", 4096, 1LL << 40);
      break;
    case kMemoryLimit:
      opt.sandbox.memory_limit_mib = common::parse_int(optarg, "--memory-limit", 0, 1LL << 24);
      if (opt.sandbox.memory_limit_mib > 0 && opt.sandbox.memory_limit_mib < 64)
        throw common::UsageError("--memory-limit: 0 (none) or at least 64 MiB");
      break;
    case kMaxProcesses:
      opt.sandbox.max_processes =
          static_cast<int>(common::parse_int(optarg, "--max-processes", 8, 100000));
      break;
    case kScenes:
      scene_list = parse_scenes(optarg);
      break;
    case kSize:
      size = static_cast<int>(common::parse_int(optarg, "--size", 1, 16384));
      break;
    case kListScenes:
      for (const std::string& name : scenes::scene_names()) std::cout << name << "\n";
      return 0;
    case kSeed:
      opt.seed =
          static_cast<std::uint64_t>(common::parse_int(optarg, "--seed", 1, 9223372036854775807LL));
      break;
    case kTrustedUntimed:
      trusted_untimed = true;
      break;
    case kSecretFile:
      secret_file = absolute(optarg, "--secret-file");
      break;
    case 'h':
      std::cout << kUsage;
      return 0;
    default: // "-?" asks for help, anything else is a usage error
      if (common::getopt_help_or_throw(c, argv, kLong)) std::cout << kUsage;
      return 0;
    }
  }
  std::vector<judge::ScanTest> tests;
  bool render_test = false, saxpy_test = false;
  for (int i = optind; i < argc; ++i) {
    const std::string t = argv[i];
    if (t == "scan")
      tests.push_back(judge::ScanTest::kScan);
    else if (t == "find_repeats")
      tests.push_back(judge::ScanTest::kFindRepeats);
    else if (t == "render")
      render_test = true;
    else if (t == "saxpy")
      saxpy_test = true;
    else
      throw common::UsageError("unknown test '" + t +
                               "' (valid: scan, find_repeats, saxpy, render)");
  }
  if (tests.empty() && !render_test && !saxpy_test)
    throw common::UsageError("no test named (scan, find_repeats, saxpy, render)");
  if (int(render_test) + int(saxpy_test) + int(!tests.empty()) > 1)
    throw common::UsageError("render takes a render worker, saxpy a saxpy worker, scan and "
                             "find_repeats a scan worker: name one kind");
  if (render_test) {
    const std::vector<std::string>& known = scenes::scene_names();
    for (const std::string& name : scene_list)
      if (std::find(known.begin(), known.end(), name) == known.end())
        throw common::UsageError("--scenes: " + scenes::unknown_scene_message(name));
  }
  for (judge::ScanTest test : tests)
    for (std::int64_t n : counts)
      if (test == judge::ScanTest::kFindRepeats && n < 2)
        throw common::UsageError("--counts: find_repeats needs at least 2 elements");
  if (worker.empty()) throw common::UsageError("--worker is required");
  opt.secret = judge::read_secret(secret_file);
  // The secret's file is the worker's to see no more than the logs.
  if (!secret_file.empty()) opt.sandbox.hide.push_back(secret_file);
  opt.worker = absolute(worker, "--worker");
  prepare_log_dir(opt);
  bind_gpu(opt);
  const judge::SandboxPlan plan = judge::plan_sandbox(opt.sandbox);
  make_log_dir(opt);

  // The judge's own workers lie beside its program, as the build puts them.
  const std::string self = absolute("/proc/self/exe", "judge");
  const std::string own_dir = self.substr(0, self.rfind('/') + 1);
  if (opt.memory == judge::MemoryKind::kDevice)
    opt.switch_ms = judge::measure_switch_ms(own_dir + "judge_calibration_worker", opt, plan);
  std::cout << sandbox_header(opt, plan);
  if (opt.memory == judge::MemoryKind::kDevice)
    std::cout << "; probe after a worker " << std::setprecision(4) << opt.switch_ms << " ms";
  std::cout << "\n";
  std::cout << "# test\tn\tstatus\tbest_ms\tmedian_ms\tempty_ms\tcharged_ms\truns\treason\n";
  bool all_ok = true;
  if (render_test) {
    judge::RenderJudgeOptions ropt;
    ropt.worker = opt.worker;
    ropt.memory = opt.memory;
    ropt.log_dir = opt.log_dir;
    ropt.runs = opt.runs;
    ropt.size = size;
    ropt.call_timeout_s = opt.call_timeout_s;
    ropt.start_timeout_s = opt.start_timeout_s;
    ropt.seed = opt.seed;
    ropt.secret = opt.secret;
    ropt.switch_ms = opt.switch_ms;
    ropt.empty_worker =
        own_dir + (opt.memory == judge::MemoryKind::kDevice ? "judge_render_empty"
                                                            : "judge_render_empty_host");
    ropt.charge_untimed = !trusted_untimed;
    ropt.sandbox = opt.sandbox;
    for (const std::string& scene : scene_list) {
      const judge::RenderRow row = judge::judge_render(scene, ropt, plan);
      all_ok = all_ok && row.correct;
      print_row("render", scene, row.correct, row.times_ms, row.empty_ms, row.charged_ms,
                row.reason, plan.sandboxed);
    }
  }
  if (saxpy_test) {
    for (std::int64_t n : counts) {
      if (opt.memory == judge::MemoryKind::kDevice) {
        const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(float);
        print_row("memcpy", std::to_string(bytes), true, {judge::device_copy_ms(bytes)}, 0, 0, "",
                  true);
      }
      for (const judge::SaxpyRow& row : judge::judge_saxpy(n, opt, plan)) {
        all_ok = all_ok && row.correct;
        print_row(row.test, std::to_string(n), row.correct, row.times_ms, row.empty_ms,
                  row.charged_ms, row.reason, plan.sandboxed);
      }
    }
  }
  for (judge::ScanTest test : tests) {
    for (std::int64_t n : counts) {
      const judge::ScanRow row = judge::judge_scan(test, n, opt, plan);
      all_ok = all_ok && row.correct;
      print_row(judge::test_name(test), std::to_string(n), row.correct, row.times_ms, row.empty_ms,
                row.charged_ms, row.reason, plan.sandboxed);
    }
  }
  return all_ok ? 0 : 1;
}

} // namespace

int main(int argc, char** argv) {
  // Workers load every kernel when their CUDA context is made, before they
  // say they are ready, so no timed call pays for loading code. The sandbox
  // passes the variable on.
  common::load_kernels_eagerly();
  return common::run_main(kProgram, [&] { return run(argc, argv); });
}
