// render: the course's circle renderer program. Parses the options, loads the
// scene, picks a renderer, and runs the frame loop (render/frame_loop.h).
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/cli.h"
#include "common/device.h"
#include "options.h"
#include "render/check.h"
#include "render/cuda_mode.h"
#include "render/frame_loop.h"
#include "render/gif.h"
#include "render/image_io.h"
#include "render/ref_renderer.h"
#include "render/renderer_factory.h"
#include "scenes/atomic_file.h"
#include "scenes/scene.h"
#include "scenes/scene_file.h"
#include "viewer.h"

namespace {

constexpr int kGifDelayCs = 4; // 25 frames a second

void print_scene_list() {
  std::cout << "Scenes (name, circles, description):\n";
  for (const scenes::SceneInfo& info : scenes::scene_catalog()) {
    char line[512];
    std::snprintf(line, sizeof line, "  %-14s %9zu  %s\n", info.name.c_str(), info.circles,
                  info.description.c_str());
    std::cout << line;
  }
}

scenes::Scene load(const render_app::Options& options) {
  scenes::Scene scene = options.scene_file.empty()
                            ? scenes::load_scene(options.scene, options.seed)
                            : scenes::load_scene_file(options.scene_file); // errors name the line
  if (options.first >= 0) scenes::keep_first(scene, static_cast<std::size_t>(options.first));
  return scene;
}

int run(const render_app::Options& options) {
  if (options.help) {
    std::cout << render_app::usage_text();
    return 0;
  }
  if (options.list) {
    print_scene_list();
    return 0;
  }
  // Fail on an unwritable output or a bad stored image before any long
  // work, leaving no file.
  if (!options.file_prefix.empty())
    render::check_writable(
        render::frame_file_name(options.file_prefix, options.start_frame, options.format));
  // Before any work: a build without a window, or no display, says so at once.
  if (options.interactive) render_app::require_display();
  // A test hook: the window reads its last frame back, so the frames must be counted.
  if (const char* shot = std::getenv("RENDER_SCREENSHOT");
      options.interactive && shot && *shot && options.interactive_frames == 0)
    throw std::runtime_error("RENDER_SCREENSHOT reads back the last of a counted number of "
                             "frames: give -b START:END or --interactive-frames N");
  std::unique_ptr<render::GifWriter> gif;
  if (!options.gif_file.empty())
    gif = std::make_unique<render::GifWriter>(options.gif_file, options.size, options.size,
                                              kGifDelayCs);
  render::Image expected;
  if (!options.check_against.empty()) {
    expected = render::read_rgbaf(options.check_against);
    if (expected.width() != options.size || expected.height() != options.size)
      throw std::runtime_error(options.check_against + " is " + std::to_string(expected.width()) +
                               "x" + std::to_string(expected.height()) + " pixels, the render is " +
                               std::to_string(options.size) + "x" + std::to_string(options.size));
  }

  const render::RendererChoice choice = render::choose_renderer(options.renderer);
  // -r auto may fall back to the CPU, which has no CUDA mode: say so rather
  // than drop the request silently (no error: auto means "what this machine has").
  if (options.cuda_mode_given && choice.kind != render::RendererKind::Cuda)
    std::cerr << "render: warning: --cuda-mode " << render::cuda_mode_name(options.cuda_mode)
              << " is ignored: the CPU renderer runs (" << choice.reason << ")\n";
  // Made before anything is printed or generated: it fails if the choice
  // cannot run.
  const std::unique_ptr<render::Renderer> renderer =
      choice.kind == render::RendererKind::Cuda ? render::make_cuda_renderer(options.cuda_mode)
                                                : render::make_renderer(choice.kind);
  const scenes::Scene scene = load(options);
  // The course's first two lines, then ours.
  std::cout << "Rendering to " << options.size << "x" << options.size << " image\n"
            << "Loaded scene with " << scene.size() << " circles\n";
  std::cout << "Renderer: " << renderer->name() << " (" << choice.reason << ")\n";
  if (choice.kind == render::RendererKind::Cuda) common::print_device_banner(std::cout);
  std::cout << "Scene: " << scene.name << ", " << scene.size() << " circles, " << options.size
            << "x" << options.size << " pixels\n";
  renderer->setup(scene, options.size, options.size);
  if (const std::string mode = render::describe_cuda_mode(*renderer); !mode.empty())
    std::cout << "CUDA mode: " << mode << "\n";

  if (options.interactive) {
    render_app::ViewerOptions viewer;
    viewer.start_frame = options.start_frame;
    viewer.frames = options.interactive_frames;
    viewer.title = "render: " + scene.name;
    if (const char* path = std::getenv("RENDER_SCREENSHOT"); path && *path)
      viewer.screenshot_path = path;
    render_app::run_viewer(*renderer, viewer, std::cout);
    return 0;
  }

  render::FrameLoopOptions loop;
  loop.start_frame = options.start_frame;
  loop.end_frame = options.end_frame;
  loop.file_prefix = options.file_prefix;
  loop.format = options.format;
  std::unique_ptr<render::Renderer> reference;
  if (!options.check_against.empty()) {
    loop.expected_image = &expected;
  } else if (options.check) {
    reference = std::make_unique<render::RefRenderer>();
    reference->setup(scene, options.size, options.size);
    loop.reference = reference.get();
  }
  if (options.check) loop.tolerance = render::check_tolerance(scene, choice.kind);
  // A failed check shows where, beside the frames (none with -f '').
  if (!options.file_prefix.empty()) loop.mismatch_prefix = options.file_prefix + "_mismatch";
  if (gif) loop.on_frame = [&](const render::Image& image) { gif->add_frame(image); };
  const render::FrameLoopResult result =
      render::run_frame_loop(*renderer, loop, std::cout, std::cerr);
  if (!result.check_passed && renderer->name() == "student")
    std::cerr << "hint: the renderer checked is yours, render/student/student_renderer.cu "
                 "(docs/students.md)\n";
  // A failed check leaves no GIF, as it leaves no later frames.
  if (!result.check_passed) return 1;
  if (gif) {
    gif->finish();
    std::cout << "Wrote " << options.gif_file << " (" << gif->frames() << " frames)\n";
  }
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  common::load_kernels_eagerly();         // no frame pays for loading a kernel
  scenes::remove_temp_files_on_signals(); // Ctrl-C while an image is written leaves none half-done
  const std::vector<std::string> args(argv + 1, argv + argc);
  return common::run_main("render", [&] { return run(render_app::parse_options(args)); });
}
