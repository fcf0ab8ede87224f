// The course's contract as the judge holds it (judge/contract.h) and its
// score rules, by hand-worked cases at and around every threshold; then
// `judge score`, the command the grader scores each row with.
#include <gtest/gtest.h>

#include <string>

#include "judge/contract.h"
#include "run_program.h"

namespace {

double render_score(double ref_ms, double ms) {
  return judge::course_score(*judge::part_rule("render"), ref_ms, ms);
}

double scan_score(double ref_ms, double ms) {
  return judge::course_score(*judge::part_rule("scan"), ref_ms, ms);
}

TEST(Contract, ScoringPartsHaveRulesAndSaxpyNone) {
  ASSERT_NE(judge::part_rule("render"), nullptr);
  ASSERT_NE(judge::part_rule("scan"), nullptr);
  EXPECT_EQ(judge::part_rule("scan"), judge::part_rule("find_repeats"));
  EXPECT_EQ(judge::part_rule("saxpy"), nullptr);
  EXPECT_EQ(judge::part_rule("nothing"), nullptr);
  EXPECT_EQ(judge::part_rule("render")->points, 9);
  EXPECT_EQ(judge::part_rule("scan")->points, 1.25);
}

TEST(Contract, DefaultsAreTheCoursesSizesAndScenes) {
  const std::vector<std::int64_t> counts = judge::contract_counts();
  EXPECT_EQ(counts, (std::vector<std::int64_t>{1000000, 10000000, 20000000, 40000000}));
  const std::vector<std::string> scenes = judge::contract_scenes();
  ASSERT_EQ(scenes.size(), 8u);
  EXPECT_EQ(scenes.front(), "rgb");
  EXPECT_EQ(scenes.back(), "micro2M");
  EXPECT_EQ(judge::contract::kSize, 1024);
  EXPECT_EQ(judge::contract::kRuns, 3);
}

TEST(Contract, RenderScoreAtEveryThreshold) {
  EXPECT_EQ(render_score(10, 5), 9);     // faster than the reference
  EXPECT_EQ(render_score(10, 12), 9);    // exactly 1.2 T_ref
  EXPECT_EQ(render_score(10, 12.01), 8); // just over
  EXPECT_EQ(render_score(10, 20), 6);    // 2 T_ref: 2 + ceil(3.5)
  EXPECT_EQ(render_score(10, 30), 5);    // 3 T_ref
  EXPECT_EQ(render_score(10, 70), 3);    // ceil of exactly 1
  EXPECT_EQ(render_score(10, 100), 3);   // exactly 10 T_ref
  EXPECT_EQ(render_score(10, 100.1), 2); // over 10 T_ref
  EXPECT_EQ(render_score(10, 0), 9);     // a time of 0 at 4 decimals
}

TEST(Contract, ScanScoreProportionalAndUnrounded) {
  EXPECT_EQ(scan_score(2, 1), 1.25);
  EXPECT_EQ(scan_score(2, 2.4), 1.25); // exactly 1.2 T_ref
  EXPECT_EQ(scan_score(2, 4), 0.625);
  EXPECT_NEAR(scan_score(1, 3), 1.25 / 3, 1e-15);
  EXPECT_NEAR(scan_score(1, 10000), 0.000125, 1e-15);
}

std::string score(const std::string& args) {
  const ProgramResult r = run_program(std::string(JUDGE_PATH) + " score " + args);
  return std::to_string(r.status) + " " + r.output;
}

TEST(JudgeScore, PrintsTheRowsScoreAsJson) {
  EXPECT_EQ(score("--part render --status ok --best-ms 20 --reference-ms 10"),
            "0 {\"part\":\"render\",\"ref_ms\":10,\"score\":6,\"max_score\":9,\"score_low\":6,"
            "\"score_high\":6,\"speedup\":0.5}\n");
  // Nine decimals, never an exponent.
  EXPECT_EQ(score("--part scan --status ok --best-ms 3 --reference-ms 1"),
            "0 {\"part\":\"scan\",\"ref_ms\":1,\"score\":0.416666667,\"max_score\":1.25,"
            "\"score_low\":0.416666667,\"score_high\":0.416666667,\"speedup\":0.333333}\n");
  EXPECT_EQ(score("--part find_repeats --status ok --best-ms 10000 --reference-ms 1"),
            "0 {\"part\":\"find_repeats\",\"ref_ms\":1,\"score\":0.000125,\"max_score\":1.25,"
            "\"score_low\":0.000125,\"score_high\":0.000125,\"speedup\":0.0001}\n");
}

TEST(JudgeScore, RejectedScoresNothingAndMissingTimesScoreNull) {
  EXPECT_EQ(score("--part render --status rejected --best-ms 1 --reference-ms 10"),
            "0 {\"part\":\"render\",\"ref_ms\":10,\"score\":0,\"max_score\":9,\"score_low\":0,"
            "\"score_high\":0,\"speedup\":10}\n");
  EXPECT_EQ(score("--part render --status ok --best-ms 5 --reference-ms -"),
            "0 {\"part\":\"render\",\"ref_ms\":null,\"score\":null,\"max_score\":9,"
            "\"score_low\":null,\"score_high\":null,\"speedup\":null}\n");
  EXPECT_EQ(score("--part render --status ok --best-ms 0 --reference-ms 1"),
            "0 {\"part\":\"render\",\"ref_ms\":1,\"score\":9,\"max_score\":9,\"score_low\":9,"
            "\"score_high\":9,\"speedup\":null}\n");
}

TEST(JudgeScore, MediansGiveTheSpreadsScores) {
  // Best 1.1 T_ref scores 1.25; the median 2 T_ref 0.625; the reference's
  // median at half the worker's best leaves it 1.25.
  EXPECT_EQ(score("--part scan --status ok --best-ms 1.1 --median-ms 2 --reference-ms 1 "
                  "--reference-median-ms 1.5"),
            "0 {\"part\":\"scan\",\"ref_ms\":1,\"score\":1.25,\"max_score\":1.25,"
            "\"score_low\":0.625,\"score_high\":1.25,\"speedup\":0.909091}\n");
}

TEST(JudgeScore, SerialReferenceOverTheCores) {
  EXPECT_EQ(score("--part render --status ok --best-ms 25 --reference-ms 100 --reference-cores 4"),
            "0 {\"part\":\"render\",\"ref_ms\":25,\"score\":9,\"max_score\":9,\"score_low\":9,"
            "\"score_high\":9,\"speedup\":1}\n");
  // To the judge's 4 decimals: 10 / 3 = 3.3333.
  EXPECT_EQ(score("--part render --status ok --best-ms 33.333 --reference-ms 10 "
                  "--reference-cores 3"),
            "0 {\"part\":\"render\",\"ref_ms\":3.3333,\"score\":3,\"max_score\":9,"
            "\"score_low\":3,\"score_high\":3,\"speedup\":0.1}\n");
}

// --table: the judge's --rows-table header, then the same fields in their
// columns, an empty cell for null (the grader reads them by name).
TEST(JudgeScore, TablePrintsTheSameFieldsByColumn) {
  const std::string header = "test\titem\tstatus\tbest_ms\tmedian_ms\tempty_ms\tcharged_ms\truns\t"
                             "reason\trole\tref_ms\tscore\tmax_score\tscore_low\tscore_high\t"
                             "speedup\tstable\n";
  EXPECT_EQ(score("--table --part scan --status ok --best-ms 1.1 --median-ms 2 --reference-ms 1 "
                  "--reference-median-ms 1.5"),
            "0 " + header + "\t\t\t\t\t\t\t\t\t\t1\t1.25\t1.25\t0.625\t1.25\t0.909091\t\n");
  EXPECT_EQ(score("--table --part render --status ok --best-ms 5 --reference-ms -"),
            "0 " + header + "\t\t\t\t\t\t\t\t\t\t\t\t9\t\t\t\t\n");
}

TEST(JudgeScore, UsageErrors) {
  for (const char* args : {"--part saxpy --status ok --best-ms 1 --reference-ms 1",
                           "--part scan --status maybe --best-ms 1 --reference-ms 1",
                           "--part scan --status ok --best-ms x --reference-ms 1",
                           "--part scan --status ok --best-ms -1 --reference-ms 1",
                           "--part scan --status ok --reference-ms 1",
                           "--part scan --status ok --best-ms 1 --reference-ms 1 extra"}) {
    const std::string got = score(args);
    EXPECT_EQ(got.substr(0, 2), "2 ") << args << ": " << got;
    EXPECT_NE(got.find("judge: "), std::string::npos) << got;
  }
}

} // namespace
