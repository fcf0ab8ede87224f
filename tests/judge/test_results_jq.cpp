// `judge results` writes, byte for byte, the results.json the jq program it
// replaced wrote (results_reference.jq, as scripts/gradescope.sh ran it), on
// the log folders in fixtures/results and on generated ones: awkward bytes
// anywhere, a character cut where jq reads a file's pieces, and random rows.
// Skipped without jq (the reference was jq 1.6's output).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "run_program.h"

namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void write(const fs::path& file, const std::string& text) {
  std::ofstream(file, std::ios::binary) << text;
}

class ResultsAsJq : public ::testing::Test {
protected:
  void SetUp() override {
    if (run_program("command -v jq").status != 0)
      GTEST_SKIP() << "SKIPPED: jq is not installed: no reference to compare with";
    char name[] = "/tmp/judge-results-jq-XXXXXX";
    ASSERT_NE(mkdtemp(name), nullptr);
    dir_ = name;
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }

  // Both results.json of `logs`; a failure of either says so in place of
  // its text (where the jq program failed, the judge must fail too).
  void expect_same(const fs::path& logs, const std::string& execution_time = "") {
    const fs::path not_graded =
        fs::exists(logs / "not_graded.tsv") ? logs / "not_graded.tsv" : fs::path("/dev/null");
    const ProgramResult jq =
        run_program("jq -n --rawfile scores '" + (logs / "scores.tsv").string() +
                    "' --rawfile not_graded '" + not_graded.string() + "' --arg execution_time '" +
                    execution_time + "' -f '" + RESULTS_REFERENCE_JQ + "' >'" + dir_ + "/jq.json'");
    const ProgramResult judge =
        run_program(std::string(JUDGE_PATH) + " results " +
                    (execution_time.empty() ? "" : "--execution-time " + execution_time + " ") +
                    "'" + logs.string() + "' '" + dir_ + "/judge.json'");
    ASSERT_EQ(judge.status == 0, jq.status == 0)
        << logs << ": jq: " << jq.output << "judge: " << judge.output;
    if (jq.status == 0) EXPECT_EQ(read(dir_ + "/judge.json"), read(dir_ + "/jq.json")) << logs;
  }

  // A log folder under the test's own, with these tables.
  fs::path logs(const std::string& name, const std::string& scores,
                const std::string* not_graded = nullptr) {
    const fs::path folder = fs::path(dir_) / name;
    fs::create_directories(folder);
    write(folder / "scores.tsv", scores);
    if (not_graded) write(folder / "not_graded.tsv", *not_graded);
    return folder;
  }

  std::string dir_;
};

const char kHeader[] = "part\titem\tseed\treference\tref_ms\tyour_ms\tspeedup\tverdict\tscore\t"
                       "max_score\tround_trip_ms\tnote\n";

TEST_F(ResultsAsJq, OnTheFixtureLogFolders) {
  int folders = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(RESULTS_FIXTURES)) {
    expect_same(entry.path());
    expect_same(entry.path(), "34");
    ++folders;
  }
  EXPECT_GE(folders, 5);
}

TEST_F(ResultsAsJq, NumbersAndShortRows) {
  std::string scores = kHeader;
  for (const char* n : {"0", "5", "2.5", "0.001", "-", "", "0.0000125", "1e5", "007", "1.",
                        "100000000000000000000", "0.30000000000000004"})
    scores += std::string("scan\t") + n + "\t-\tref\t1\t1\t1x\tok\t" + n + "\t" + n + "\t-\t\n";
  scores += "render\tshort\t9\n";
  const std::string skipped = "part\treason\tmax_score\nsaxpy\tno GPU\t-\nscan\tx\n";
  expect_same(logs("numbers", scores, &skipped), "0");
  expect_same(logs("no_columns", "part\titem\tscore\tmax_score\nscan\t1\t1\t1\n"), "999999999");
  expect_same(logs("too_many_cells", "part\tscore\tmax_score\nscan\t1\t1\tx\n"));
  expect_same(logs("no_score", "part\tmax_score\nscan\t1\n"));
  const std::string no_reason = "part\nrender\n";
  expect_same(logs("no_reason", "part\tscore\tmax_score\n", &no_reason));
}

// jq reads a file in 4096-byte pieces, each made valid UTF-8 alone.
TEST_F(ResultsAsJq, CharactersAtThePieceBoundary) {
  const std::string row = "scan\t1\t-\tref\t1\t1\t1x\tok\t1\t1\t-\t";
  int n = 0;
  for (const std::string cut : {"\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xe2\x82", "\xff", "\xc3",
                                "\xf0\x9f\x98\n", "\xed\xa0\x80", "\x80\x80"}) {
    for (std::size_t at = 4093; at <= 4098; ++at) {
      const std::string head = kHeader + row;
      const std::string text = head + std::string(at - head.size(), 'x') + cut + "yy\n";
      expect_same(logs("cut" + std::to_string(n++), text));
      expect_same(logs("cut" + std::to_string(n++), text.substr(0, at + cut.size() - 1)));
    }
  }
}

TEST_F(ResultsAsJq, RandomRowsOfAwkwardBytes) {
  const std::vector<std::string> pieces = {"a",
                                           " ",
                                           "\"",
                                           "\\",
                                           "\r",
                                           "\x01",
                                           "\x1b[31m",
                                           "\x7f",
                                           "\b\f",
                                           "\xff",
                                           "\xc0\xaf",
                                           "\xc2",
                                           "\x80",
                                           "/",
                                           "\xe2\x82\xac",
                                           "\xe2\x82",
                                           "\xf0\x9f",
                                           "1.5",
                                           "-",
                                           "0",
                                           "ok",
                                           "\xed\xa0\x80",
                                           "\xf4\x90\x80\x80"};
  std::mt19937 random(20261207);
  const auto text = [&](int most) {
    std::string s;
    for (int i = int(random() % (most + 1)); i > 0; --i) s += pieces[random() % pieces.size()];
    return s;
  };
  for (int i = 0; i < 40; ++i) {
    std::string scores = kHeader, skipped = "part\treason\tmax_score\n";
    for (int r = int(random() % 60); r > 0; --r) {
      for (int c = 0; c < 12; ++c)
        scores += (c ? "\t" : "") + (c == 7 && random() % 2 ? std::string("ok") : text(6));
      scores += random() % 10 ? "\n" : "\n\n";
    }
    for (int r = int(random() % 3); r > 0; --r)
      skipped += text(3) + "\t" + text(20) + "\t" + text(2) + "\n";
    expect_same(logs("random" + std::to_string(i), scores, &skipped), i % 2 ? "5" : "");
  }
}

} // namespace
