// The render program run as a user would: help, list, good runs, and every
// kind of bad input (one clear line, the right status, no file left).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "common/device.h"
#include "course_lines.h"
#include "gif_decode.h"
#include "gpu_test.h"
#include "render/image_io.h"
#include "render/renderer_factory.h"
#include "scenes/scene_file.h"
#include "test_util.h"

namespace {

using render_test::contains;
using render_test::ProgramRun;
using render_test::run_program;
using render_test::TempDir;

// One line on stderr, starting with the program name.
void expect_one_error_line(const ProgramRun& run, int status, const std::string& says) {
  EXPECT_EQ(run.status, status) << run.err;
  EXPECT_EQ(run.err.rfind("render: ", 0), 0u) << run.err;
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
  EXPECT_TRUE(contains(run.err, says)) << "stderr: " << run.err << "expected: " << says;
}

TEST(Program, Help) {
  for (const char* flag : {"--help", "-?"}) {
    const ProgramRun run = run_program({flag});
    EXPECT_EQ(run.status, 0);
    EXPECT_EQ(run.out.rfind("Usage: render [options] SCENE", 0), 0u) << run.out;
    EXPECT_TRUE(run.err.empty());
  }
}

TEST(Program, ListsScenesWithCircleCounts) {
  const ProgramRun run = run_program({"--list"});
  EXPECT_EQ(run.status, 0);
  for (const std::string& name : scenes::scene_names())
    EXPECT_TRUE(contains(run.out, name)) << name;
  EXPECT_TRUE(contains(run.out, "2000000"));
}

TEST(Program, RendersChecksAndWritesFrames) {
  const TempDir dir;
  const ProgramRun run =
      run_program({"-r", "cpu", "-s", "32", "-b", "0:2", "-c", "-f", dir.file("o"), "hypnosis"});
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_TRUE(contains(run.out, "Renderer: cpu (requested)\n"));
  EXPECT_TRUE(contains(run.out, "Running benchmark, 2 frames, beginning at frame 0 ...\n"));
  EXPECT_TRUE(contains(run.out, "Wrote " + dir.file("o_0001.png") + "\n"));
  EXPECT_TRUE(contains(run.out, "Correctness check passed"));
  EXPECT_EQ(dir.files(), (std::vector<std::string>{"o_0000.png", "o_0001.png"}));
}

TEST(Program, PpmHasTheCourseSize) {
  const TempDir dir;
  const ProgramRun run =
      run_program({"-r", "cpuref", "-s", "30", "--format", "ppm", "-f", dir.file("p"), "rgby"});
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(render_test::read_file(dir.file("p_0000.ppm")).size(), 13u + 30u * 30u * 3u);
}

TEST(Program, DefaultFileNameAndNoFiles) {
  const TempDir dir;
  EXPECT_EQ(run_program({"-r", "cpu", "-s", "8", "rgb"}, dir.path()).status, 0);
  EXPECT_EQ(dir.files(), std::vector<std::string>{"output_0000.png"});
  const TempDir none;
  const ProgramRun run = run_program({"-r", "cpu", "-s", "8", "-f", "", "rgb"}, none.path());
  EXPECT_EQ(run.status, 0);
  EXPECT_FALSE(contains(run.out, "Dumping"));
  EXPECT_TRUE(none.files().empty());
}

// "--" ends the options (getopt's convention): what follows is the SCENE.
TEST(Program, DoubleDashEndsTheOptions) {
  const ProgramRun run = run_program({"-r", "cpu", "-s", "8", "-f", "", "--", "rgb"});
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_TRUE(contains(run.out, "Scene: rgb, 3 circles")) << run.out;
}

// The course's spellings: --Seed beside -S/--seed, and --format ppm's default
// file name is the course's output_0000.ppm.
TEST(Program, CourseSpellingsAndFileName) {
  const TempDir dir;
  const ProgramRun seeded = run_program(
      {"-r", "cpu", "-s", "16", "--Seed", "9", "--format", "ppm", "rand10k"}, dir.path());
  EXPECT_EQ(seeded.status, 0) << seeded.err;
  EXPECT_EQ(dir.files(), std::vector<std::string>{"output_0000.ppm"});
  EXPECT_TRUE(contains(seeded.out, "Wrote output_0000.ppm\n")) << seeded.out;
  // The course's lines in the course's order, ours between and after them.
  EXPECT_TRUE(lines_in_order(
      seeded.out, {"Rendering to 16x16 image", "Loaded scene with 10000 circles",
                   "Running benchmark, 1 frames, beginning at frame 0 ...",
                   "Dumping frames to output_xxx.ppm", "Wrote output_0000.ppm", "Clear:    ",
                   "Advance:  ", "Render:   ", "Total:    ", "File IO:  ", "Overall:  "}));
  const TempDir other;
  ASSERT_EQ(
      run_program({"-r", "cpu", "-s", "16", "-S", "9", "--format", "ppm", "rand10k"}, other.path())
          .status,
      0);
  EXPECT_EQ(render_test::read_file(dir.file("output_0000.ppm")),
            render_test::read_file(other.file("output_0000.ppm")));
}

// --gif writes the timed frames, and only those, as one animated GIF whose
// frames are the frames written as files.
TEST(Program, GifHoldsTheTimedFrames) {
  const TempDir dir;
  const ProgramRun run = run_program({"-r", "cpu", "-s", "48", "-b", "2:5", "--format", "ppm", "-f",
                                      dir.file("f"), "--gif", dir.file("a.gif"), "bouncingballs"});
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_TRUE(contains(run.out, "Wrote " + dir.file("a.gif") + " (3 frames)\n")) << run.out;
  const render_test::GifFile gif =
      render_test::decode_gif(render_test::read_file(dir.file("a.gif")));
  ASSERT_EQ(gif.frames.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    const std::vector<std::uint8_t> ppm =
        render_test::read_file(dir.file("f_000" + std::to_string(2 + i) + ".ppm"));
    const std::vector<std::uint8_t> pixels(ppm.end() - 48 * 48 * 3, ppm.end());
    EXPECT_EQ(gif.frames[static_cast<std::size_t>(i)].rgb, pixels) << "frame " << 2 + i;
  }
}

TEST(Program, UnwritableGifFailsBeforeRendering) {
  const TempDir dir;
  const std::string missing = dir.file("missing/a.gif");
  const ProgramRun run = run_program({"-r", "cpu", "-s", "8", "-f", "", "--gif", missing, "rgb"});
  expect_one_error_line(run, 1, "cannot write " + missing);
  EXPECT_FALSE(contains(run.out, "Running benchmark"));
}

// Without a display, or in a build without a window, -i says so in one line
// before any work.
TEST(Program, InteractiveWithoutADisplaySaysWhy) {
  const TempDir dir;
  const ProgramRun run = run_program({"-i", "-s", "8", "rgb"}, dir.path(), "env -u DISPLAY");
#ifdef RENDER_TESTS_HAVE_VIEWER
  expect_one_error_line(run, 1, "-i needs a display and DISPLAY is not set");
  expect_one_error_line(run_program({"-i", "-s", "8", "rgb"}, dir.path(), "env DISPLAY=:97.5"), 1,
                        "-i cannot open the display ':97.5'");
#else
  expect_one_error_line(run, 1, "this build has no display support for -i: install freeglut");
#endif
  EXPECT_TRUE(run.out.empty()) << run.out;
  EXPECT_TRUE(dir.files().empty());
}

// The window under a virtual display (Xvfb): frames START to END-1 of -b are
// shown, and the last one, read back from the window, is the frame the file
// output holds.
TEST(Program, InteractiveWindowShowsTheFrames) {
#ifndef RENDER_TESTS_HAVE_VIEWER
  GTEST_SKIP() << "this build has no window (freeglut not found at configure)";
#else
  if (std::system("command -v Xvfb > /dev/null 2>&1") != 0)
    GTEST_SKIP() << "Xvfb is not installed (Debian: xvfb)";
  const TempDir dir;
  const std::string shot = dir.file("shot.ppm");
  const std::vector<std::string> args = {"-r", "cpu", "-i", "-b", "30:34", "-s", "96", "fireworks"};
  const ProgramRun run =
      run_program(args, dir.path(), "env RENDER_SCREENSHOT=" + shot + " " + WITH_XVFB);
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_TRUE(contains(run.out, "Showing frames from 30 in a window")) << run.out;
  EXPECT_TRUE(contains(run.out, "Showed 4 frames")) << run.out;
  ASSERT_EQ(run_program({"-r", "cpuref", "-b", "33:34", "-s", "96", "--format", "ppm", "-f",
                         dir.file("file"), "fireworks"})
                .status,
            0);
  const std::vector<std::uint8_t> window = render_test::read_file(shot);
  ASSERT_FALSE(window.empty()) << "no screenshot";
  EXPECT_TRUE(window == render_test::read_file(dir.file("file_0033.ppm")))
      << "the window's last frame differs from frame 33's file";
  // The read-back needs a counted number of frames: refused before any work.
  const ProgramRun uncounted = run_program({"-r", "cpu", "-i", "-s", "96", "fireworks"}, dir.path(),
                                           "env RENDER_SCREENSHOT=" + shot + " " + WITH_XVFB);
  expect_one_error_line(uncounted, 1, "RENDER_SCREENSHOT reads back the last of a counted number");
  EXPECT_TRUE(uncounted.out.empty()) << uncounted.out;
#endif
}

TEST(Program, AutoSaysWhatItChoseAndWhy) {
  const TempDir dir;
  const ProgramRun run = run_program({"-s", "8", "-f", "", "rgb"}, dir.path());
  EXPECT_EQ(run.status, 0) << run.err;
  const render::RendererChoice choice = render::choose_renderer(render::RendererKind::Auto);
  EXPECT_TRUE(contains(run.out, std::string("Renderer: ") +
                                    render::renderer_kind_name(choice.kind) + " (" + choice.reason +
                                    ")\n"))
      << run.out;
}

TEST(Program, UsageErrorsExitTwoWithOneLine) {
  const TempDir dir;
  struct Case {
    std::vector<std::string> args;
    std::string says;
  };
  const std::vector<Case> cases = {
      {{}, "missing SCENE"},
      {{"nope"}, "valid scenes: rgb, rgby"},
      {{"-s", "0", "rgb"}, "allowed: 1 to 16384"},
      {{"-s", "-3", "rgb"}, "allowed: 1 to 16384"},
      {{"-s", "99999", "rgb"}, "allowed: 1 to 16384"},
      {{"-s", "abc", "rgb"}, "not a whole number"},
      {{"-b", "5:2", "rgb"}, "END must be greater than START"},
      {{"-b", "x", "rgb"}, "not START:END"},
      {{"-S", "abc", "rgb"}, "-S/--seed"},
      {{"-r", "gpu", "rgb"}, "valid renderers"},
      {{"--format", "jpg", "rgb"}, "valid formats"},
      {{"--what", "rgb"}, "unknown option"},
      {{"--list", "extra"}, "--list takes no SCENE (got 'extra')"},
      {{"--list=1"}, "--list takes no value"},
      {{"--", "-r"}, "unknown scene '-r'"},
      {{"--check-against", "ref.rgbaf", "-b", "0:2", "rgb"}, "--check-against checks one frame"},
      {{"-i", "-f", "x", "rgb"}, "-f does not go with it"},
      {{"--interactive-frames", "3", "rgb"}, "--interactive-frames goes with -i"},
      {{"-i", "-b", "0:3", "--interactive-frames", "3", "rgb"},
       "--interactive-frames does not go with it"},
      {{"--gif", "", "rgb"}, "--gif needs a file name"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.says);
    const ProgramRun run = run_program(c.args, dir.path());
    expect_one_error_line(run, 2, c.says);
    EXPECT_TRUE(contains(run.err, "(try --help)"));
    EXPECT_TRUE(run.out.empty()) << run.out;
  }
  EXPECT_TRUE(dir.files().empty());
}

TEST(Program, UnwritableOutputFailsBeforeRendering) {
  const TempDir dir;
  const std::string missing = dir.file("missing/out");
  // rand1M at 1024 with the serial reference would take seconds: the error
  // must come first.
  const ProgramRun run = run_program({"-r", "cpuref", "-f", missing, "rand1M"}, dir.path());
  expect_one_error_line(run, 1, "cannot write " + missing + "_0000.png: No such file");
  EXPECT_FALSE(contains(run.out, "Running benchmark"));
  EXPECT_TRUE(dir.files().empty());
  // A folder where the first frame's file would go.
  const std::string taken = dir.file("taken");
  ASSERT_EQ(run_program({"-r", "cpu", "-s", "4", "-f", taken, "rgb"}).status, 0);
  std::filesystem::remove(taken + "_0000.png");
  std::filesystem::create_directory(taken + "_0000.png");
  expect_one_error_line(run_program({"-r", "cpu", "-s", "4", "-f", taken, "rgb"}), 1,
                        "it is a folder");
}

TEST(Program, ChecksAgainstAStoredImage) {
  const TempDir dir;
  // Frame 2 of an animated scene, so the test sees which frame is compared.
  ASSERT_EQ(run_program({"-r", "cpuref", "-s", "24", "-b", "2:3", "--format", "rgbaf", "-f",
                         dir.file("ref"), "bouncingballs"})
                .status,
            0);
  const std::string ref = dir.file("ref_0002.rgbaf");
  const ProgramRun pass = run_program(
      {"-r", "cpu", "-s", "24", "-b", "2:3", "--check-against", ref, "-f", "", "bouncingballs"});
  EXPECT_EQ(pass.status, 0) << pass.err;
  EXPECT_TRUE(contains(pass.out, "Running benchmark, 1 frames, beginning at frame 2 ...\n"));
  EXPECT_TRUE(contains(pass.out,
                       "***************** Correctness check passed **************************\n"));
  EXPECT_TRUE(pass.err.empty()) << pass.err;
  // Frame 0 is another picture.
  const ProgramRun other =
      run_program({"-r", "cpu", "-s", "24", "--check-against", ref, "-f", "", "bouncingballs"});
  EXPECT_EQ(other.status, 1);
  EXPECT_TRUE(contains(other.out, "ERROR: correctness check failed\n")) << other.out;
  EXPECT_EQ(dir.files(), std::vector<std::string>{"ref_0002.rgbaf"});
}

// A stored reference image with one channel of one pixel changed by `error`.
std::string altered_reference(const TempDir& dir, const std::string& scene, float error) {
  const ProgramRun ref =
      run_program({"-r", "cpuref", "-s", "20", "--format", "rgbaf", "-f", dir.file(scene), scene});
  EXPECT_EQ(ref.status, 0) << ref.err;
  render::Image image = render::read_rgbaf(dir.file(scene + "_0000.rgbaf"));
  image.pixel(13, 4)[1] += error;
  const std::string path = dir.file(scene + "_altered.rgbaf");
  render::write_image(image, path, render::ImageFormat::Rgbaf);
  return path;
}

TEST(Program, CheckAgainstReportsTheAlteredPixel) {
  const TempDir dir;
  const std::string altered = altered_reference(dir, "rgb", 0.5f);
  const ProgramRun run =
      run_program({"-r", "cpu", "-s", "20", "--check-against", altered, "-f", "", "rgb"});
  EXPECT_EQ(run.status, 1);
  EXPECT_TRUE(contains(run.out, "Mismatch detected at pixel [13][4], value = ")) << run.out;
  EXPECT_TRUE(contains(run.out, "Frame 0: 1 mismatching pixels, max error 0.5 (tolerance 0)\n"))
      << run.out;
  EXPECT_TRUE(contains(run.out, "ERROR: correctness check failed\n"));
  EXPECT_FALSE(contains(run.out, "Correctness check passed"));
  // -f '' writes no files, pictures of the mismatch included.
  EXPECT_FALSE(contains(run.out, "Pictures of the mismatch")) << run.out;
  for (const std::string& f : dir.files()) EXPECT_EQ(f.find("_mismatch_"), std::string::npos) << f;
  EXPECT_TRUE(run.err.empty()) << run.err;
}

// With frames written, a failed check writes its pictures beside them and
// names them; with -f '' (no files) it writes none.
TEST(Program, FailedCheckWritesItsPicturesBesideTheFrames) {
  const TempDir dir;
  const std::string altered = altered_reference(dir, "rgb", 0.5f);
  const ProgramRun run = run_program(
      {"-r", "cpu", "-s", "20", "--check-against", altered, "-f", dir.file("o"), "rgb"});
  EXPECT_EQ(run.status, 1);
  EXPECT_TRUE(contains(run.out, "Pictures of the mismatch (the difference red): " +
                                    dir.file("o_mismatch_0000_yours.png") + ", " +
                                    dir.file("o_mismatch_0000_reference.png") + ", " +
                                    dir.file("o_mismatch_0000_difference.png") + "\n"))
      << run.out;
  const std::vector<std::string> files = dir.files();
  EXPECT_EQ(std::count_if(files.begin(), files.end(),
                          [](const std::string& f) { return f.rfind("o_mismatch_0000_", 0) == 0; }),
            3);
}

// The snow tolerance is for the GPU's expf: the CPU renderers share the
// reference's arithmetic, so on snow too they must match exactly.
TEST(Program, CheckAgainstIsExactForCpuRenderersOnSnow) {
  const TempDir dir;
  const ProgramRun close =
      run_program({"-r", "cpu", "-s", "20", "--check-against",
                   altered_reference(dir, "snowsingle", 5e-5f), "-f", "", "snowsingle"});
  EXPECT_EQ(close.status, 1) << close.out;
  EXPECT_TRUE(contains(close.out, "(tolerance 0)")) << close.out;
  const ProgramRun exact =
      run_program({"-r", "cpu", "-s", "20", "--check-against",
                   altered_reference(dir, "snowsingle", 0.f), "-f", "", "snowsingle"});
  EXPECT_EQ(exact.status, 0) << exact.out;
  EXPECT_TRUE(contains(exact.out, "Correctness check passed"));
}

// The CUDA renderer on snow may differ by up to kSnowTolerance per channel.
class ProgramOnGpu : public GpuTest {};

TEST_F(ProgramOnGpu, CheckAgainstAllowsTheSnowToleranceForCuda) {
  const TempDir dir;
  const ProgramRun close =
      run_program({"-r", "cuda", "-s", "20", "--check-against",
                   altered_reference(dir, "snowsingle", 5e-5f), "-f", "", "snowsingle"});
  EXPECT_EQ(close.status, 0) << close.out;
  EXPECT_TRUE(contains(close.out, "Largest error: ")) << close.out;
  EXPECT_TRUE(contains(close.out, "Correctness check passed"));
  const ProgramRun far =
      run_program({"-r", "cuda", "-s", "20", "--check-against",
                   altered_reference(dir, "snowsingle", 1e-3f), "-f", "", "snowsingle"});
  EXPECT_EQ(far.status, 1);
  EXPECT_TRUE(contains(far.out, "(tolerance 0.0001)")) << far.out;
}

// The circles rung is wrong on purpose where circles overlap, in a way that
// depends on how its threads ran: the check must judge it, passed (0) or a
// reported mismatch (1), never a crash. The exact rungs pass.
TEST_F(ProgramOnGpu, EveryLadderRungRunsUnderTheCheck) {
  const ProgramRun circles =
      run_program({"-r", "cuda", "--cuda-mode", "circles", "-s", "256", "-c", "-f", "", "rgb"});
  EXPECT_TRUE(circles.status == 0 || circles.status == 1) << circles.status << circles.err;
  EXPECT_TRUE(contains(circles.out, circles.status == 0 ? "Correctness check passed"
                                                        : "Mismatch detected at pixel"))
      << circles.out;
  for (const char* mode : {"pixels", "tiles", "classic"}) {
    const ProgramRun exact =
        run_program({"-r", "cuda", "--cuda-mode", mode, "-s", "77", "-c", "-f", "", "rand10k"});
    EXPECT_EQ(exact.status, 0) << mode << ": " << exact.out << exact.err;
    EXPECT_TRUE(contains(exact.out, "Correctness check passed")) << mode;
  }
}

TEST(Program, CheckAgainstABadFileFailsBeforeRendering) {
  const TempDir dir;
  ASSERT_EQ(
      run_program({"-r", "cpuref", "-s", "16", "--format", "rgbaf", "-f", dir.file("ref"), "rgb"})
          .status,
      0);
  const std::string ref = dir.file("ref_0000.rgbaf");
  const ProgramRun size =
      run_program({"-r", "cpu", "-s", "24", "--check-against", ref, "-f", "", "rgb"});
  expect_one_error_line(size, 1, ref + " is 16x16 pixels, the render is 24x24");
  EXPECT_FALSE(contains(size.out, "Running benchmark"));
  const std::string missing = dir.file("missing.rgbaf");
  expect_one_error_line(
      run_program({"-r", "cpu", "-s", "16", "--check-against", missing, "-f", "", "rgb"}), 1,
      "cannot read " + missing + ": No such file");
  ASSERT_EQ(run_program({"-r", "cpu", "-s", "16", "-f", dir.file("pic"), "rgb"}).status, 0);
  const std::string png = dir.file("pic_0000.png");
  expect_one_error_line(
      run_program({"-r", "cpu", "-s", "16", "--check-against", png, "-f", "", "rgb"}), 1,
      "cannot read " + png + ": not an RGBAF image");
  EXPECT_EQ(dir.files(), (std::vector<std::string>{"pic_0000.png", "ref_0000.rgbaf"}));
}

TEST(Program, RendersSceneFiles) {
  const TempDir dir;
  // A named scene saved to a file renders to the same bytes as the scene.
  scenes::save_scene(scenes::load_scene("rgby"), dir.file("rgby.scene"));
  ASSERT_EQ(run_program({"-r", "cpu", "-s", "40", "-f", dir.file("named"), "rgby"}).status, 0);
  const ProgramRun run = run_program({"-r", "cpu", "-s", "40", "-c", "-f", dir.file("file"),
                                      "--scene-file", dir.file("rgby.scene")});
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_TRUE(contains(run.out, "Scene: rgby, 4 circles, 40x40 pixels")) << run.out;
  EXPECT_TRUE(contains(run.out, "Correctness check passed"));
  EXPECT_EQ(render_test::read_file(dir.file("file_0000.png")),
            render_test::read_file(dir.file("named_0000.png")));
  // A hand-made scene.
  scenes::save_scene(render_test::make_scene({{0.5f, 0.5f, 0.f, 0.3f, 1.f, 0.f, 0.f}}),
                     dir.file("one.scene"));
  const ProgramRun one =
      run_program({"-r", "cpuref", "-s", "8", "-f", "", "--scene-file", dir.file("one.scene")});
  EXPECT_EQ(one.status, 0) << one.err;
  EXPECT_TRUE(contains(one.out, "Scene: handmade, 1 circles")) << one.out;
}

// --first N draws the scene's first N circles: the same image as a scene
// file holding only those circles, and the check still passes.
TEST(Program, FirstKeepsTheFirstCircles) {
  const TempDir dir;
  scenes::Scene first = scenes::load_scene("fireworks");
  scenes::keep_first(first, 40); // the 15 shells and 25 sparks
  scenes::save_scene(first, dir.file("first.scene"));
  const ProgramRun cut = run_program({"-r", "cpu", "-s", "48", "-b", "0:3", "-c", "-f",
                                      dir.file("cut"), "--first", "40", "fireworks"});
  EXPECT_EQ(cut.status, 0) << cut.err;
  EXPECT_TRUE(contains(cut.out, "40 circles")) << cut.out;
  EXPECT_TRUE(contains(cut.out, "Correctness check passed"));
  ASSERT_EQ(run_program({"-r", "cpu", "-s", "48", "-b", "0:3", "-f", dir.file("file"),
                         "--scene-file", dir.file("first.scene")})
                .status,
            0);
  EXPECT_EQ(render_test::read_file(dir.file("cut_0002.png")),
            render_test::read_file(dir.file("file_0002.png")));
  // More than the scene holds keeps them all.
  const ProgramRun all = run_program({"-r", "cpu", "-s", "16", "-f", "", "--first", "1000", "rgb"});
  EXPECT_EQ(all.status, 0) << all.err;
  EXPECT_TRUE(contains(all.out, "rgb, 3 circles")) << all.out;
}

TEST(Program, BadSceneFilesFailWithOneLine) {
  const TempDir dir;
  const std::string missing = dir.file("missing.scene");
  expect_one_error_line(run_program({"-s", "8", "-f", "", "--scene-file", missing}), 1, missing);
  const std::string bad = dir.file("bad.scene");
  std::ofstream(bad) << "this is not a scene file\n";
  const ProgramRun run = run_program({"-s", "8", "--scene-file", bad}, dir.path());
  expect_one_error_line(run, 1, bad);
  EXPECT_EQ(dir.files(), std::vector<std::string>{"bad.scene"}); // no image written
}

TEST(Program, CudaWithoutADeviceFailsClearly) {
  if (common::has_cuda_device()) GTEST_SKIP() << "the CUDA renderer can run here";
  const TempDir dir;
  const ProgramRun run = run_program({"-r", "cuda", "-s", "8", "rgb"}, dir.path());
  EXPECT_EQ(run.status, 1);
  EXPECT_TRUE(contains(run.err, "no CUDA device available")) << run.err;
  EXPECT_TRUE(dir.files().empty());
}

} // namespace
