// render_bench_cpu: the CPU renderer's speedup over the serial reference,
// measured in one process on the same frames, with the images compared.
// A benchmark, never a test: scripts/dev/bench_cpu_render.sh runs it.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "common/cli.h"
#include "common/timer.h"
#include "render/cpu_renderer.h"
#include "render/ref_renderer.h"
#include "render/shade.h"
#include "render/suffix.h"
#include "scenes/scene.h"

namespace {

constexpr const char* kUsage =
    "Usage: render_bench_cpu [-s SIZE] [-n FRAMES] [-t THREADS] [-k] [SCENE...]\n"
    "Times the render phase of the serial reference (cpuref) and of the CPU\n"
    "renderer with 1 thread and with every hardware thread, and of its full\n"
    "compositing (no suffix) with every thread, on the same frames, checks the\n"
    "images are identical, and prints the speedups.\n"
    "  -s SIZE    image side in pixels (default 1024)\n"
    "  -n FRAMES  frames timed per renderer, median reported (default 3)\n"
    "  -t THREADS threads of the multithreaded run (default: every hardware thread)\n"
    "  -k         instead, the suffix lengths: over sampled pixels, how many of\n"
    "             the last covering circles make the two starts meet; times\n"
    "             nothing, so no -n or -t; snow scenes, which blend every\n"
    "             circle, are skipped with a line on stderr\n"
    "  SCENE...   scenes (default rand10k rand100k)\n";

struct Settings {
  int size = 1024;
  int frames = 3;
  int threads = 0; // 0: every hardware thread
  bool suffix_lengths = false;
  std::string timing_option; // the first of -n and -t given, which -k refuses
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
    if ((a == "-n" || a == "-t") && s.timing_option.empty()) s.timing_option = a;
    if (a == "-s")
      s.size = static_cast<int>(common::parse_int(value(), "-s", 1, render::kMaxImageSide));
    else if (a == "-n")
      s.frames = static_cast<int>(common::parse_int(value(), "-n", 1, 1000));
    else if (a == "-t")
      s.threads = static_cast<int>(common::parse_int(value(), "-t", 1, 4096));
    else if (a == "-k")
      s.suffix_lengths = true;
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
  if (s.suffix_lengths && !s.timing_option.empty())
    throw common::UsageError("-k measures suffix lengths and times nothing; " + s.timing_option +
                             " does not go with it");
  return s;
}

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
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

// For one pixel of a flat scene cleared to white: its covering circles'
// colors, in order (the serial coverage rule).
std::vector<float> covering_colors(const scenes::Scene& scene, int size, int px, int py) {
  namespace shade = render::shade;
  const float inverse = shade::inverse_extent(size);
  const float cx = shade::pixel_center(px, inverse);
  const float cy = shade::pixel_center(py, inverse);
  std::vector<float> colors;
  for (std::size_t i = 0; i < scene.size(); ++i) {
    const shade::PixelBox b =
        shade::circle_box(scene.x[i], scene.y[i], scene.radius[i], size, size);
    if (px < b.min_x || px >= b.max_x || py < b.min_y || py >= b.max_y) continue;
    if (!shade::covers(shade::distance_squared(scene.x[i], scene.y[i], cx, cy), scene.radius[i]))
      continue;
    colors.insert(colors.end(), {scene.r[i], scene.g[i], scene.b[i]});
  }
  return colors;
}

// The fewest last circles from which the bounds of the start (white) and the
// pixel's colors meet, or the count when they never do.
int meeting_length(const std::vector<float>& colors) {
  const int count = static_cast<int>(colors.size() / 3);
  float lo[3] = {1.f, 1.f, 1.f};
  float hi[3] = {1.f, 1.f, 1.f};
  for (int k = 0; k < count; ++k)
    for (int ch = 0; ch < 3; ++ch) {
      lo[ch] = std::min(lo[ch], colors[3 * k + ch]);
      hi[ch] = std::max(hi[ch], colors[3 * k + ch]);
    }
  const auto color_at = [&](int k) { return &colors[3 * static_cast<std::size_t>(k)]; };
  float met[3];
  for (int k = 1; k < count; ++k)
    if (render::suffix::last_meet(k, count, color_at, lo, hi, met)) return k;
  return count;
}

int report_suffix_lengths(const Settings& s) {
  // Snow blends every circle, so it has no suffix to measure; said rather
  // than dropped silently, and asking for only snow measures nothing.
  std::vector<std::string> measured;
  std::vector<std::string> skipped;
  for (const std::string& name : s.scenes)
    (scenes::load_scene(name).snow ? skipped : measured).push_back(name);
  if (measured.empty())
    throw common::UsageError("-k measures flat scenes; snow scenes blend every circle (got " +
                             joined(skipped) + ")");
  if (!skipped.empty())
    std::cerr << "render_bench_cpu: skipping " << joined(skipped)
              << ": snow blends every circle, so -k has no suffix to measure\n";
  constexpr int kSamples = 1024;
  std::printf("Suffix lengths at %dx%d, %d sampled pixels per scene (covered ones counted)\n",
              s.size, s.size, kSamples);
  std::printf("%-10s %10s %8s %8s %8s %8s\n", "scene", "covering", "median", "90th", "max",
              "pixels");
  for (const std::string& name : measured) {
    const scenes::Scene scene = scenes::load_scene(name);
    std::vector<int> lengths;
    double covering = 0;
    std::uint32_t state = 12345; // a fixed sample, the same each run
    for (int n = 0; n < kSamples; ++n) {
      state = state * 1664525u + 1013904223u;
      const int px = static_cast<int>((state >> 8) % static_cast<std::uint32_t>(s.size));
      state = state * 1664525u + 1013904223u;
      const int py = static_cast<int>((state >> 8) % static_cast<std::uint32_t>(s.size));
      const std::vector<float> colors = covering_colors(scene, s.size, px, py);
      if (colors.empty()) continue;
      covering += static_cast<double>(colors.size() / 3);
      lengths.push_back(meeting_length(colors));
    }
    if (lengths.empty()) continue;
    std::sort(lengths.begin(), lengths.end());
    std::printf("%-10s %10.0f %8d %8d %8d %8zu\n", name.c_str(),
                covering / static_cast<double>(lengths.size()), lengths[lengths.size() / 2],
                lengths[lengths.size() * 9 / 10], lengths.back(), lengths.size());
    std::fflush(stdout);
  }
  return 0;
}

int run(const Settings& s) {
  if (s.suffix_lengths) return report_suffix_lengths(s);
  const int cores = render::CpuRenderer().threads();
  const int threads = s.threads > 0 ? s.threads : cores;
  std::printf("CPU renderer vs serial reference: render phase, median of %d frames, %dx%d\n",
              s.frames, s.size, s.size);
  std::printf("Hardware threads: %d; multithreaded run: %d threads (target: speedup >= 0.8 x %d "
              "= %.1f)\n\n",
              cores, threads, threads, 0.8 * threads);
  std::printf("%-10s %12s %12s %12s %12s %10s %10s %10s %s\n", "scene", "cpuref ms", "cpu 1t ms",
              "cpu all ms", "full all ms", "x (1t)", "x (all)", "x (full)", "images");
  std::fflush(stdout);
  bool all_same = true;
  for (const std::string& name : s.scenes) {
    const scenes::Scene scene = scenes::load_scene(name);
    render::RefRenderer ref;
    render::CpuRenderer one_thread(1);
    render::CpuRenderer every_thread(threads);
    render::CpuRenderer full(threads, render::CpuRenderer::kDefaultMaxBinEntries,
                             render::CpuRenderer::Compositing::Full);
    const std::vector<render::Renderer*> renderers = {&ref, &one_thread, &every_thread, &full};
    const std::vector<std::string> labels = {
        "cpuref", "cpu with 1 thread", "cpu with " + std::to_string(threads) + " threads",
        "cpu full compositing with " + std::to_string(threads) + " threads"};
    std::vector<double> ms;
    for (std::size_t i = 0; i < renderers.size(); ++i) {
      render::Renderer* r = renderers[i];
      std::fprintf(stderr, "  %s: timing %s ...\n", name.c_str(), labels[i].c_str());
      r->setup(scene, s.size, s.size);
      ms.push_back(time_render(*r, s.frames));
    }
    const bool same = render::compare_images(one_thread.image(), ref.image()).passed() &&
                      render::compare_images(every_thread.image(), ref.image()).passed() &&
                      render::compare_images(full.image(), ref.image()).passed();
    all_same = all_same && same;
    std::printf("%-10s %12.1f %12.1f %12.1f %12.1f %10.2f %10.2f %10.2f %s\n", name.c_str(), ms[0],
                ms[1], ms[2], ms[3], ms[0] / ms[1], ms[0] / ms[2], ms[3] / ms[2],
                same ? "identical" : "DIFFER");
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
