#include "options.h"

#include <getopt.h>

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

enum LongOnly {
  kCudaMode = 1000,
  kFormat,
  kCheckAgainst,
  kFirst,
  kInteractiveFrames,
  kGif,
  kSceneFile,
  kList
};

const option kLongOptions[] = {
    {"help", no_argument, nullptr, 'h'},
    {"list", no_argument, nullptr, kList},
    {"check", no_argument, nullptr, 'c'},
    {"renderer", required_argument, nullptr, 'r'},
    {"cuda-mode", required_argument, nullptr, kCudaMode},
    {"size", required_argument, nullptr, 's'},
    {"bench", required_argument, nullptr, 'b'},
    {"file", required_argument, nullptr, 'f'},
    {"seed", required_argument, nullptr, 'S'},
    {"Seed", required_argument, nullptr, 'S'}, // the course's spelling
    {"format", required_argument, nullptr, kFormat},
    {"check-against", required_argument, nullptr, kCheckAgainst},
    {"first", required_argument, nullptr, kFirst},
    {"interactive", no_argument, nullptr, 'i'},
    {"interactive-frames", required_argument, nullptr, kInteractiveFrames},
    {"gif", required_argument, nullptr, kGif},
    {"scene-file", required_argument, nullptr, kSceneFile},
    {nullptr, 0, nullptr, 0}};

// The options about files or checks, which -i refuses.
bool is_output_option(int code) {
  return code == 'f' || code == 'c' || code == kFormat || code == kCheckAgainst || code == kGif;
}

// An option's name as typed: its long name when getopt_long matched one
// (`long_index` >= 0), else its letter.
std::string typed_name(int code, int long_index) {
  if (long_index >= 0) return std::string("--") + kLongOptions[long_index].name;
  return std::string("-") + static_cast<char>(code);
}

} // namespace

Options parse_options(const std::vector<std::string>& args) {
  Options options;
  // getopt_long's argv: the program name, then the arguments; it permutes
  // the pointers, never the strings.
  std::vector<std::string> words{"render"};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  const int argc = static_cast<int>(words.size());

  std::string output_option; // the first option about files or checks, which -i refuses
  optind = 0;                // start afresh: tests parse several command lines in one process
  opterr = 0;                // our own messages
  int c, long_index = -1;
  while ((c = getopt_long(argc, argv.data(), ":hcr:s:b:f:S:i?", kLongOptions, &long_index)) != -1) {
    if (is_output_option(c) && output_option.empty()) output_option = typed_name(c, long_index);
    long_index = -1;
    switch (c) {
    case 'h':
      options.help = true;
      break;
    case kList:
      options.list = true;
      break;
    case 'c':
      options.check = true;
      break;
    case 'r':
      options.renderer =
          parse_choice<render::RendererKind>("-r/--renderer", optarg, render::parse_renderer_kind);
      break;
    case kCudaMode:
      options.cuda_mode =
          parse_choice<render::CudaMode>("--cuda-mode", optarg, render::parse_cuda_mode);
      options.cuda_mode_given = true;
      break;
    case 's':
      options.size =
          static_cast<int>(common::parse_int(optarg, "-s/--size", 1, render::kMaxImageSide));
      break;
    case 'b':
      parse_frame_range(optarg, options);
      options.bench_given = true;
      break;
    case 'f':
      options.file_prefix = optarg;
      break;
    case 'S':
      options.seed =
          static_cast<std::uint32_t>(common::parse_int(optarg, "-S/--seed", 0, UINT32_MAX));
      break;
    case kFormat:
      options.format =
          parse_choice<render::ImageFormat>("--format", optarg, render::parse_image_format);
      break;
    case kCheckAgainst:
      options.check_against = optarg;
      if (options.check_against.empty())
        throw common::UsageError("--check-against needs a file name");
      options.check = true;
      break;
    case kFirst:
      options.first = common::parse_int(optarg, "--first", 0, std::int64_t{1} << 40);
      break;
    case 'i':
      options.interactive = true;
      break;
    case kInteractiveFrames:
      options.interactive_frames =
          static_cast<int>(common::parse_int(optarg, "--interactive-frames", 1, kMaxFrames));
      break;
    case kGif:
      options.gif_file = optarg;
      if (options.gif_file.empty()) throw common::UsageError("--gif needs a file name");
      break;
    case kSceneFile:
      options.scene_file = optarg;
      if (options.scene_file.empty()) throw common::UsageError("--scene-file needs a file name");
      break;
    default: // '?' or ':': "-?" asks for help, anything else is a usage error
      options.help = common::getopt_help_or_throw(c, argv.data(), kLongOptions);
      break;
    }
  }
  const std::vector<std::string> positional(argv.begin() + optind, argv.begin() + argc);
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
         // suite-only
         "      --cuda-mode M    how the CUDA renderer finds each tile's circles: tiled,\n"
         "                       binned, or auto: the faster on this scene, timed at\n"
         "                       setup (default auto); or a rung of the design ladder:\n"
         "                       circles (wrong on purpose), pixels, tiles, classic\n"
         "                       (the course's design)\n"
  // /suite-only
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
