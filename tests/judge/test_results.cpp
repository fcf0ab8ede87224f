// `judge results`, Gradescope's results.json from a grade.sh log folder: the
// pieces it is made of (reading the tables as jq read them, typed rows by
// column name, jq's numbers and string escapes), then the command itself
// (its errors, and its atomic write). test_results_jq.cpp compares it with
// the jq program it replaces.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cfloat>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "judge_rows.h"
#include "log_tables.h"
#include "results_json.h"
#include "run_program.h"

namespace {

using namespace judge_app;

TEST(Results, NumbersAsJqPrintsThem) {
  EXPECT_EQ(jq_number(0), "0");
  EXPECT_EQ(jq_number(5), "5");
  EXPECT_EQ(jq_number(2.5), "2.5");
  EXPECT_EQ(jq_number(0.001), "0.001");
  EXPECT_EQ(jq_number(0.000125), "0.000125");
  EXPECT_EQ(jq_number(0.0000125), "1.25e-05");
  EXPECT_EQ(jq_number(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(jq_number(1e17), "1e+17");
  EXPECT_EQ(jq_number(123456789012345678.0), "123456789012345680");
  EXPECT_EQ(jq_number(1e300 * 1e10), "1.7976931348623157e+308"); // infinity
  EXPECT_EQ(jq_number(999999999), "999999999");
}

TEST(Results, ScoresAreDigitsWithOnePointElseZero) {
  EXPECT_EQ(score_number("5"), 5);
  EXPECT_EQ(score_number("2.5"), 2.5);
  EXPECT_EQ(score_number("0.001"), 0.001);
  EXPECT_EQ(score_number("007"), 7);
  for (const char* zero : {"0", "-", "", "1e5", "-1", ".5", "1.", "1.2.3", " 1", "1\r"})
    EXPECT_EQ(score_number(zero), 0) << zero;
}

TEST(Results, StringsEscapedAsJqEscapesThem) {
  EXPECT_EQ(json_string("a\"b\\c/d", JsonText::kUtf8), "\"a\\\"b\\\\c/d\"");
  EXPECT_EQ(json_string("\b\t\n\f\r\x01\x1b\x7f", JsonText::kUtf8),
            "\"\\b\\t\\n\\f\\r\\u0001\\u001b\\u007f\"");
  EXPECT_EQ(json_string("r\xc3\xa9sum\xc3\xa9 \xe2\x82\xac", JsonText::kUtf8),
            "\"r\xc3\xa9sum\xc3\xa9 \xe2\x82\xac\"");
  // The judge's own rows keep escaping every byte.
  EXPECT_EQ(json_string("\t\xc3\xa9"), "\"\\u0009\\u00c3\\u00a9\"");
}

TEST(Results, InvalidUtf8BecomesReplacementCharacters) {
  const std::string r = "\xef\xbf\xbd";
  EXPECT_EQ(valid_utf8("ok \xc3\xa9 \xf0\x9f\x98\x80"), "ok \xc3\xa9 \xf0\x9f\x98\x80");
  EXPECT_EQ(valid_utf8("a\xff\xfe"
                       "b"),
            "a" + r + r + "b");                 // two stray bytes
  EXPECT_EQ(valid_utf8("\xe2\x82z"), r + "z");  // cut short: one
  EXPECT_EQ(valid_utf8("\xc0\xaf"), r + r);     // C0 starts nothing
  EXPECT_EQ(valid_utf8("\xe0\x80\x80"), r);     // overlong
  EXPECT_EQ(valid_utf8("\xed\xa0\x80"), r);     // a surrogate
  EXPECT_EQ(valid_utf8("\xf4\x90\x80\x80"), r); // past U+10FFFF
  EXPECT_EQ(valid_utf8("x\xf0\n"), "x" + r);    // the end cuts it: the rest
}

TEST(Results, TablesByColumnName) {
  const Table t = split_table("note\tscore\tpart\n\nx\t2.5\tscan\n\nshort\n", "t");
  ASSERT_EQ(t.rows.size(), 2u);
  const std::vector<ScoreRow> rows = score_rows(t);
  EXPECT_EQ(rows[0].part, "scan");
  EXPECT_EQ(rows[0].score, "2.5");
  EXPECT_EQ(rows[0].note, "x");
  EXPECT_EQ(rows[1].score, "");             // a short row: empty cells
  EXPECT_EQ(rows[1].verdict, std::nullopt); // no such column
  EXPECT_TRUE(split_table("", "t").rows.empty());
  EXPECT_TRUE(split_table("part\titem\n", "t").rows.empty());
  // A column named twice: the last one.
  const Table twice = split_table("part\tpart\na\tb\n", "t");
  EXPECT_EQ(not_graded_rows(twice).at(0).part, "b");
  EXPECT_THROW(split_table("part\na\tb\n", "scores.tsv"), std::runtime_error);
}

TEST(Results, NotGradedRowsScoreNothingOutOfTheirPoints) {
  const std::string json =
      gradescope_results({}, {{"render", "no GPU", "18"}, {"scan", std::nullopt, std::nullopt}}, 7);
  const std::string expected = R"json({
  "score": 0,
  "execution_time": 7,
  "output": "Graded by scripts/grade.sh: one test per graded item.\nrender: not graded: no GPU\nscan: not graded: null",
  "visibility": "visible",
  "stdout_visibility": "hidden",
  "tests": [
    {
      "name": "render (not graded)",
      "score": 0,
      "max_score": 18,
      "status": "failed",
      "output": "no GPU"
    },
    {
      "name": "scan (not graded)",
      "score": 0,
      "max_score": 0,
      "status": "failed",
      "output": null
    }
  ]
}
)json";
  EXPECT_EQ(json, expected);
  EXPECT_EQ(gradescope_results({}, {}, std::nullopt),
            "{\n  \"score\": 0,\n  \"output\": \"Graded by scripts/grade.sh: one test per graded "
            "item.\",\n  \"visibility\": \"visible\",\n  \"stdout_visibility\": \"hidden\",\n  "
            "\"tests\": []\n}\n");
  ScoreRow no_score{};
  no_score.max_score = "1";
  EXPECT_THROW(gradescope_results({no_score}, {}, std::nullopt), std::runtime_error);
}

// ---------------------------------------------------------------- the command

class ResultsCommand : public ::testing::Test {
protected:
  void SetUp() override {
    char name[] = "/tmp/judge-results-test-XXXXXX";
    ASSERT_NE(mkdtemp(name), nullptr);
    dir_ = name;
  }
  void TearDown() override { std::system(("rm -rf '" + dir_ + "'").c_str()); }

  void write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ + "/" + name, std::ios::binary) << text;
  }
  std::string read(const std::string& name) {
    std::ifstream in(dir_ + "/" + name, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }
  ProgramResult results(const std::string& args) {
    return run_program(std::string(JUDGE_PATH) + " results " + args);
  }
  // The folder's entries, one a line, sorted.
  std::string listing() { return run_program("ls -A '" + dir_ + "'").output; }

  std::string dir_;
};

TEST_F(ResultsCommand, WritesTheFileAndSaysWhere) {
  write("scores.tsv", "part\titem\tverdict\tscore\tmax_score\nscan\t1\tok\t1.25\t1.25\n");
  const ProgramResult r = results("--execution-time 12 " + dir_ + " " + dir_ + "/r.json");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(r.output, "Gradescope results: " + dir_ + "/r.json\n");
  EXPECT_NE(read("r.json").find("\"execution_time\": 12,"), std::string::npos);
  EXPECT_NE(read("r.json").find("\"score\": 1.25,"), std::string::npos);
  EXPECT_EQ(listing(), "r.json\nscores.tsv\n"); // no temporary file left
}

TEST_F(ResultsCommand, MissingLogFolderWritesNothing) {
  const ProgramResult r = results(dir_ + "/nowhere " + dir_ + "/r.json");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.output, "judge: error: " + dir_ +
                          "/nowhere holds no scores.tsv (is it a grade.sh log folder?)\n");
  EXPECT_EQ(listing(), "");
}

TEST_F(ResultsCommand, FileAFolderIsRefused) {
  write("scores.tsv", "part\titem\tscore\tmax_score\n");
  ASSERT_EQ(mkdir((dir_ + "/out").c_str(), 0700), 0);
  const ProgramResult r = results(dir_ + " " + dir_ + "/out");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.output, "judge: error: '" + dir_ + "/out' is a folder, not a file\n");
  EXPECT_EQ(run_program("ls -A '" + dir_ + "/out'").output, "");
}

TEST_F(ResultsCommand, BadLogsLeaveTheOldFileAndNoTemporary) {
  write("scores.tsv", "part\tscore\tmax_score\nscan\t1\t1\textra\n");
  write("r.json", "old\n");
  const ProgramResult r = results(dir_ + " " + dir_ + "/r.json");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.output,
            "judge: error: scores.tsv: a row has more cells than the header has columns\n");
  EXPECT_EQ(read("r.json"), "old\n");
  EXPECT_EQ(listing(), "r.json\nscores.tsv\n");
  write("scores.tsv", "part\tmax_score\nscan\t1\n");
  EXPECT_EQ(results(dir_ + " " + dir_ + "/r.json").output,
            "judge: error: scores.tsv has rows but no score column\n");
}

TEST_F(ResultsCommand, UnwritableFolder) {
  write("scores.tsv", "part\n");
  const ProgramResult r = results(dir_ + " " + dir_ + "/no/r.json");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.output, "judge: error: cannot write in the folder of '" + dir_ + "/no/r.json'\n");
}

TEST_F(ResultsCommand, EmptyTablesAndNoNotGraded) {
  write("scores.tsv", "");
  EXPECT_EQ(results(dir_ + " " + dir_ + "/r.json").status, 0);
  EXPECT_NE(read("r.json").find("\"tests\": []"), std::string::npos);
}

TEST_F(ResultsCommand, UsageErrors) {
  write("scores.tsv", "part\n");
  for (const std::string& args :
       std::vector<std::string>{"only-one", "a b c", "--execution-time x " + dir_ + " f",
                                "--execution-time 1234567890 " + dir_ + " f",
                                "--bogus " + dir_ + " f", "--execution-time"}) {
    const ProgramResult r = results(args);
    EXPECT_EQ(r.status, 2) << args << ": " << r.output;
    EXPECT_NE(r.output.find("(try --help)"), std::string::npos) << r.output;
  }
  const ProgramResult help = results("--help");
  EXPECT_EQ(help.status, 0);
  EXPECT_EQ(help.output.rfind("Usage: judge results", 0), 0u);
}

} // namespace
