#include "options.h"

#include <algorithm>
#include <stdexcept>

#include "common/cli.h"
#include "scenes/scene.h"

namespace render_app {

namespace {

// START:END, both frame numbers, START < END.
void parse_frame_range(const std::string& text, Options& options) {
  const std::string what = "-b/--bench";
  const std::size_t colon = text.find(':');
  if (colon == std::string::npos)
    throw common::UsageError(what + ": '" + text + "' is not START:END (e.g. 0:10)");
  options.start_frame = static_cast<int>(
      common::parse_int(text.substr(0, colon), what + " START", 0, kMaxFrames - 1));
  options.end_frame =
      static_cast<int>(common::parse_int(text.substr(colon + 1), what + " END", 1, kMaxFrames));
  if (options.end_frame <= options.start_frame)
    throw common::UsageError(what + ": END must be greater than START (got " + text + ")");
}

// Converts a library parse error into a usage error for the option.
template <class T, class Parse>
T parse_choice(const std::string& option, const std::string& text, Parse parse) {
  try {
    return parse(text);
  } catch (const std::invalid_argument& e) {
    throw common::UsageError(option + ": " + e.what());
  }
}

// Splits "--name=value" and "-xVALUE" forms; `value` is set when attached.
struct Split {
  std::string name;
  std::string value;
  bool attached = false;
};

Split split_option(const std::string& arg) {
  Split s;
  if (arg.rfind("--", 0) == 0) {
    const std::size_t eq = arg.find('=');
    s.name = arg.substr(0, eq);
    if (eq != std::string::npos) {
      s.value = arg.substr(eq + 1);
      s.attached = true;
    }
  } else {
    s.name = arg.substr(0, 2);
    if (arg.size() > 2) {
      s.value = arg.substr(2);
      s.attached = true;
    }
  }
  return s;
}

// -i shows frames and writes nothing: options about files and checks are
// refused rather than silently ignored. -b START:END means frames START to
// END-1 there as it does in the bench, so the window closes after them.
void check_interactive(const std::string& output_option, Options& options) {
  if (options.interactive_frames > 0 && !options.interactive)
    throw common::UsageError("--interactive-frames goes with -i");
  if (!options.interactive) return;
  if (!output_option.empty())
    throw common::UsageError("-i shows frames in a window; " + output_option +
                             " does not go with it");
  options.file_prefix.clear();
  if (options.bench_given) {
    if (options.interactive_frames > 0)
      throw common::UsageError("-i with -b START:END shows frames START to END-1; "
                               "--interactive-frames does not go with it");
    options.interactive_frames = options.end_frame - options.start_frame;
  }
}

} // namespace

Options parse_options(const std::vector<std::string>& args) {
  Options options;
  std::vector<std::string> positional;
  bool options_ended = false; // after "--" every word is a SCENE (getopt's convention)
  std::string output_option;  // the first option about files or checks, which -i refuses
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (!options_ended && arg == "--") {
      options_ended = true;
      continue;
    }
    if (options_ended || arg.size() < 2 || arg[0] != '-') {
      positional.push_back(arg);
      continue;
    }
    const Split opt = split_option(arg);
    const auto is = [&](const char* short_name, const char* long_name) {
      return opt.name == short_name || opt.name == long_name;
    };
    // The option's value: attached, or the next argument.
    const auto value = [&]() -> std::string {
      if (opt.attached) return opt.value;
      if (i + 1 >= args.size()) throw common::UsageError(opt.name + " needs a value");
      return args[++i];
    };
    for (const char* name :
         {"-f", "--file", "--format", "-c", "--check", "--check-against", "--gif"})
      if (opt.name == name && output_option.empty()) output_option = name;
    const auto flag = [&] {
      if (opt.attached) throw common::UsageError(opt.name + " takes no value");
    };
    if (is("-?", "--help") || opt.name == "-h") {
      flag();
      options.help = true;
    } else if (opt.name == "--list") {
      flag();
      options.list = true;
    } else if (is("-c", "--check")) {
      flag();
      options.check = true;
    } else if (is("-r", "--renderer")) {
      options.renderer =
          parse_choice<render::RendererKind>("-r/--renderer", value(), render::parse_renderer_kind);
    } else if (opt.name == "--cuda-mode") {
      options.cuda_mode =
          parse_choice<render::CudaMode>("--cuda-mode", value(), render::parse_cuda_mode);
      options.cuda_mode_given = true;
    } else if (is("-s", "--size")) {
      options.size =
          static_cast<int>(common::parse_int(value(), "-s/--size", 1, render::kMaxImageSide));
    } else if (is("-b", "--bench")) {
      parse_frame_range(value(), options);
      options.bench_given = true;
    } else if (is("-f", "--file")) {
      options.file_prefix = value();
    } else if (is("-S", "--seed") || opt.name == "--Seed") { // --Seed: the course's spelling
      options.seed =
          static_cast<std::uint32_t>(common::parse_int(value(), "-S/--seed", 0, UINT32_MAX));
    } else if (opt.name == "--format") {
      options.format =
          parse_choice<render::ImageFormat>("--format", value(), render::parse_image_format);
    } else if (opt.name == "--check-against") {
      options.check_against = value();
      if (options.check_against.empty())
        throw common::UsageError("--check-against needs a file name");
      options.check = true;
    } else if (opt.name == "--first") {
      options.first = common::parse_int(value(), "--first", 0, std::int64_t{1} << 40);
    } else if (is("-i", "--interactive")) {
      flag();
      options.interactive = true;
    } else if (opt.name == "--interactive-frames") {
      options.interactive_frames =
          static_cast<int>(common::parse_int(value(), "--interactive-frames", 1, kMaxFrames));
    } else if (opt.name == "--gif") {
      options.gif_file = value();
      if (options.gif_file.empty()) throw common::UsageError("--gif needs a file name");
    } else if (opt.name == "--scene-file") {
      options.scene_file = value();
      if (options.scene_file.empty()) throw common::UsageError("--scene-file needs a file name");
    } else {
      throw common::UsageError("unknown option '" + arg + "'");
    }
  }
  if (options.help) return options;
  if (options.list) {
    if (!positional.empty())
      throw common::UsageError("--list takes no SCENE (got '" + positional[0] + "')");
    return options;
  }

  check_interactive(output_option, options);

  // A stored image is one frame: checking several frames against it would
  // compare later frames with the wrong picture.
  if (!options.check_against.empty() && options.end_frame - options.start_frame != 1)
    throw common::UsageError("--check-against checks one frame: give -b START:START+1 (got -b " +
                             std::to_string(options.start_frame) + ":" +
                             std::to_string(options.end_frame) + ")");

  // auto may become cuda; the CPU renderers and the student's have no such mode.
  if (options.cuda_mode_given && (options.renderer == render::RendererKind::Cpu ||
                                  options.renderer == render::RendererKind::CpuRef ||
                                  options.renderer == render::RendererKind::Student))
    throw common::UsageError(std::string("--cuda-mode is for -r cuda or auto, not -r ") +
                             render::renderer_kind_name(options.renderer));

  if (positional.size() > 1)
    throw common::UsageError("expected one SCENE, got '" + positional[0] + "' and '" +
                             positional[1] + "'");
  if (!positional.empty() && !options.scene_file.empty())
    throw common::UsageError("give either SCENE or --scene-file, not both");
  if (positional.empty() && options.scene_file.empty())
    throw common::UsageError("missing SCENE (one of: " + scenes::scene_names_text() + ")");
  if (!positional.empty()) {
    options.scene = positional[0];
    const auto& names = scenes::scene_names();
    if (std::find(names.begin(), names.end(), options.scene) == names.end())
      throw common::UsageError(scenes::unknown_scene_message(options.scene));
  }
  return options;
}

std::string usage_text() {
  return "Usage: render [options] SCENE\n"
         "       render [options] --scene-file PATH\n"
         "Renders a scene of circles, times each frame and optionally checks it against\n"
         "the serial reference renderer.\n"
         "\n"
         "Options:\n"
#ifdef SUITE_HANDOUT
         // A handout holds the serial reference and the student's renderer only.
         "  -r, --renderer NAME  cpuref or ref (serial reference), cuda or student (your\n"
         "                       renderer, render/student/student_renderer.cu), or\n"
         "                       auto: cuda when a CUDA device is usable, else cpuref\n"
         "                       (default auto)\n"
#else
         "  -r, --renderer NAME  cpuref or ref (serial reference), cpu (all cores), cuda, or\n"
         "                       auto: cuda when a CUDA device is usable, else cpu\n"
         "                       (default auto); student: your renderer,\n"
         "                       render/student/student_renderer.cu\n"
         "      --cuda-mode M    how the CUDA renderer finds each tile's circles: tiled,\n"
         "                       binned, or auto: the faster on this scene, timed at\n"
         "                       setup (default auto); or a rung of the design ladder:\n"
         "                       circles (wrong on purpose), pixels, tiles, classic\n"
         "                       (the course's design)\n"
#endif
         "  -s, --size N         image width and height in pixels, 1 to 16384\n"
         "                       (default 1024)\n"
         "  -b, --bench START:END  time frames START to END-1; earlier frames are only\n"
         "                       advanced (default 0:1)\n"
         "  -c, --check          also render each timed frame with the serial reference\n"
         "                       and compare every pixel (exact; 1e-4 for snow scenes)\n"
         "      --check-against FILE  check like -c, but compare the timed frame with\n"
         "                       FILE instead of rendering the serial reference; FILE is\n"
         "                       an rgbaf image of that frame, e.g. from -r cpuref -b S:S+1\n"
         "                       --format rgbaf; needs a one-frame bench (default 0:1)\n"
         "  -f, --file NAME      write frames as NAME_XXXX.png (or .ppm, .rgbaf), XXXX\n"
         "                       the frame number (default output); -f '' writes none\n"
         "      --format FMT     png, ppm (the course's P6 format), or rgbaf (exact\n"
         "                       floats, for --check-against) (default png)\n"
         "  -S, --seed N         seed of the scene generator, 0 to 4294967295 (default 0);\n"
         "                       --Seed, the course's spelling, works too\n"
         "  -i, --interactive    show the frames in a window (needs a display and a build\n"
         "                       with freeglut) until q, Esc or closing it; with -b,\n"
         "                       frames START to END-1, then it closes; writes no files\n"
         "      --interactive-frames N  with -i and no -b: close the window after N\n"
         "                       frames\n"
         "      --gif FILE       also write the timed frames as one animated GIF (loops,\n"
         "                       25 frames a second), e.g. -b 0:60 --gif fireworks.gif\n"
         "      --scene-file PATH  render a scene file instead of a named scene\n"
         "      --first N        draw only the scene's first N circles (quick runs, e.g.\n"
         "                       under compute-sanitizer)\n"
         "      --list           list the scenes with their circle counts\n"
         "  -?, --help           show this help\n"
         "\n"
         "Scenes: " +
         scenes::scene_names_text() +
         "\n"
         "Every scene but snow and snowsingle reproduces the course's scenes exactly;\n"
         "snow and snowsingle are our own and differ from the course's.\n"
         "\n"
         "Exit status: 0 success, 1 failure (including a failed check), 2 bad usage.\n";
}

} // namespace render_app
