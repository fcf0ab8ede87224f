// The render program's option parsing.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "common/cli.h"
#include "options.h"
#include "render/cuda_renderer.h"

namespace {

using render_app::Options;
using render_app::parse_options;

std::string usage_error(const std::vector<std::string>& args) {
  try {
    parse_options(args);
  } catch (const common::UsageError& e) {
    return e.what();
  }
  return "(no usage error)";
}

TEST(Options, Defaults) {
  const Options o = parse_options({"rgb"});
  EXPECT_EQ(o.scene, "rgb");
  EXPECT_EQ(o.renderer, render::RendererKind::Auto);
  EXPECT_EQ(o.size, 1024);
  EXPECT_EQ(o.start_frame, 0);
  EXPECT_EQ(o.end_frame, 1);
  EXPECT_FALSE(o.check);
  EXPECT_EQ(o.file_prefix, "output");
  EXPECT_EQ(o.seed, 0u);
  EXPECT_EQ(o.format, render::ImageFormat::Png);
}

// --cuda-mode goes with a renderer that can be the CUDA one.
TEST(Options, CudaModeOnlyWithCudaOrAuto) {
  EXPECT_EQ(parse_options({"-r", "cuda", "--cuda-mode", "binned", "rgb"}).cuda_mode,
            render::CudaMode::Binned);
  EXPECT_EQ(parse_options({"--cuda-mode", "tiled", "rgb"}).cuda_mode, render::CudaMode::Tiled);
  EXPECT_EQ(usage_error({"-r", "cpu", "--cuda-mode", "tiled", "rgb"}),
            "--cuda-mode is for -r cuda or auto, not -r cpu");
  EXPECT_EQ(usage_error({"--cuda-mode", "binned", "-r", "cpuref", "rgb"}),
            "--cuda-mode is for -r cuda or auto, not -r cpuref");
}

// The design ladder's rungs are CUDA modes too, listed in the help and in the
// error for a mode that does not exist.
TEST(Options, CudaModeTakesTheLadderRungs) {
  const std::pair<const char*, render::CudaMode> rungs[] = {
      {"circles", render::CudaMode::RungCircles},
      {"pixels", render::CudaMode::RungPixels},
      {"tiles", render::CudaMode::RungTiles},
      {"classic", render::CudaMode::RungClassic}};
  // The help with every run of blanks made one space, so line breaks do not matter.
  std::string help;
  for (const char c : render_app::usage_text()) {
    const bool blank = c == ' ' || c == '\n';
    if (!blank || (!help.empty() && help.back() != ' ')) help += blank ? ' ' : c;
  }
  EXPECT_NE(help.find("circles (wrong on purpose), pixels, tiles, classic"), std::string::npos)
      << help;
  for (const auto& [name, mode] : rungs) {
    EXPECT_EQ(parse_options({"-r", "cuda", "--cuda-mode", name, "rgb"}).cuda_mode, mode) << name;
    EXPECT_EQ(parse_options({std::string("--cuda-mode=") + name, "rgb"}).cuda_mode, mode) << name;
    EXPECT_STREQ(render::cuda_mode_name(mode), name);
  }
  EXPECT_EQ(render::cuda_mode_names(), "circles, pixels, tiles, classic, tiled, binned, auto");
  EXPECT_EQ(usage_error({"--cuda-mode", "pixel", "rgb"}),
            "--cuda-mode: unknown CUDA mode 'pixel' (valid modes: circles, pixels, tiles, "
            "classic, tiled, binned, auto)");
}

TEST(Options, ShortLongAndAttachedForms) {
  const Options a = parse_options(
      {"-r", "cpu", "-s", "512", "-b", "3:7", "-c", "-f", "pic", "-S", "42", "rand10k"});
  EXPECT_EQ(a.renderer, render::RendererKind::Cpu);
  EXPECT_EQ(a.size, 512);
  EXPECT_EQ(a.start_frame, 3);
  EXPECT_EQ(a.end_frame, 7);
  EXPECT_TRUE(a.check);
  EXPECT_EQ(a.file_prefix, "pic");
  EXPECT_EQ(a.seed, 42u);
  const Options b = parse_options({"--renderer=cpuref", "--size=8", "--bench", "0:2", "--check",
                                   "--file=", "--seed=4294967295", "--format", "ppm", "pattern"});
  EXPECT_EQ(b.renderer, render::RendererKind::CpuRef);
  EXPECT_EQ(b.size, 8);
  EXPECT_EQ(b.end_frame, 2);
  EXPECT_EQ(b.file_prefix, "");
  EXPECT_EQ(b.seed, 4294967295u);
  EXPECT_EQ(b.format, render::ImageFormat::Ppm);
  EXPECT_EQ(b.first, -1);
  EXPECT_EQ(parse_options({"--first", "0", "rgb"}).first, 0);
  EXPECT_EQ(parse_options({"--first=250", "rand10k"}).first, 250);
  const Options c = parse_options({"-s64", "-rcuda", "-f", "", "rgb"});
  EXPECT_EQ(c.size, 64);
  EXPECT_EQ(c.renderer, render::RendererKind::Cuda);
  EXPECT_EQ(c.file_prefix, "");
}

// The course's spellings (its help text: -i/--interactive, -S/--Seed) beside ours.
TEST(Options, CourseSpellings) {
  EXPECT_EQ(parse_options({"--Seed", "42", "rgb"}).seed, 42u);
  EXPECT_EQ(parse_options({"--Seed=7", "rgb"}).seed, 7u);
  EXPECT_EQ(parse_options({"-S", "3", "rgb"}).seed, 3u);
  const Options o = parse_options({"--renderer", "cpuref", "--size", "8", "--bench", "0:2",
                                   "--check", "--file", "x", "--Seed", "1", "rgb"});
  EXPECT_TRUE(o.check);
  EXPECT_EQ(o.file_prefix, "x");
  EXPECT_TRUE(parse_options({"--interactive", "rgb"}).interactive);
  EXPECT_TRUE(parse_options({"-i", "rgb"}).interactive);
  // The course's help calls the serial renderer "ref".
  EXPECT_EQ(parse_options({"-r", "ref", "rgb"}).renderer, render::RendererKind::CpuRef);
}

// -i writes no files and checks nothing; options asking for that are refused.
TEST(Options, InteractiveWritesNothing) {
  const Options o = parse_options({"-i", "--interactive-frames", "5", "fireworks"});
  EXPECT_TRUE(o.interactive);
  EXPECT_EQ(o.interactive_frames, 5);
  EXPECT_EQ(o.start_frame, 0);
  EXPECT_EQ(o.file_prefix, "");
  for (const char* refused : {"-f", "--format", "-c", "--check-against", "--gif"}) {
    std::vector<std::string> args = {"-i", refused};
    if (std::string(refused) != "-c")
      args.push_back(std::string(refused) == "--format" ? "ppm" : "x");
    args.push_back("rgb");
    EXPECT_EQ(usage_error(args),
              std::string("-i shows frames in a window; ") + refused + " does not go with it");
  }
  EXPECT_EQ(usage_error({"--interactive-frames", "2", "rgb"}), "--interactive-frames goes with -i");
  EXPECT_EQ(
      usage_error({"-i", "--interactive-frames", "0", "rgb"}).rfind("--interactive-frames", 0), 0u);
  EXPECT_EQ(parse_options({"--gif", "a.gif", "rgb"}).gif_file, "a.gif");
}

// -b START:END with -i: frames START to END-1, as in the bench, then the
// window closes; without -b it stays until closed. -b already counts the
// frames, so --interactive-frames with it is refused.
TEST(Options, InteractiveHonoursTheBenchRange) {
  const Options ranged = parse_options({"-i", "-b", "3:7", "fireworks"});
  EXPECT_EQ(ranged.start_frame, 3);
  EXPECT_EQ(ranged.interactive_frames, 4);
  EXPECT_EQ(parse_options({"-i", "--bench=0:1", "fireworks"}).interactive_frames, 1);
  EXPECT_EQ(parse_options({"-i", "fireworks"}).interactive_frames, 0);
  EXPECT_EQ(parse_options({"-b", "3:7", "fireworks"}).interactive_frames, 0);
  EXPECT_EQ(usage_error({"-i", "--interactive-frames", "5", "-b", "3:4", "fireworks"}),
            "-i with -b START:END shows frames START to END-1; --interactive-frames does not go "
            "with it");
  EXPECT_EQ(usage_error({"-i", "-b", "3:4", "--interactive-frames", "5", "fireworks"})
                .rfind("-i with -b", 0),
            0u);
}

TEST(Options, CheckAgainstImpliesTheCheckOnOneFrame) {
  const Options o = parse_options({"--check-against", "ref.rgbaf", "rgb"});
  EXPECT_EQ(o.check_against, "ref.rgbaf");
  EXPECT_TRUE(o.check);
  const Options later = parse_options({"-b", "5:6", "--check-against=r.rgbaf", "-c", "rgb"});
  EXPECT_EQ(later.check_against, "r.rgbaf");
  EXPECT_EQ(later.start_frame, 5);
  EXPECT_EQ(parse_options({"--format", "rgbaf", "rgb"}).format, render::ImageFormat::Rgbaf);
}

TEST(Options, HelpAndListNeedNoScene) {
  EXPECT_TRUE(parse_options({"-?"}).help);
  EXPECT_TRUE(parse_options({"--help"}).help);
  EXPECT_TRUE(parse_options({"-h"}).help);
  EXPECT_TRUE(parse_options({"--list"}).list);
}

TEST(Options, SceneFile) {
  const Options o = parse_options({"--scene-file", "my.scene"});
  EXPECT_EQ(o.scene_file, "my.scene");
  EXPECT_TRUE(o.scene.empty());
}

TEST(Options, EachBadInputIsOneClearUsageError) {
  struct Case {
    std::vector<std::string> args;
    std::string says;
  };
  const std::vector<Case> cases = {
      {{}, "missing SCENE (one of: rgb"},
      {{"nope"}, "unknown scene 'nope' (valid scenes: rgb, rgby"},
      {{"rgb", "rgby"}, "expected one SCENE"},
      {{"-s", "0", "rgb"}, "-s/--size: 0 is out of range (allowed: 1 to 16384)"},
      {{"-s", "-5", "rgb"}, "out of range (allowed: 1 to 16384)"},
      {{"-s", "20000", "rgb"}, "out of range (allowed: 1 to 16384)"},
      {{"-s", "abc", "rgb"}, "-s/--size: 'abc' is not a whole number"},
      {{"-s"}, "-s needs a value"},
      {{"-b", "5:2", "rgb"}, "END must be greater than START (got 5:2)"},
      {{"-b", "4:4", "rgb"}, "END must be greater than START"},
      {{"-b", "x", "rgb"}, "'x' is not START:END"},
      {{"-b", "1:x", "rgb"}, "-b/--bench END: 'x' is not a whole number"},
      {{"-b", "-1:3", "rgb"}, "-b/--bench START"},
      {{"-S", "abc", "rgb"}, "-S/--seed: 'abc' is not a whole number"},
      {{"-S", "-1", "rgb"}, "-S/--seed"},
      {{"-S", "4294967296", "rgb"}, "out of range"},
      {{"-r", "gpu", "rgb"}, "-r/--renderer: unknown renderer 'gpu' (valid renderers: cpuref"},
      {{"--format", "gif", "rgb"},
       "--format: unknown image format 'gif' (valid formats: png, ppm, rgbaf)"},
      {{"--check-against", "", "rgb"}, "--check-against needs a file name"},
      {{"--check-against"}, "--check-against needs a value"},
      {{"--check-against", "r.rgbaf", "-b", "0:4", "rgb"},
       "--check-against checks one frame: give -b START:START+1 (got -b 0:4)"},
      {{"--bogus", "rgb"}, "unknown option --bogus"},
      {{"-x", "rgb"}, "unknown option -x"},
      {{"--check=yes", "rgb"}, "--check takes no value"},
      {{"--scene-file", "a", "rgb"}, "either SCENE or --scene-file"},
      {{"--scene-file", ""}, "--scene-file needs a file name"},
      {{"--first", "-1", "rgb"}, "--first: -1 is out of range"},
      {{"--first", "many", "rgb"}, "--first: 'many' is not a whole number"},
  };
  for (const Case& c : cases) {
    const std::string msg = usage_error(c.args);
    EXPECT_NE(msg.find(c.says), std::string::npos) << "got: " << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  }
}

TEST(Options, HelpNamesEveryOption) {
  const std::string help = render_app::usage_text();
  for (const char* option :
       {"--renderer", "--size", "--bench", "--check", "--check-against", "--file", "--format",
        "rgbaf", "--seed", "--scene-file", "--first", "--list", "--help", "snowsingle"})
    EXPECT_NE(help.find(option), std::string::npos) << option;
}

} // namespace
