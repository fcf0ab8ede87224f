#include "render/frame_loop.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "common/timer.h"
#include "render/check.h"
#include "render/image_io.h"

namespace render {

namespace {

// printf into a stream, for the course's exact number formats.
void print(std::ostream& out, const char* format, ...) __attribute__((format(printf, 2, 3)));
void print(std::ostream& out, const char* format, ...) {
  va_list args, again;
  va_start(args, format);
  va_copy(again, args);
  // Sized first, so that a long path is never cut short.
  const int length = std::vsnprintf(nullptr, 0, format, args);
  va_end(args);
  std::string line(static_cast<std::size_t>(std::max(length, 0)) + 1, '\0');
  std::vsnprintf(line.data(), line.size(), format, again);
  va_end(again);
  line.pop_back();
  out << line;
}

// The pictures of a frame that failed its check, named on `out`.
void write_pictures(const Image& actual, const Image& expected, float tolerance,
                    const std::string& prefix, int frame, std::ostream& out) {
  char number[16];
  std::snprintf(number, sizeof number, "_%04d", frame);
  try {
    std::string names;
    for (const std::string& path :
         write_mismatch_pictures(actual, expected, tolerance, prefix + number))
      names += (names.empty() ? "" : ", ") + path;
    out << "Pictures of the mismatch (the difference red): " << names << "\n";
  } catch (const std::exception& e) {
    out << "Could not write the pictures of the mismatch: " << e.what() << "\n";
  }
}

// Reports progress on long runs only: the first line after a second, then at
// most one line a second, so short runs print nothing.
class Progress {
public:
  Progress(std::ostream& out, int frames) : out_(out), frames_(frames) {}
  void frame_done(int frame) {
    if (frame + 1 >= frames_) return; // the report follows at once
    const double s = clock_.elapsed_ms() / 1000.0;
    if (s < next_report_s_) return;
    print(out_, "render: frame %d of %d done (%.1f s)\n", frame + 1, frames_, s);
    out_.flush();
    next_report_s_ = s + 1.0;
  }

private:
  std::ostream& out_;
  int frames_;
  common::Stopwatch clock_;
  double next_report_s_ = 1.0;
};

// Times one call, adding to `total_ms`.
template <class Fn> void timed(double& total_ms, Fn&& fn) {
  const common::Stopwatch watch;
  fn();
  total_ms += watch.elapsed_ms();
}

} // namespace

FrameLoopResult run_frame_loop(Renderer& renderer, const FrameLoopOptions& options,
                               std::ostream& out, std::ostream& progress_out) {
  if (options.start_frame < 0 || options.end_frame <= options.start_frame)
    throw std::invalid_argument("frame range must satisfy 0 <= START < END");
  const int frames = options.end_frame - options.start_frame;
  if (options.expected_image && (options.reference || frames != 1))
    throw std::invalid_argument(
        "an expected image checks exactly one frame, without a reference renderer");
  const bool writing = !options.file_prefix.empty();
  Renderer* reference = options.reference;
  const bool checking = reference || options.expected_image;

  print(out, "\nRunning benchmark, %d frames, beginning at frame %d ...\n", frames,
        options.start_frame);
  if (writing)
    print(out, "Dumping frames to %s_xxx.%s\n", options.file_prefix.c_str(),
          image_format_name(options.format));
  out.flush();

  FrameLoopResult result;
  result.checked = checking;
  Progress progress(progress_out, options.end_frame);
  double check_ms = 0; // the check and on_frame, left out of the overall time
  common::Stopwatch overall;
  for (int frame = 0; frame < options.end_frame; ++frame) {
    if (frame < options.start_frame) {
      renderer.advance();
      if (reference) reference->advance();
      progress.frame_done(frame);
      continue;
    }
    if (frame == options.start_frame) overall.restart();
    timed(result.clear_ms, [&] { renderer.clear(); });
    timed(result.advance_ms, [&] { renderer.advance(); });
    timed(result.render_ms, [&] { renderer.render(); });
    // The frame is fetched once (for the CUDA renderer, a copy from the
    // device) and serves both the file and the check.
    const Image* image = nullptr;
    if (writing) {
      const std::string path = frame_file_name(options.file_prefix, frame, options.format);
      timed(result.file_ms, [&] {
        image = &renderer.image();
        write_image(*image, path, options.format);
      });
      print(out, "Wrote %s\n", path.c_str());
    }
    if (checking) {
      const common::Stopwatch check;
      if (!image) image = &renderer.image();
      if (reference) {
        reference->clear();
        reference->advance();
        reference->render();
      }
      const Image& expected = reference ? reference->image() : *options.expected_image;
      const ImageComparison comparison = compare_images(*image, expected, options.tolerance);
      result.max_check_error = std::max(result.max_check_error, comparison.max_error);
      check_ms += check.elapsed_ms();
      if (!comparison.passed()) {
        print_mismatch(comparison, frame, options.tolerance, out);
        if (!options.mismatch_prefix.empty())
          write_pictures(*image, expected, options.tolerance, options.mismatch_prefix, frame, out);
        out << "ERROR: correctness check failed\n";
        result.check_passed = false;
        return result;
      }
    }
    if (options.on_frame) {
      const common::Stopwatch extra;
      options.on_frame(image ? *image : renderer.image());
      check_ms += extra.elapsed_ms();
    }
    progress.frame_done(frame);
  }
  result.overall_s = (overall.elapsed_ms() - check_ms) / 1000.0;

  result.clear_ms /= frames;
  result.advance_ms /= frames;
  result.render_ms /= frames;
  result.file_ms /= frames;
  result.total_ms = result.clear_ms + result.advance_ms + result.render_ms;
  print(out, "Clear:    %.4f ms\n", result.clear_ms);
  print(out, "Advance:  %.4f ms\n", result.advance_ms);
  print(out, "Render:   %.4f ms\n", result.render_ms);
  print(out, "Total:    %.4f ms\n", result.total_ms);
  if (writing) print(out, "File IO:  %.4f ms\n", result.file_ms);
  print(out, "\nOverall:  %.4f sec (note units are seconds)\n", result.overall_s);
  if (checking) {
    if (options.tolerance > 0)
      print(out, "Largest error: %.3g (allowed: %g per channel)\n", result.max_check_error,
            static_cast<double>(options.tolerance));
    out << "***************** Correctness check passed **************************\n";
  }
  out.flush();
  return result;
}

} // namespace render
