// The frame loop of the course's benchmark (-b START:END): run frames,
// time each phase, optionally write every frame and check it against a
// reference renderer, and print the course's report.
#pragma once

#include <functional>
#include <ostream>
#include <string>

#include "render/image_io.h"
#include "render/renderer.h"

namespace render {

struct FrameLoopOptions {
  // Frames [start_frame, end_frame) are timed; earlier ones are only advanced
  // (the image of a frame does not depend on earlier images).
  int start_frame = 0;
  int end_frame = 1;
  // Write each timed frame to frame_file_name(file_prefix, ...); empty: none.
  std::string file_prefix;
  ImageFormat format = ImageFormat::Png;
  // When set, it renders every timed frame too (untimed) and each image must
  // match its image within `tolerance` per channel.
  Renderer* reference = nullptr;
  // Instead of a reference renderer: the expected image of the one timed
  // frame (a stored reference image stands for one frame only, so the range
  // must hold exactly one frame).
  const Image* expected_image = nullptr;
  float tolerance = 0;
  // When set, a failed check writes pictures of the frame (image_io.h's
  // write_mismatch_pictures) as PREFIX_NNNN_yours.png and so on, and names
  // them; a picture that cannot be written is said, and changes nothing.
  std::string mismatch_prefix;
  // When set, called with each timed frame's image once it is written and
  // checked (e.g. to add it to an animated GIF); its time is not counted.
  std::function<void(const Image&)> on_frame;
};

struct FrameLoopResult {
  // Averages per timed frame, in milliseconds.
  double clear_ms = 0;
  double advance_ms = 0;
  double render_ms = 0;
  double total_ms = 0; // clear + advance + render
  double file_ms = 0;
  // Wall time of the timed frames including file writes, excluding the check.
  double overall_s = 0;
  bool checked = false;
  bool check_passed = true;
  double max_check_error = 0; // over every checked frame
};

// Runs the frames on renderers already set up, printing to `out` the course's
// lines:
//   "\nRunning benchmark, N frames, beginning at frame S ...\n"
//   "Dumping frames to PREFIX_xxx.EXT\n"                (when writing)
//   "Wrote PREFIX_0000.EXT\n"                           (per frame written)
//   "Clear:    %.4f ms\n" "Advance:  %.4f ms\n" "Render:   %.4f ms\n"
//   "Total:    %.4f ms\n" "File IO:  %.4f ms\n"         (File IO when writing)
//   "\nOverall:  %.4f sec (note units are seconds)\n"
// and with a reference or an expected image, either the course's pass line
// or the first mismatch and "ERROR: correctness check failed" (the loop
// stops at that frame; check_passed is false). Progress goes to `progress`
// once a run has taken more than a second. Renderer and file errors propagate
// as exceptions; std::invalid_argument for an empty range, or for both
// reference and expected_image, or expected_image with more than one frame.
FrameLoopResult run_frame_loop(Renderer& renderer, const FrameLoopOptions& options,
                               std::ostream& out, std::ostream& progress);

} // namespace render
