// CPU tests: cudaScan's command line.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "common/cli.h"
#include "options.h"

namespace {

scan_app::Options parse(std::vector<std::string> args) {
  args.insert(args.begin(), "cudaScan");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  return scan_app::parse_options(static_cast<int>(args.size()), argv.data());
}

TEST(ScanOptions, CourseDefaults) {
  const scan_app::Options o = parse({});
  EXPECT_EQ(o.test, scan_app::Test::kScan);
  EXPECT_EQ(o.input, scan::InputKind::kRandom);
  EXPECT_EQ(o.n, 64);
  EXPECT_FALSE(o.thrust);
  EXPECT_EQ(o.algorithm, scan::Algorithm::kSinglePass);
  EXPECT_EQ(o.seed, 1u);
  EXPECT_EQ(o.runs, 3);
  EXPECT_FALSE(o.bench);
  EXPECT_FALSE(o.help);
}

TEST(ScanOptions, CourseOptionsShortAndLong) {
  scan_app::Options o = parse({"-m", "find_repeats", "-i", "ones", "-n", "1000", "-t"});
  EXPECT_EQ(o.test, scan_app::Test::kFindRepeats);
  EXPECT_EQ(o.input, scan::InputKind::kOnes);
  EXPECT_EQ(o.n, 1000);
  EXPECT_TRUE(o.thrust);
  EXPECT_EQ(o.algorithm, scan::Algorithm::kCub);
  o = parse({"--test", "scan", "--input", "wide", "--arraysize", "7", "--algorithm", "blelloch",
             "--seed", "99", "--runs", "5"});
  EXPECT_EQ(o.test, scan_app::Test::kScan);
  EXPECT_EQ(o.input, scan::InputKind::kWide);
  EXPECT_EQ(o.n, 7);
  EXPECT_EQ(o.algorithm, scan::Algorithm::kBlelloch);
  EXPECT_EQ(o.seed, 99u);
  EXPECT_EQ(o.runs, 5);
  EXPECT_FALSE(o.bench);
  EXPECT_TRUE(o.n_given);
  EXPECT_TRUE(o.test_given);
  o = parse({"--bench", "--test", "find_repeats", "-n", "1000"});
  EXPECT_TRUE(o.bench);
  EXPECT_EQ(o.test, scan_app::Test::kFindRepeats);
}

// The ladder's first rung, by name, alone or in the help.
TEST(ScanOptions, KoggeStoneIsAnAlgorithm) {
  EXPECT_EQ(parse({"-a", "kogge-stone"}).algorithm, scan::Algorithm::kKoggeStone);
  EXPECT_EQ(parse({"-m", "find_repeats", "--algorithm=kogge-stone"}).algorithm,
            scan::Algorithm::kKoggeStone);
  const std::string help = scan_app::usage("cudaScan");
  EXPECT_NE(help.find("kogge-stone, blelloch, single-pass, cub, all, or student"),
            std::string::npos)
      << help;
}

// The bench times every algorithm; past find_repeats' limit it times the scan
// alone.
TEST(ScanOptions, BenchTakesNoChoiceOfAlgorithmOrRuns) {
  for (const auto& [args, says] :
       {std::pair{std::vector<std::string>{"--bench", "-a", "cub"}, "it takes no -a"},
        std::pair{std::vector<std::string>{"--bench", "-t"}, "it takes no -t"},
        std::pair{std::vector<std::string>{"-r", "5", "--bench"}, "it takes no -r"}}) {
    try {
      parse(args);
      ADD_FAILURE() << "accepted " << args[1];
    } catch (const common::UsageError& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
  }
  const scan_app::Options o = parse({"--bench", "-n", "3000000000"});
  EXPECT_TRUE(o.test_given);
  EXPECT_EQ(o.test, scan_app::Test::kScan);
  EXPECT_FALSE(parse({"--bench", "-n", "1000"}).test_given);
}

TEST(ScanOptions, AllAlgorithmsAndHelp) {
  EXPECT_TRUE(parse({"-a", "all"}).all_algorithms);
  EXPECT_TRUE(parse({"-?"}).help);
  EXPECT_TRUE(parse({"--help"}).help);
  EXPECT_TRUE(parse({"-t", "-a", "cub"}).thrust);
}

TEST(ScanOptions, UsageErrors) {
  const std::vector<std::vector<std::string>> bad = {
      {"-n", "abc"},       {"-n", "-1"},
      {"-n", "1e6"},       {"-n"},
      {"-m", "sort"},      {"-i", "noise"},
      {"-a", "quick"},     {"--frobnicate"},
      {"stray"},           {"-r", "0"},
      {"--seed", "-1"},    {"-t", "-a", "blelloch"},
      {"-t", "-a", "all"}, {"-m", "find_repeats", "-n", "2147483648"},
  };
  for (const auto& args : bad) {
    std::string joined;
    for (const auto& a : args) joined += a + " ";
    EXPECT_THROW(parse(args), common::UsageError) << joined;
  }
}

TEST(ScanOptions, MessagesNameTheOption) {
  try {
    parse({"-a", "quick"});
    FAIL() << "no error";
  } catch (const common::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("-a/--algorithm"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("single-pass"), std::string::npos) << e.what();
  }
}

TEST(ScanOptions, UsageListsEveryOption) {
  const std::string text = scan_app::usage("cudaScan");
  for (const char* option : {"--test", "--input", "--arraysize", "--thrust", "--algorithm",
                             "--seed", "--runs", "--bench", "--help"})
    EXPECT_NE(text.find(option), std::string::npos) << option;
}

} // namespace
