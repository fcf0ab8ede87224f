// The render program's command line: parsing into Options and the help text.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "render/cuda_mode.h"
#include "render/image_io.h"
#include "render/renderer_factory.h"

namespace render_app {

constexpr int kDefaultSize = 1024;
constexpr int kMaxFrames = 1000000;

struct Options {
  bool help = false;
  bool list = false;
  std::string scene;      // a scene name, or empty with scene_file
  std::string scene_file; // --scene-file PATH
  render::RendererKind renderer = render::RendererKind::Auto;
  render::CudaMode cuda_mode = render::CudaMode::Auto; // --cuda-mode, for -r cuda
  bool cuda_mode_given = false; // said on stderr when -r auto falls back to the CPU
  int size = kDefaultSize;
  int start_frame = 0;
  int end_frame = 1;
  bool bench_given = false; // -b was given: with -i its END closes the window
  bool check = false;
  std::string check_against;          // --check-against FILE: sets check too
  std::string file_prefix = "output"; // empty: write no frames
  std::uint32_t seed = 0;
  std::int64_t first = -1; // --first N: keep the scene's first N circles; -1: all
  render::ImageFormat format = render::ImageFormat::Png;
  bool interactive = false;   // -i: show the frames in a window
  int interactive_frames = 0; // close after N (--interactive-frames N or -b); 0: when closed
  std::string gif_file;       // --gif FILE: the timed frames as one animated GIF
};

// Parses the arguments after the program name. Throws common::UsageError
// with one line naming the option and what is wrong.
Options parse_options(const std::vector<std::string>& args);

// The --help text.
std::string usage_text();

} // namespace render_app
