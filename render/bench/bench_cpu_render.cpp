// render_bench_cpu: the CPU renderer's speedup over the serial reference,
// measured in one process on the same frames, with the images compared.
// A benchmark, never a test: scripts/bench_cpu_render.sh runs it.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "common/cli.h"
#include "common/timer.h"
#include "render/cpu_renderer.h"
#include "render/ref_renderer.h"
#include "scenes/scene.h"

namespace {

constexpr const char* kUsage =
    "Usage: render_bench_cpu [-s SIZE] [-n FRAMES] [-t THREADS] [SCENE...]\n"
    "Times the render phase of the serial reference (cpuref) and of the CPU\n"
    "renderer with 1 thread and with every hardware thread, on the same frames,\n"
    "checks the images are identical, and prints the speedups.\n"
    "  -s SIZE    image side in pixels (default 1024)\n"
    "  -n FRAMES  frames timed per renderer, median reported (default 3)\n"
    "  -t THREADS threads of the multithreaded run (default: every hardware thread)\n"
    "  SCENE...   scenes (default rand10k rand100k)\n";

struct Settings {
  int size = 1024;
  int frames = 3;
  int threads = 0; // 0: every hardware thread
  std::vector<std::string> scenes;
};

Settings parse(const std::vector<std::string>& args) {
  Settings s;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= args.size()) throw common::UsageError(a + " needs a value");
      return args[++i];
    };
    if (a == "-s")
      s.size = static_cast<int>(common::parse_int(value(), "-s", 1, render::kMaxImageSide));
    else if (a == "-n")
      s.frames = static_cast<int>(common::parse_int(value(), "-n", 1, 1000));
    else if (a == "-t")
      s.threads = static_cast<int>(common::parse_int(value(), "-t", 1, 4096));
    else if (!a.empty() && a[0] == '-')
      throw common::UsageError("unknown option '" + a + "'");
    else
      s.scenes.push_back(a);
  }
  if (s.scenes.empty()) s.scenes = {"rand10k", "rand100k"};
  const auto& names = scenes::scene_names();
  for (const std::string& name : s.scenes)
    if (std::find(names.begin(), names.end(), name) == names.end())
      throw common::UsageError("unknown scene '" + name + "' (see render --list)");
  return s;
}

// Median render() time over the frames, in ms; clear and advance untimed.
double time_render(render::Renderer& r, int frames) {
  std::vector<double> samples;
  for (int f = 0; f < frames; ++f) {
    r.clear();
    r.advance();
    const common::Stopwatch watch;
    r.render();
    samples.push_back(watch.elapsed_ms());
  }
  return common::summarize(samples).median;
}

int run(const Settings& s) {
  const int cores = render::CpuRenderer().threads();
  const int threads = s.threads > 0 ? s.threads : cores;
  std::printf("CPU renderer vs serial reference: render phase, median of %d frames, %dx%d\n",
              s.frames, s.size, s.size);
  std::printf("Hardware threads: %d; multithreaded run: %d threads (target: speedup >= 0.8 x %d "
              "= %.1f)\n\n",
              cores, threads, threads, 0.8 * threads);
  std::printf("%-10s %12s %12s %12s %10s %10s %s\n", "scene", "cpuref ms", "cpu 1t ms",
              "cpu all ms", "x (1t)", "x (all)", "images");
  std::fflush(stdout);
  bool all_same = true;
  for (const std::string& name : s.scenes) {
    const scenes::Scene scene = scenes::load_scene(name);
    render::RefRenderer ref;
    render::CpuRenderer one_thread(1);
    render::CpuRenderer every_thread(threads);
    const std::vector<render::Renderer*> renderers = {&ref, &one_thread, &every_thread};
    const std::vector<std::string> labels = {"cpuref", "cpu with 1 thread",
                                             "cpu with " + std::to_string(threads) + " threads"};
    std::vector<double> ms;
    for (std::size_t i = 0; i < renderers.size(); ++i) {
      render::Renderer* r = renderers[i];
      std::fprintf(stderr, "  %s: timing %s ...\n", name.c_str(), labels[i].c_str());
      r->setup(scene, s.size, s.size);
      ms.push_back(time_render(*r, s.frames));
    }
    const bool same = render::compare_images(one_thread.image(), ref.image()).passed() &&
                      render::compare_images(every_thread.image(), ref.image()).passed();
    all_same = all_same && same;
    std::printf("%-10s %12.1f %12.1f %12.1f %10.2f %10.2f %s\n", name.c_str(), ms[0], ms[1], ms[2],
                ms[0] / ms[1], ms[0] / ms[2], same ? "identical" : "DIFFER");
    std::fflush(stdout);
  }
  return all_same ? 0 : 1;
}

} // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  return common::run_main("render_bench_cpu", [&] {
    for (const std::string& a : args)
      if (a == "-h" || a == "--help" || a == "-?") {
        std::cout << kUsage;
        return 0;
      }
    return run(parse(args));
  });
}
