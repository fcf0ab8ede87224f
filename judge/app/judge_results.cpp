#include "judge_results.h"

#include <fcntl.h>
#include <getopt.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <optional>
#include <regex>
#include <stdexcept>
#include <string>
#include <utility>

#include "common/cli.h"
#include "log_tables.h"
#include "results_json.h"

namespace judge_app {

const char kResultsUsage[] =
    R"(Usage: judge results [--execution-time SECONDS] LOG_DIR FILE
Writes Gradescope's autograder results.json (its "Autograder
Specifications", section "Output format") to FILE from a grade.sh log
folder: one test per row of LOG_DIR/scores.tsv (name, score, max_score,
status, output), and one test scoring 0 per row of LOG_DIR/not_graded.tsv
(a part that could not be graded, out of the points it could still have
scored, its reason as the output), so the student sees why and the
total's maximum is the assignment's. Each table's columns are found by the
names on its first line. Any bytes a log holds come out as valid JSON
(bytes that are not UTF-8 as U+FFFD). FILE is written beside itself and
then renamed: never a partial file.
Options:
  --execution-time SECONDS  the grade's time, a whole number (up to 9 digits)
  -h, --help                this text
Exit status: 0 written, 1 the log folder holds no scores.tsv or FILE cannot
be written, 2 usage.
)";

namespace {

enum Long { kExecutionTime = 1000 };

bool is_file(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool is_folder(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// The folder `path` is in, as dirname(1) says it.
std::string folder_of(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// FILE written atomically: a new file beside it (made before the logs are
// read, as the script this replaces did), renamed over it once whole; removed
// when it is not.
class AtomicFile {
public:
  explicit AtomicFile(std::string file) : file_(std::move(file)) {
    // rename would not replace a folder, and mv would put the file inside.
    if (is_folder(file_)) throw std::runtime_error("'" + file_ + "' is a folder, not a file");
    temp_ = folder_of(file_) + "/.results.XXXXXX";
    fd_ = mkstemp(temp_.data());
    if (fd_ < 0) throw std::runtime_error("cannot write in the folder of '" + file_ + "'");
  }
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  ~AtomicFile() {
    if (fd_ >= 0) close(fd_);
    if (!temp_.empty()) unlink(temp_.c_str());
  }

  void commit(const std::string& text) {
    std::size_t done = 0;
    while (done < text.size()) {
      const ssize_t n = write(fd_, text.data() + done, text.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      done += std::size_t(n);
    }
    int error = done == text.size() ? 0 : (errno != 0 ? errno : EIO);
    if (close(fd_) != 0 && error == 0) error = errno;
    fd_ = -1;
    if (error == 0 && std::rename(temp_.c_str(), file_.c_str()) != 0) error = errno;
    if (error != 0)
      throw std::runtime_error("cannot write '" + file_ + "': " + std::strerror(error));
    temp_.clear();
  }

private:
  std::string file_, temp_;
  int fd_ = -1;
};

} // namespace

int run_results(int argc, char** argv) {
  static const option kLong[] = {{"execution-time", required_argument, nullptr, kExecutionTime},
                                 {"help", no_argument, nullptr, 'h'},
                                 {nullptr, 0, nullptr, 0}};
  std::optional<long> execution_time;
  optind = 1;
  int c;
  opterr = 0; // getopt_help_or_throw says what is wrong, in one line
  while ((c = getopt_long(argc, argv, ":h?", kLong, nullptr)) != -1) {
    switch (c) {
    case kExecutionTime:
      if (!std::regex_match(optarg, std::regex("[0-9]{1,9}")))
        throw common::UsageError(std::string("--execution-time: '") + optarg +
                                 "' is not a whole number of seconds");
      execution_time = std::stol(optarg);
      break;
    case 'h':
      std::cout << kResultsUsage;
      return 0;
    default:
      if (common::getopt_help_or_throw(c, argv, kLong)) std::cout << kResultsUsage;
      return 0;
    }
  }
  if (argc - optind != 2) throw common::UsageError("needs LOG_DIR and FILE");
  const std::string log_dir = argv[optind], file = argv[optind + 1];
  if (!is_file(log_dir + "/scores.tsv"))
    throw std::runtime_error(log_dir + " holds no scores.tsv (is it a grade.sh log folder?)");
  AtomicFile out(file);
  // No not_graded.tsv: every part was graded.
  const std::string not_graded = log_dir + "/not_graded.tsv";
  const Table skipped =
      split_table(is_file(not_graded) ? read_as_jq(not_graded) : "", "not_graded.tsv");
  const Table scores = split_table(read_as_jq(log_dir + "/scores.tsv"), "scores.tsv");
  out.commit(gradescope_results(score_rows(scores), not_graded_rows(skipped), execution_time));
  std::cout << "Gradescope results: " << file << "\n";
  return 0;
}

} // namespace judge_app
