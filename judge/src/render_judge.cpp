#include "judge/render_judge.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <random>
#include <stdexcept>
#include <vector>

#include "common/timer.h"
#include "judge/channel.h"
#include "judge/render_share.h"
#include "judge/seeds.h"
#include "judge/session.h"
#include "render/banded_ref_renderer.h"
#include "render/image.h"

namespace judge {

namespace {

constexpr std::size_t kGuardBytes = 4096;
constexpr unsigned char kPoison = 0xa5;
// Snow shading calls expf, which the GPU rounds differently (render's
// check.h says the same); every other scene must match exactly.
constexpr float kSnowTolerance = 1e-4f;
// The allowance of an untimed call that is never charged (--trusted-untimed).
constexpr double kUnbounded = 1e300;

// Best of three runs of `work`, in ms.
template <class Work> double best_of_three_ms(Work work) {
  double best = 0;
  for (int i = 0; i < 3; ++i) {
    common::Stopwatch clock;
    work();
    const double ms = clock.elapsed_ms();
    best = i == 0 ? ms : std::min(best, ms);
  }
  return best;
}

// The judge's own cost of a host copy of `bytes`: what a read-back into the
// shared image costs on the host side.
double host_copy_ms(std::size_t bytes) {
  std::vector<unsigned char> from(bytes, 1), to(bytes);
  return best_of_three_ms([&] { std::memcpy(to.data(), from.data(), bytes); });
}

// The host side of an honest setup: the worker reads the shared scene and
// the renderer allocates its host image.
double host_setup_ms(const SharedMemory& scene_memory, int size) {
  return best_of_three_ms([&] {
    int width = 0, height = 0;
    const scenes::Scene scene =
        read_scene(scene_memory.data(), scene_memory.bytes(), &width, &height);
    render::Image image(size, size);
    // Read, so the allocation cannot be optimized away.
    volatile float kept = image.data()[0] + static_cast<float>(scene.size());
    (void)kept;
  });
}

// The reference image of one frame: the serial reference, its rows split
// among the cores (the same bits: render_tests checks it).
render::Image reference_frame(const scenes::Scene& scene, int size) {
  render::BandedRefRenderer renderer;
  renderer.setup(scene, size, size);
  renderer.clear();
  renderer.advance();
  renderer.render();
  return renderer.image();
}

std::string describe_mismatch(int frame, const render::ImageComparison& c) {
  if (!c.sizes_match)
    return "image of timed frame " + std::to_string(frame) + " has the wrong size";
  return "image of timed frame " + std::to_string(frame) +
         " differs from the reference at pixel [" + std::to_string(c.first_x) + "][" +
         std::to_string(c.first_y) + "] (" + std::to_string(c.mismatches) + " pixels differ)";
}

// The charge of GPU work seen running after an answer (device workers), or
// why the row is rejected for it.
struct Probe {
  double charged = 0;
  std::string reason;
};

Probe probe_after(const RenderJudgeOptions& options, const std::string& what, double call_ms) {
  Probe p;
  if (options.memory != MemoryKind::kDevice) return p;
  const double probe = probe_device_ms();
  p.charged = std::max(0.0, probe - options.switch_ms);
  if (p.charged > 1.0 + 0.1 * call_ms)
    p.reason = "GPU work still running after " + what + " answered (the judge's probe took " +
               std::to_string(probe) + " ms, after an honest worker " +
               std::to_string(options.switch_ms) + " ms)";
  return p;
}

} // namespace

double untimed_allowance_ms(double floor_ms) {
  return 2 * floor_ms + 0.5;
}

scenes::Scene scene_variant(const std::string& name, std::uint32_t seed, std::uint64_t draw) {
  scenes::Scene scene = scenes::load_scene(name, seed);
  std::mt19937_64 rng(draw);
  std::uniform_real_distribution<float> factor(0.5f, 1.0f);
  // The geometry moves too (the course's generator fixes rgb's and
  // pattern's): the whole scene by up to 2% of the image, each circle by up
  // to 0.2% more, each radius by up to 3%. The work stays the scene's.
  std::uniform_real_distribution<float> shift(-0.02f, 0.02f), jitter(-0.002f, 0.002f),
      grow(0.97f, 1.03f);
  const float dx = shift(rng), dy = shift(rng);
  for (std::size_t i = 0; i < scene.size(); ++i) {
    scene.r[i] *= factor(rng);
    scene.g[i] *= factor(rng);
    scene.b[i] *= factor(rng);
    scene.x[i] += dx + jitter(rng);
    scene.y[i] += dy + jitter(rng);
    scene.radius[i] *= grow(rng);
  }
  return scene;
}

RenderRow judge_render(const std::string& scene_name, const RenderJudgeOptions& options,
                       const SandboxPlan& plan) {
  RenderRow row;
  row.scene = scene_name;
  std::mt19937_64 seeds = input_seeds(options.secret, options.seed);
  const std::size_t circles = scenes::load_scene(scene_name, 1).size();
  const int size = options.size;
  const std::size_t image_size = image_bytes(size, size);

  SharedMemory scene_memory = SharedMemory::create(scene_bytes(circles), "judge-scene");
  SharedMemory image_memory = SharedMemory::create(image_size + kGuardBytes, "judge-image");
  const bool device = options.memory == MemoryKind::kDevice;
  // The floors are measured on a variant like the ones to come.
  write_scene(scene_memory.data(), scene_memory.bytes(), scene_variant(scene_name, 1, 1), size,
              size);
  const double setup_allowance =
      !options.charge_untimed
          ? kUnbounded
          : untimed_allowance_ms(
                std::max(options.honest_setup_ms,
                         host_setup_ms(scene_memory, size) +
                             (device ? device_setup_ms(scene_bytes(circles), image_size) : 0)));
  const double read_back_allowance =
      !options.charge_untimed
          ? kUnbounded
          : untimed_allowance_ms(std::max(options.honest_read_back_ms,
                                          host_copy_ms(image_size) +
                                              (device ? device_read_back_ms(image_size) : 0)));

  Session session(options.worker,
                  {"--memory", memory_name(options.memory), "--scene-bytes",
                   std::to_string(scene_memory.bytes()), "--image-bytes",
                   std::to_string(image_memory.bytes())},
                  {scene_memory.fd(), image_memory.fd()},
                  options.log_dir + "/worker-render-" + scene_name + ".log", options.sandbox, plan);
  row.reason = session.wait_ready(options.start_timeout_s);
  if (!row.reason.empty()) return row;
  row.empty_ms = session.empty_round_trip(5, options.call_timeout_s);

  auto* image = static_cast<unsigned char*>(image_memory.data());
  render::Image actual(size, size);
  // Each call's cost and allowance, per frame: why a frame was charged.
  std::ofstream costs(options.log_dir + "/judge-render-" + scene_name + ".tsv");
  // Which variant each frame drew, as a fingerprint: a regrade with the
  // same seed and secret shows the same lines.
  std::ofstream variants(options.log_dir + "/judge-render-" + scene_name + ".variants");
  costs << std::fixed << std::setprecision(4)
        << "# frame\tsetup_ms\tsetup_allowance_ms\tframe_ms\tread_back_ms\t"
           "read_back_allowance_ms\tprobe_charged_ms\tcharged_ms\n";
  for (int frame = 1; frame <= options.runs; ++frame) {
    const auto seed = static_cast<std::uint32_t>(seeds() % 4294967295u + 1);
    const std::uint64_t draw = seeds();
    const scenes::Scene scene = scene_variant(scene_name, seed, draw);
    variants << fingerprint(options.secret, seed, draw) << std::endl;
    write_scene(scene_memory.data(), scene_memory.bytes(), scene, size, size);
    std::memset(image, kPoison, image_memory.bytes());

    const std::string name = "timed frame " + std::to_string(frame);
    double charged = 0;
    // Each call: its answer, then the GPU probe (none after the setup:
    // the probe runs on the judge's own context, and the frame's first
    // launch would pay the switch back; what the setup leaves running is
    // inside the frame's time, or seen by the probe after it). The frame's
    // own time counts whole, the untimed calls beyond their allowance.
    struct Step {
      Command command;
      std::string what;
      double seconds;
      double allowance; // < 0: timed whole
    };
    const Step steps[] = {
        {Command::kRenderSetup, "the setup of " + name, options.start_timeout_s, setup_allowance},
        {Command::kRenderFrame, name, options.call_timeout_s, -1},
        {Command::kRenderReadBack, "the read-back of " + name, options.call_timeout_s,
         read_back_allowance}};
    double frame_ms = 0, probes_ms = 0;
    costs << frame;
    for (const Step& step : steps) {
      const Answer answer =
          session.call(step.command, static_cast<std::int64_t>(circles), step.seconds);
      if (!answer.failure.empty()) {
        row.reason = step.what + ": " + answer.failure;
        return row;
      }
      // Copied before anything else: later writes are not the answer's.
      if (step.command == Command::kRenderReadBack) std::memcpy(actual.data(), image, image_size);
      const Probe probe = step.command == Command::kRenderSetup
                              ? Probe{}
                              : probe_after(options, step.what, answer.ms);
      if (!probe.reason.empty()) {
        row.reason = probe.reason;
        session.quit();
        return row;
      }
      if (answer.worker_failed) {
        row.reason = step.what + " failed: " + answer.message;
        session.quit();
        return row;
      }
      if (step.allowance < 0)
        frame_ms = answer.ms;
      else
        charged += std::max(0.0, answer.ms - step.allowance);
      charged += probe.charged;
      probes_ms += probe.charged;
      costs << '\t' << answer.ms;
      if (step.allowance >= kUnbounded)
        costs << "\t-"; // --trusted-untimed
      else if (step.allowance >= 0)
        costs << '\t' << step.allowance;
    }
    costs << '\t' << probes_ms << '\t' << charged << std::endl;
    for (std::size_t i = 0; i < kGuardBytes; ++i)
      if (image[image_size + i] != kPoison) {
        row.reason = "the read-back of " + name + " wrote past the image";
        session.quit();
        return row;
      }
    const render::ImageComparison c = render::compare_images(
        actual, reference_frame(scene, size), scene.snow && device ? kSnowTolerance : 0.f);
    if (!c.sizes_match || c.mismatches > 0) {
      row.reason = describe_mismatch(frame, c);
      session.quit();
      return row;
    }
    row.times_ms.push_back(frame_ms + charged);
    row.charged_ms = std::max(row.charged_ms, charged);
  }
  session.quit();
  row.correct = true;
  return row;
}

} // namespace judge
