// The frame loop: the course's printed report, frame ranges, written files,
// and the correctness check passing and failing.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>

#include "render/check.h"
#include "render/cpu_renderer.h"
#include "render/frame_loop.h"
#include "render/ref_renderer.h"
#include "test_util.h"

namespace {

using render::FrameLoopOptions;
using render::FrameLoopResult;
using render::RefRenderer;
using render_test::TempDir;

// A reference renderer whose image is off by `error` in one channel of one
// pixel: what the check must catch (or tolerate).
class OffByRenderer : public RefRenderer {
public:
  OffByRenderer(int x, int y, float error) : x_(x), y_(y), error_(error) {}
  const render::Image& image() override {
    copy_ = RefRenderer::image();
    copy_.pixel(x_, y_)[1] += error_;
    return copy_;
  }

private:
  int x_, y_;
  float error_;
  render::Image copy_;
};

// Counts how often the loop fetches the image.
class CountingRenderer : public RefRenderer {
public:
  const render::Image& image() override {
    ++fetches;
    return RefRenderer::image();
  }
  int fetches = 0;
};

struct LoopRun {
  FrameLoopResult result;
  std::string out;
  std::string err;
};

LoopRun run_loop(render::Renderer& renderer, const FrameLoopOptions& options) {
  std::ostringstream out;
  std::ostringstream err;
  LoopRun run;
  run.result = render::run_frame_loop(renderer, options, out, err);
  run.out = out.str();
  run.err = err.str();
  return run;
}

const char* const kNumber = "[0-9]+\\.[0-9]{4}";

std::string timing_lines(bool file_io) {
  std::string s = std::string("Clear:    ") + kNumber + " ms\n" + "Advance:  " + kNumber +
                  " ms\nRender:   " + kNumber + " ms\nTotal:    " + kNumber + " ms\n";
  if (file_io) s += std::string("File IO:  ") + kNumber + " ms\n";
  return s + "\nOverall:  " + kNumber + " sec \\(note units are seconds\\)\n";
}

TEST(FrameLoop, PrintsTheCourseReport) {
  RefRenderer ref;
  ref.setup(scenes::load_scene("rgb"), 16, 16);
  FrameLoopOptions options;
  options.end_frame = 2;
  const LoopRun run = run_loop(ref, options);
  const std::regex expected("\nRunning benchmark, 2 frames, beginning at frame 0 \\.\\.\\.\n" +
                            timing_lines(false));
  EXPECT_TRUE(std::regex_match(run.out, expected)) << run.out;
  EXPECT_TRUE(run.err.empty());
  EXPECT_FALSE(run.result.checked);
  EXPECT_DOUBLE_EQ(run.result.total_ms,
                   run.result.clear_ms + run.result.advance_ms + run.result.render_ms);
}

// Writing and checking a frame fetch its image once (for the CUDA renderer,
// one copy from the device).
TEST(FrameLoop, WritingAndCheckingFetchTheImageOnce) {
  const TempDir dir;
  const scenes::Scene scene = scenes::load_scene("bouncingballs");
  CountingRenderer counting;
  RefRenderer ref;
  counting.setup(scene, 12, 12);
  ref.setup(scene, 12, 12);
  FrameLoopOptions options;
  options.start_frame = 1;
  options.end_frame = 4;
  options.file_prefix = dir.file("f");
  options.reference = &ref;
  const LoopRun run = run_loop(counting, options);
  EXPECT_TRUE(run.result.check_passed) << run.out;
  EXPECT_EQ(counting.fetches, 3);
}

// A path longer than any fixed line buffer is printed whole.
TEST(FrameLoop, LongPathsArePrintedWhole) {
  const TempDir dir;
  std::string folder = dir.file("");
  for (int level = 0; level < 6; ++level) folder += std::string(200, 'a' + level) + "/";
  std::filesystem::create_directories(folder);
  RefRenderer ref;
  ref.setup(scenes::load_scene("rgb"), 4, 4);
  FrameLoopOptions options;
  options.file_prefix = folder + "f";
  options.format = render::ImageFormat::Ppm;
  const LoopRun run = run_loop(ref, options);
  EXPECT_NE(run.out.find("Wrote " + folder + "f_0000.ppm\n"), std::string::npos) << run.out;
}

TEST(FrameLoop, WritesTimedFramesOnly) {
  const TempDir dir;
  render::CpuRenderer cpu;
  cpu.setup(scenes::load_scene("bouncingballs"), 20, 20);
  FrameLoopOptions options;
  options.start_frame = 2;
  options.end_frame = 4;
  options.file_prefix = dir.file("f");
  options.format = render::ImageFormat::Ppm;
  const LoopRun run = run_loop(cpu, options);
  const std::string p = dir.file("f");
  const std::regex expected("\nRunning benchmark, 2 frames, beginning at frame 2 \\.\\.\\.\n"
                            "Dumping frames to " +
                            p +
                            "_xxx\\.ppm\n"
                            "Wrote " +
                            p + "_0002\\.ppm\nWrote " + p + "_0003\\.ppm\n" + timing_lines(true));
  EXPECT_TRUE(std::regex_match(run.out, expected)) << run.out;
  EXPECT_EQ(dir.files(), (std::vector<std::string>{"f_0002.ppm", "f_0003.ppm"}));
}

// Frames before START are only advanced; on_frame sees each timed frame
// once, in order.
TEST(FrameLoop, SkippedFramesStillAdvance) {
  // Frame 5 from -b 5:7 is the image after six advances.
  const scenes::Scene balls = scenes::load_scene("bouncingballs");
  RefRenderer looped;
  looped.setup(balls, 32, 32);
  FrameLoopOptions options;
  options.start_frame = 5;
  options.end_frame = 7;
  std::vector<render::Image> seen;
  options.on_frame = [&](const render::Image& image) { seen.push_back(image); };
  run_loop(looped, options);
  ASSERT_EQ(seen.size(), 2u);
  RefRenderer by_hand;
  by_hand.setup(balls, 32, 32);
  for (int i = 0; i < 6; ++i) by_hand.advance();
  by_hand.clear();
  by_hand.render();
  EXPECT_TRUE(render_test::same_bits(seen[0], by_hand.image()));
  // And it differs from frame 0, so the test can tell.
  RefRenderer first;
  first.setup(balls, 32, 32);
  run_loop(first, FrameLoopOptions{});
  EXPECT_FALSE(render_test::same_bits(first.image(), by_hand.image()));
  by_hand.clear();
  by_hand.advance();
  by_hand.render();
  EXPECT_TRUE(render_test::same_bits(seen[1], by_hand.image()));
  EXPECT_TRUE(render_test::same_bits(looped.image(), by_hand.image()));
}

TEST(FrameLoop, CheckPasses) {
  const scenes::Scene scene = scenes::load_scene("hypnosis");
  render::CpuRenderer cpu;
  RefRenderer ref;
  cpu.setup(scene, 40, 40);
  ref.setup(scene, 40, 40);
  FrameLoopOptions options;
  options.end_frame = 3;
  options.reference = &ref;
  const LoopRun run = run_loop(cpu, options);
  EXPECT_TRUE(run.result.checked);
  EXPECT_TRUE(run.result.check_passed);
  EXPECT_NE(run.out.find("Overall:  "), std::string::npos);
  EXPECT_TRUE(run.out.size() > 70 &&
              run.out.substr(run.out.size() - 70) ==
                  "***************** Correctness check passed **************************\n")
      << run.out;
}

// A renderer one channel off at pixel (5, 3) of rgb at 8x8, and the
// reference, both set up.
struct OneWrongPixel {
  OneWrongPixel() {
    wrong.setup(scene, 8, 8);
    ref.setup(scene, 8, 8);
  }
  scenes::Scene scene = scenes::load_scene("rgb");
  OffByRenderer wrong{5, 3, 1e-6f};
  RefRenderer ref;
};

TEST(FrameLoop, CheckFailsOnOneWrongChannel) {
  OneWrongPixel one;
  FrameLoopOptions options;
  options.end_frame = 2;
  options.reference = &one.ref;
  const LoopRun run = run_loop(one.wrong, options);
  EXPECT_FALSE(run.result.check_passed);
  EXPECT_NE(run.out.find("Mismatch detected at pixel [5][3], value = "), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("Frame 0: 1 mismatching pixels"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("ERROR: correctness check failed\n"), std::string::npos);
  EXPECT_EQ(run.out.find("Correctness check passed"), std::string::npos);
  EXPECT_EQ(run.out.find("Clear:"), std::string::npos); // stopped at the failing frame
}

// A failed check with a picture prefix writes what was drawn, the
// reference and where they differ (red), and names the files.
TEST(FrameLoop, FailedCheckWritesPictures) {
  OneWrongPixel one;
  const TempDir dir;
  FrameLoopOptions options;
  options.reference = &one.ref;
  options.mismatch_prefix = dir.file("m");
  const LoopRun run = run_loop(one.wrong, options);
  EXPECT_FALSE(run.result.check_passed);
  EXPECT_NE(run.out.find("Pictures of the mismatch (the difference red): " +
                         dir.file("m_0000_yours.png") + ", " + dir.file("m_0000_reference.png") +
                         ", " + dir.file("m_0000_difference.png") + "\n"),
            std::string::npos)
      << run.out;
  EXPECT_EQ(dir.files(), (std::vector<std::string>{"m_0000_difference.png", "m_0000_reference.png",
                                                   "m_0000_yours.png"}));
}

// A picture that cannot be written is said; the check's verdict stands.
TEST(FrameLoop, PicturesThatCannotBeWrittenAreSaid) {
  OneWrongPixel one;
  FrameLoopOptions options;
  options.reference = &one.ref;
  options.mismatch_prefix = "/nonexistent-folder/m";
  const LoopRun run = run_loop(one.wrong, options);
  EXPECT_FALSE(run.result.check_passed);
  EXPECT_NE(run.out.find("Could not write the pictures of the mismatch: "), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("ERROR: correctness check failed\n"), std::string::npos);
}

TEST(FrameLoop, ToleranceForSnow) {
  scenes::Scene scene = scenes::load_scene("rgb");
  scene.snow = true;
  EXPECT_EQ(render::check_tolerance(scene, render::RendererKind::Cuda), render::kSnowTolerance);
  EXPECT_EQ(render::check_tolerance(scene, render::RendererKind::Cpu), 0.f);
  EXPECT_EQ(render::check_tolerance(scene, render::RendererKind::CpuRef), 0.f);
  EXPECT_EQ(render::check_tolerance(scenes::load_scene("rgb"), render::RendererKind::Cuda), 0.f);
  for (const float error : {5e-5f, 3e-4f}) {
    OffByRenderer off(1, 1, error);
    RefRenderer ref;
    off.setup(scene, 8, 8);
    ref.setup(scene, 8, 8);
    FrameLoopOptions options;
    options.reference = &ref;
    options.tolerance = render::kSnowTolerance;
    const LoopRun run = run_loop(off, options);
    EXPECT_EQ(run.result.check_passed, error < render::kSnowTolerance) << error;
    EXPECT_NEAR(run.result.max_check_error, error, 1e-6);
    if (run.result.check_passed) {
      EXPECT_NE(run.out.find("Largest error: "), std::string::npos) << run.out;
    }
  }
}

// The check against a stored image: one frame, the same lines as with a
// reference renderer.
TEST(FrameLoop, ExpectedImagePassesAndFails) {
  const scenes::Scene scene = scenes::load_scene("bouncingballs");
  RefRenderer frame3;
  frame3.setup(scene, 16, 16);
  FrameLoopOptions at3;
  at3.start_frame = 3;
  at3.end_frame = 4;
  run_loop(frame3, at3);
  render::Image expected = frame3.image();

  render::CpuRenderer cpu;
  cpu.setup(scene, 16, 16);
  FrameLoopOptions options = at3;
  options.expected_image = &expected;
  const LoopRun pass = run_loop(cpu, options);
  EXPECT_TRUE(pass.result.checked);
  EXPECT_TRUE(pass.result.check_passed);
  EXPECT_NE(pass.out.find("Overall:  "), std::string::npos);
  EXPECT_NE(pass.out.find("***************** Correctness check passed"), std::string::npos);

  expected.pixel(2, 7)[3] += 0.25f;
  render::CpuRenderer again;
  again.setup(scene, 16, 16);
  const LoopRun fail = run_loop(again, options);
  EXPECT_FALSE(fail.result.check_passed);
  EXPECT_NE(fail.out.find("Mismatch detected at pixel [2][7], value = "), std::string::npos)
      << fail.out;
  EXPECT_NE(fail.out.find("Frame 3: 1 mismatching pixels, max error 0.25 (tolerance 0)"),
            std::string::npos)
      << fail.out;
  EXPECT_NE(fail.out.find("ERROR: correctness check failed\n"), std::string::npos);
  EXPECT_EQ(fail.out.find("Clear:"), std::string::npos);
}

TEST(FrameLoop, ExpectedImageWithinTheSnowTolerance) {
  scenes::Scene scene = scenes::load_scene("rgb");
  scene.snow = true;
  RefRenderer ref;
  ref.setup(scene, 8, 8);
  run_loop(ref, FrameLoopOptions{});
  render::Image expected = ref.image();
  expected.pixel(1, 1)[0] += 5e-5f;
  RefRenderer same;
  same.setup(scene, 8, 8);
  FrameLoopOptions options;
  options.expected_image = &expected;
  options.tolerance = render::kSnowTolerance;
  const LoopRun run = run_loop(same, options);
  EXPECT_TRUE(run.result.check_passed);
  EXPECT_NEAR(run.result.max_check_error, 5e-5, 1e-6);
  EXPECT_NE(run.out.find("Largest error: "), std::string::npos) << run.out;
}

TEST(FrameLoop, ExpectedImageChecksExactlyOneFrame) {
  RefRenderer ref;
  ref.setup(scenes::load_scene("rgb"), 4, 4);
  const render::Image expected(4, 4);
  FrameLoopOptions options;
  options.expected_image = &expected;
  options.end_frame = 2;
  std::ostringstream sink;
  EXPECT_THROW(render::run_frame_loop(ref, options, sink, sink), std::invalid_argument);
  RefRenderer other;
  other.setup(scenes::load_scene("rgb"), 4, 4);
  options.end_frame = 1;
  options.reference = &other;
  EXPECT_THROW(render::run_frame_loop(ref, options, sink, sink), std::invalid_argument);
  EXPECT_TRUE(sink.str().empty());
}

// A renderer slow enough to make a run "long".
class SlowRenderer : public RefRenderer {
public:
  void render() override {
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
    RefRenderer::render();
  }
};

TEST(FrameLoop, LongRunsReportProgressOnStderrOnly) {
  SlowRenderer slow;
  slow.setup(scenes::load_scene("rgb"), 4, 4);
  FrameLoopOptions options;
  options.end_frame = 4;
  const LoopRun run = run_loop(slow, options);
  EXPECT_NE(run.err.find("render: frame 3 of 4 done ("), std::string::npos) << run.err;
  EXPECT_EQ(run.err.find("frame 4 of 4"), std::string::npos) << run.err; // the report follows
  EXPECT_EQ(run.out.find("render: frame"), std::string::npos) << run.out;
}

TEST(FrameLoop, RejectsEmptyRanges) {
  RefRenderer ref;
  ref.setup(scenes::load_scene("rgb"), 4, 4);
  FrameLoopOptions options;
  options.start_frame = 3;
  options.end_frame = 3;
  std::ostringstream sink;
  EXPECT_THROW(render::run_frame_loop(ref, options, sink, sink), std::invalid_argument);
}

TEST(FrameLoop, FileErrorsPropagate) {
  RefRenderer ref;
  ref.setup(scenes::load_scene("rgb"), 4, 4);
  FrameLoopOptions options;
  options.file_prefix = "/nonexistent-folder-for-render-tests/out";
  std::ostringstream sink;
  EXPECT_THROW(render::run_frame_loop(ref, options, sink, sink), std::runtime_error);
}

} // namespace
