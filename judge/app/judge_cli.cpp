#include "judge_cli.h"

#include <getopt.h>
#include <stdlib.h>

#include <algorithm>
#include <iostream>
#include <sstream>

#include "common/cli.h"
#include "scenes/scene.h"

namespace judge_app {

const char kJudgeUsage[] = R"(Usage: judge [options] --worker PATH TEST...
       judge score ...     (a row's score by the course's rules: judge score --help)
       judge results ...   (Gradescope's results.json from a grade.sh log folder:
                           judge results --help)
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
  --counts LIST         element counts, comma-separated (default: the
                        course's, judge/contract/course.json)
  --scenes LIST         render's scenes, comma-separated (default: the
                        course's)
  --size N              render's image side (default: the course's)
  --runs N              timed calls (frames) per row, the best counts
                        (default: the course's)
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
  --max-processes N     tasks the worker may have, threads included: its own
                        pids cgroup where one can be made (default 256)
  --gpu-memory-limit MIB  the most of the GPU's memory a graded worker beside
                        a reference may hold (default 16384; 0: no bound);
                        more, seen once it is ready or after a call, rejects
                        the row. The reference's calls have theirs held for
                        them by the judge meanwhile
  --allow-every-gpu     grade where the judge cannot bind its GPU's device
                        node alone, so the worker sees every GPU of the
                        machine (your own machine only; without it the
                        judge refuses, as a class must)
  --time-limit SEC      the judge's time: a row not done by then is
                        rejected ("time limit"), as is every row after it;
                        the rows done keep their grades (default: none)
  --pause-by-signals    hold a worker still with SIGSTOP, as where no freezer
                        cgroup can be made (default: its own freezer cgroup
                        where one can be made; the header says which)
  --seed N              seed of the inputs' seeds (default: drawn afresh);
                        the inputs come from it and the secret together
  --secret-file FILE    the grader's secret (at least 16 bytes, kept where
                        no worker can read it): the same seed and secret
                        give the same inputs, for a regrade. Without it a
                        fresh secret is drawn, so a seed reproduces nothing
                        and a worker that knows it predicts nothing
  --reference-worker PATH  scan, find_repeats, render: time this worker (the
                        reference; render: trusted, only its frame timed)
                        interleaved with the graded one: both alive, each
                        pair of calls (frames) on one input, the order
                        alternating, each held still while the other is
                        timed, at least --runs pairs and then more, up to
                        the contract's max_runs, until the score is steady
                        at the medians' times. Prints a row
                        "reference:TEST" before each graded row, which
                        carries the score (the fields of judge score) and
                        "stable"
  --trusted-untimed     render: never charge the load and the read-back (for
                        our own reference workers: their frame is what the
                        course times)
  --rows FILE           also write the rows to FILE as JSON lines, one object
                        a row with the fields named below (test, item,
                        status, best_ms, median_ms, empty_ms, charged_ms,
                        runs, reason): what scripts read. With
                        --reference-worker each row has role (reference
                        or graded), and a graded row the fields of judge
                        score (part, ref_ms, score, max_score, score_low,
                        score_high, speedup) and stable
  --rows-table FILE     also write the rows to FILE as a table: a header
                        line of the column names (the fields above, in
                        that order: test, item, status, best_ms,
                        median_ms, empty_ms, charged_ms, runs, reason,
                        role, ref_ms, score, max_score, score_low,
                        score_high, speedup, stable), then one
                        tab-separated line a row, an empty cell where a
                        row has no such field or it is null
  --list-scenes         print the scenes render takes, one a line, and stop
  -h, --help            this text
Output: '#' lines, then per row: test, n (render: the scene), status (ok
or rejected), best ms, median ms, empty round trip ms, the most work charged
to one call (GPU work seen running after an answer; for render also load
and read-back beyond their allowance; included in the times), timed calls,
reason. Exit status 0 when every row is ok, 1 when any is rejected or the
judge failed, 2 on usage errors.
)";

namespace {

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
  kPauseBySignals,
  kSeed,
  kScenes,
  kSize,
  kListScenes,
  kTrustedUntimed,
  kSecretFile,
  kRows,
  kRowsTable,
  kReferenceWorker,
  kGpuMemoryLimit,
  kAllowEveryGpu,
  kTimeLimit
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

} // namespace

std::string absolute(const std::string& path, const char* option) {
  char* real = realpath(path.c_str(), nullptr);
  if (!real) throw common::UsageError(std::string(option) + ": no such file or folder: " + path);
  std::string out = real;
  free(real);
  return out;
}

std::optional<JudgeCommand> parse_command_line(int argc, char** argv) {
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
                                 {"pause-by-signals", no_argument, nullptr, kPauseBySignals},
                                 {"seed", required_argument, nullptr, kSeed},
                                 {"trusted-untimed", no_argument, nullptr, kTrustedUntimed},
                                 {"secret-file", required_argument, nullptr, kSecretFile},
                                 {"scenes", required_argument, nullptr, kScenes},
                                 {"size", required_argument, nullptr, kSize},
                                 {"list-scenes", no_argument, nullptr, kListScenes},
                                 {"rows", required_argument, nullptr, kRows},
                                 {"rows-table", required_argument, nullptr, kRowsTable},
                                 {"reference-worker", required_argument, nullptr, kReferenceWorker},
                                 {"gpu-memory-limit", required_argument, nullptr, kGpuMemoryLimit},
                                 {"allow-every-gpu", no_argument, nullptr, kAllowEveryGpu},
                                 {"time-limit", required_argument, nullptr, kTimeLimit},
                                 {"help", no_argument, nullptr, 'h'},
                                 {nullptr, 0, nullptr, 0}};
  JudgeCommand command;
  judge::JudgeOptions& opt = command.options;
  std::vector<std::int64_t>& counts = command.counts;
  std::vector<std::string>& scene_list = command.scenes;
  std::string worker;
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
    case kPauseBySignals:
      opt.sandbox.pause_by_signals = true;
      break;
    case kGpuMemoryLimit:
      opt.gpu_memory_limit_mib = common::parse_int(optarg, "--gpu-memory-limit", 0, 1LL << 24);
      break;
    case kAllowEveryGpu:
      command.allow_every_gpu = true;
      break;
    case kTimeLimit:
      command.time_limit_s =
          static_cast<double>(common::parse_int(optarg, "--time-limit", 1, 1LL << 31));
      break;
    case kScenes:
      scene_list = parse_scenes(optarg);
      break;
    case kSize:
      command.size = static_cast<int>(common::parse_int(optarg, "--size", 1, 16384));
      break;
    case kListScenes:
      for (const std::string& name : scenes::scene_names()) std::cout << name << "\n";
      return std::nullopt;
    case kSeed:
      opt.seed =
          static_cast<std::uint64_t>(common::parse_int(optarg, "--seed", 1, 9223372036854775807LL));
      break;
    case kTrustedUntimed:
      command.trusted_untimed = true;
      break;
    case kSecretFile:
      command.secret_file = absolute(optarg, "--secret-file");
      break;
    case kReferenceWorker:
      command.reference_worker = absolute(optarg, "--reference-worker");
      break;
    case kRows:
      command.rows_file = optarg;
      break;
    case kRowsTable:
      command.rows_table_file = optarg;
      break;
    case 'h':
      std::cout << kJudgeUsage;
      return std::nullopt;
    default: // "-?" asks for help, anything else is a usage error
      if (common::getopt_help_or_throw(c, argv, kLong)) std::cout << kJudgeUsage;
      return std::nullopt;
    }
  }
  std::vector<judge::ScanTest>& tests = command.scan_tests;
  bool& render_test = command.render;
  bool& saxpy_test = command.saxpy;
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
  if (!command.reference_worker.empty() && saxpy_test)
    throw common::UsageError("--reference-worker is for scan, find_repeats and render");
  if (!command.reference_worker.empty() && command.trusted_untimed)
    throw common::UsageError("--reference-worker grades a worker: leave out --trusted-untimed");
  if (worker.empty()) throw common::UsageError("--worker is required");
  opt.worker = absolute(worker, "--worker");
  return command;
}

} // namespace judge_app
