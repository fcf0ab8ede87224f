#include "judge_cli.h"

#include <getopt.h>
#include <stdlib.h>

#include <algorithm>
#include <iostream>
#include <vector>

#include "common/cli.h"
#include "judge_option_table.h"
#include "scenes/scene.h"

namespace judge_app {

namespace {

const char kUsageHead[] = R"(Usage: judge [options] --worker PATH TEST...
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
)";

const char kUsageTail[] = R"(  -h, --help            this text
Output: '#' lines, then per row: test, n (render: the scene), status (ok
or rejected), best ms, median ms, empty round trip ms, the most work charged
to one call (GPU work seen running after an answer; for render also load
and read-back beyond their allowance; included in the times), timed calls,
reason. Exit status 0 when every row is ok, 1 when any is rejected or the
judge failed, 2 on usage errors.
)";

} // namespace

std::string judge_usage() {
  return kUsageHead + std::string("Options:\n") + options_help() + kUsageTail;
}

std::string absolute(const std::string& path, const char* option) {
  char* real = realpath(path.c_str(), nullptr);
  if (!real) throw common::UsageError(std::string(option) + ": no such file or folder: " + path);
  std::string out = real;
  free(real);
  return out;
}

std::optional<JudgeCommand> parse_command_line(int argc, char** argv) {
  // getopt's table from the judge's: option i returns kFirst + i.
  constexpr int kFirst = 1000;
  const std::vector<OptionSpec>& table = option_table();
  std::vector<option> longs;
  for (const OptionSpec& o : table)
    longs.push_back({o.name, o.value ? required_argument : no_argument, nullptr,
                     kFirst + static_cast<int>(longs.size())});
  longs.push_back({"help", no_argument, nullptr, 'h'});
  longs.push_back({nullptr, 0, nullptr, 0});
  JudgeCommand command;
  ParseState state;
  opterr = 0;
  int c;
  while ((c = getopt_long(argc, argv, ":h?", longs.data(), nullptr)) != -1) {
    if (c >= kFirst && c < kFirst + static_cast<int>(table.size())) {
      if (!table[static_cast<std::size_t>(c - kFirst)].apply(command, state, optarg))
        return std::nullopt;
    } else if (c == 'h' || common::getopt_help_or_throw(c, argv, longs.data())) {
      // "-?" asks for help too; anything else threw a usage error.
      std::cout << judge_usage();
      return std::nullopt;
    }
  }
  judge::JudgeOptions& opt = command.options;
  std::vector<std::int64_t>& counts = command.counts;
  std::vector<std::string>& scene_list = command.scenes;
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
  if (state.worker.empty()) throw common::UsageError("--worker is required");
  opt.worker = absolute(state.worker, "--worker");
  return command;
}

} // namespace judge_app
