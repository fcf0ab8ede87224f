#include "judge_option_table.h"

#include <cstdint>
#include <iostream>
#include <sstream>

#include "common/cli.h"
#include "scenes/scene.h"

namespace judge_app {

namespace {

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

judge::MemoryKind parse_memory(const std::string& text) {
  if (text == "host") return judge::MemoryKind::kHost;
  if (text == "device") return judge::MemoryKind::kDevice;
  throw common::UsageError("--memory: '" + text + "' (valid: host, device)");
}

std::int64_t parse_memory_limit(const char* text) {
  const std::int64_t mib = common::parse_int(text, "--memory-limit", 0, 1LL << 24);
  if (mib > 0 && mib < 64) throw common::UsageError("--memory-limit: 0 (none) or at least 64 MiB");
  return mib;
}

// Whole seconds from 1 to `most`.
double seconds(const char* text, const char* option, std::int64_t most) {
  return static_cast<double>(common::parse_int(text, option, 1, most));
}

bool list_scenes() {
  for (const std::string& name : scenes::scene_names()) std::cout << name << "\n";
  return false;
}

} // namespace

const std::vector<OptionSpec>& option_table() {
  static const std::vector<OptionSpec> table = {
      {"worker", "PATH", "the worker program (required)",
       [](JudgeCommand&, ParseState& s, const char* v) {
         s.worker = v;
         return true;
       }},
      {"counts", "LIST",
       "element counts, comma-separated (default: the\n"
       "course's, judge/contract/course.json)",
       [](JudgeCommand& c, ParseState&, const char* v) {
         c.counts = parse_counts(v);
         return true;
       }},
      {"scenes", "LIST",
       "render's scenes, comma-separated (default: the\n"
       "course's)",
       [](JudgeCommand& c, ParseState&, const char* v) {
         c.scenes = parse_scenes(v);
         return true;
       }},
      {"size", "N", "render's image side (default: the course's)",
       [](JudgeCommand& c, ParseState&, const char* v) {
         c.size = static_cast<int>(common::parse_int(v, "--size", 1, 16384));
         return true;
       }},
      {"runs", "N",
       "timed calls (frames) per row, the best counts\n"
       "(default: the course's)",
       [](JudgeCommand& c, ParseState&, const char* v) {
         c.options.runs = static_cast<int>(common::parse_int(v, "--runs", 1, 100));
         return true;
       }},
      {"memory", "host|device",
       "where the shared arrays live (default device; host is\n"
       "for workers built on host code, as the tests do)",
       [](JudgeCommand& c, ParseState&, const char* v) {
         c.options.memory = parse_memory(v);
         return true;
       }},
      {"log-dir", "DIR",
       "the worker's output, one log per row (default: a new\n"
       "folder under /tmp, named on stderr)",
       [](JudgeCommand& c, ParseState&, const char* v) {
         c.options.log_dir = v;
         return true;
       }},
      {"hide", "PATH",
       "a file or folder the worker must not see (repeatable;\n"
       "the worker's view lists only the system's libraries,\n"
       "its own program and its GPU, so this matters only\n"
       "for paths under /usr or a library folder)",
       [](JudgeCommand& c, ParseState&, const char* v) {
         c.options.sandbox.hide.push_back(absolute(v, "--hide"));
         return true;
       }},
      {"unsandboxed", nullptr,
       "run the worker without bubblewrap (own work only: rows\n"
       "say \"unsandboxed\")",
       [](JudgeCommand& c, ParseState&, const char*) {
         c.options.sandbox.unsandboxed = true;
         return true;
       }},
      {"bwrap", "PATH", "bubblewrap (default bwrap on PATH)",
       [](JudgeCommand& c, ParseState&, const char* v) {
         c.options.sandbox.bwrap = v;
         return true;
       }},
      {"call-timeout", "SEC", "longest wait for one answer (default 10)",
       [](JudgeCommand& c, ParseState&, const char* v) {
         c.options.call_timeout_s = seconds(v, "--call-timeout", 3600);
         return true;
       }},
      {"start-timeout", "SEC", "longest wait for the worker to be ready (default 60)",
       [](JudgeCommand& c, ParseState&, const char* v) {
         c.options.start_timeout_s = seconds(v, "--start-timeout", 3600);
         return true;
       }},
      {"output-limit", "BYTES", "most the worker may print (default 1048576)",
       [](JudgeCommand& c, ParseState&, const char* v) {
         c.options.sandbox.output_limit_bytes =
             common::parse_int(v, "--output-limit", 4096, 1LL << 40);
         return true;
       }},
      {"memory-limit", "MIB",
       "the worker's host memory limit: its data, and in a\n"
       "memory cgroup where one can be made all it maps,\n"
       "shared memory included (default 16384; 0: none,\n"
       "e.g. for workers built with AddressSanitizer, whose\n"
       "shadow memory counts as data)",
       [](JudgeCommand& c, ParseState&, const char* v) {
         c.options.sandbox.memory_limit_mib = parse_memory_limit(v);
         return true;
       }},
      {"max-processes", "N",
       "tasks the worker may have, threads included: its own\n"
       "pids cgroup where one can be made (default 256)",
       [](JudgeCommand& c, ParseState&, const char* v) {
         c.options.sandbox.max_processes =
             static_cast<int>(common::parse_int(v, "--max-processes", 8, 100000));
         return true;
       }},
      {"gpu-memory-limit", "MIB",
       "the most of the GPU's memory a graded worker beside\n"
       "a reference may hold (default 16384; 0: no bound);\n"
       "more, seen once it is ready or after a call, rejects\n"
       "the row. The reference's calls have theirs held for\n"
       "them by the judge meanwhile",
       [](JudgeCommand& c, ParseState&, const char* v) {
         c.options.gpu_memory_limit_mib = common::parse_int(v, "--gpu-memory-limit", 0, 1LL << 24);
         return true;
       }},
      {"allow-every-gpu", nullptr,
       "grade where the judge cannot bind its GPU's device\n"
       "node alone, so the worker sees every GPU of the\n"
       "machine (your own machine only; without it the\n"
       "judge refuses, as a class must)",
       [](JudgeCommand& c, ParseState&, const char*) {
         c.allow_every_gpu = true;
         return true;
       }},
      {"time-limit", "SEC",
       "the judge's time: a row not done by then is\n"
       "rejected (\"time limit\"), as is every row after it;\n"
       "the rows done keep their grades (default: none)",
       [](JudgeCommand& c, ParseState&, const char* v) {
         c.time_limit_s = seconds(v, "--time-limit", 1LL << 31);
         return true;
       }},
      {"pause-by-signals", nullptr,
       "hold a worker still with SIGSTOP, as where no freezer\n"
       "cgroup can be made (default: its own freezer cgroup\n"
       "where one can be made; the header says which)",
       [](JudgeCommand& c, ParseState&, const char*) {
         c.options.sandbox.pause_by_signals = true;
         return true;
       }},
      {"seed", "N",
       "seed of the inputs' seeds (default: drawn afresh);\n"
       "the inputs come from it and the secret together",
       [](JudgeCommand& c, ParseState&, const char* v) {
         c.options.seed =
             static_cast<std::uint64_t>(common::parse_int(v, "--seed", 1, 9223372036854775807LL));
         return true;
       }},
      {"secret-file", "FILE",
       "the grader's secret (at least 16 bytes, kept where\n"
       "no worker can read it): the same seed and secret\n"
       "give the same inputs, for a regrade. Without it a\n"
       "fresh secret is drawn, so a seed reproduces nothing\n"
       "and a worker that knows it predicts nothing",
       [](JudgeCommand& c, ParseState&, const char* v) {
         c.secret_file = absolute(v, "--secret-file");
         return true;
       }},
      {"reference-worker", "PATH",
       "scan, find_repeats, render: time this worker (the\n"
       "reference; render: trusted, only its frame timed)\n"
       "interleaved with the graded one: both alive, each\n"
       "pair of calls (frames) on one input, the order\n"
       "alternating, each held still while the other is\n"
       "timed, at least --runs pairs and then more, up to\n"
       "the contract's max_runs, until the score is steady\n"
       "at the medians' times. Prints a row\n"
       "\"reference:TEST\" before each graded row, which\n"
       "carries the score (the fields of judge score) and\n"
       "\"stable\"",
       [](JudgeCommand& c, ParseState&, const char* v) {
         c.reference_worker = absolute(v, "--reference-worker");
         return true;
       }},
      {"trusted-untimed", nullptr,
       "render: never charge the load and the read-back (for\n"
       "our own reference workers: their frame is what the\n"
       "course times)",
       [](JudgeCommand& c, ParseState&, const char*) {
         c.trusted_untimed = true;
         return true;
       }},
      {"rows", "FILE",
       "also write the rows to FILE as JSON lines, one object\n"
       "a row with the fields named below (test, item,\n"
       "status, best_ms, median_ms, empty_ms, charged_ms,\n"
       "runs, reason): what scripts read. With\n"
       "--reference-worker each row has role (reference\n"
       "or graded), and a graded row the fields of judge\n"
       "score (part, ref_ms, score, max_score, score_low,\n"
       "score_high, speedup) and stable",
       [](JudgeCommand& c, ParseState&, const char* v) {
         c.rows_file = v;
         return true;
       }},
      {"rows-table", "FILE",
       "also write the rows to FILE as a table: a header\n"
       "line of the column names (the fields above, in\n"
       "that order: test, item, status, best_ms,\n"
       "median_ms, empty_ms, charged_ms, runs, reason,\n"
       "role, ref_ms, score, max_score, score_low,\n"
       "score_high, speedup, stable), then one\n"
       "tab-separated line a row, an empty cell where a\n"
       "row has no such field or it is null",
       [](JudgeCommand& c, ParseState&, const char* v) {
         c.rows_table_file = v;
         return true;
       }},
      {"list-scenes", nullptr, "print the scenes render takes, one a line, and stop",
       [](JudgeCommand&, ParseState&, const char*) { return list_scenes(); }},
  };
  return table;
}

std::string options_help() {
  // The value's column starts at 24; a longer name pushes its first line
  // two spaces past it, and later lines keep the column.
  const std::string indent(24, ' ');
  std::string text;
  for (const OptionSpec& o : option_table()) {
    std::string left = std::string("  --") + o.name + (o.value ? std::string(" ") + o.value : "");
    left += std::string(left.size() < 22 ? 24 - left.size() : 2, ' ');
    std::stringstream lines(o.help);
    std::string line;
    bool first = true;
    while (std::getline(lines, line)) {
      text += (first ? left : indent) + line + "\n";
      first = false;
    }
  }
  return text;
}

} // namespace judge_app
