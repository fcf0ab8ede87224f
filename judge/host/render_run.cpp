#include "render_run.h"

#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include "common/timer.h"
#include "judge/channel.h"
#include "judge/render_share.h"

namespace judge {

namespace {

constexpr std::size_t kGuardBytes = 4096;
constexpr unsigned char kPoison = 0xa5;

// The judge's device arena for a renderer on the GPU: room for the scene's
// arrays and the image a few times over, and for what else setup()
// allocates first (the rest comes from CUDA, where the judge never looks).
std::size_t arena_bytes(const RenderJudgeOptions& options, std::size_t circles,
                        std::size_t image_size) {
  if (options.memory != MemoryKind::kDevice) return 0;
  constexpr std::size_t kSlack = std::size_t{64} << 20;
  return 4 * (10 * circles * sizeof(float) + image_size) + kSlack;
}

std::vector<std::string> worker_args(const RenderJudgeOptions& options, std::size_t scene,
                                     std::size_t image, const SharedArray* arena) {
  std::vector<std::string> args{"--memory",      memory_name(options.memory),
                                "--scene-bytes", std::to_string(scene),
                                "--image-bytes", std::to_string(image)};
  if (arena) args.insert(args.end(), {"--arena-bytes", std::to_string(arena->bytes())});
  return args;
}

} // namespace

RenderRun::RenderRun(const std::string& worker, const std::string& scene_name, std::size_t circles,
                     const std::string& log_name, const RenderJudgeOptions& options,
                     const SandboxPlan& plan)
    : options_(options), circles_(circles), image_size_(image_bytes(options.size, options.size)),
      scene_memory_(SharedMemory::create(scene_bytes(circles), "judge-scene")),
      image_memory_(SharedMemory::create(std::max(image_size_ + kGuardBytes, kPlacementBytes),
                                         "judge-image")),
      arena_(
          options.memory == MemoryKind::kDevice
              ? SharedArray::create(MemoryKind::kDevice, arena_bytes(options, circles, image_size_))
              : SharedArray()),
      session_(worker,
               worker_args(options, scene_memory_.bytes(), image_memory_.bytes(),
                           arena_.data() ? &arena_ : nullptr),
               arena_.data() ? std::vector<int>{scene_memory_.fd(), image_memory_.fd(), arena_.fd()}
                             : std::vector<int>{scene_memory_.fd(), image_memory_.fd()},
               options.log_dir + "/" + log_name + "-" + scene_name + ".log", options.sandbox,
               plan) {
  // Nothing of an earlier worker's (a first attempt's) is left in it.
  if (arena_.data()) arena_.fill(0);
}

std::string RenderRun::place(const scenes::Scene& decoy, Frame& f) {
  if (!arena_.data()) return "the renderer runs on the host";
  const int size = options_.size;
  write_scene(scene_memory_.data(), scene_memory_.bytes(), decoy, size, size);
  const std::string what = "the setup of the first decoy";
  const Answer setup = call(Command::kRenderPlace, what, options_.start_timeout_s, f);
  if (!f.reason.empty() || !probe(f, what, setup.ms)) return {};
  Placement p;
  const std::string why = read_placement(image_memory_.data(), image_memory_.bytes(), circles_,
                                         image_size_, arena_.bytes(), &p);
  if (!why.empty()) return why;
  placement_ = std::move(p);
  placed_ = true;
  return {};
}

Frame RenderRun::frame(const std::string& name, const scenes::Scene& decoy,
                       const scenes::Scene& scene, render::Image& actual) {
  Frame f;
  const int size = options_.size;
  auto* image = static_cast<unsigned char*>(image_memory_.data());
  if (placed_) {
    std::memset(image, kPoison, image_memory_.bytes());
    if (!probe(f, "the call before " + name, 0)) return f;
    // An image the frame does not draw whole is not the last frame's. The
    // clock starts the moment it is poisoned: what a thread that watched
    // for the poison starts is timed.
    arena_.fill(placement_.image, image_size_, kPoison);
  } else {
    write_scene(scene_memory_.data(), scene_memory_.bytes(), decoy, size, size);
    const Answer setup = call(Command::kRenderSetup, "the setup of " + name + "'s decoy",
                              options_.start_timeout_s, f);
    if (!f.reason.empty()) return f;
    f.setup_ms = setup.ms;
    // GPU work the decoy's setup left running would run into the frame.
    if (!probe(f, "the setup of " + name + "'s decoy", setup.ms)) return f;
    std::memset(image, kPoison, image_memory_.bytes());
  }

  // The clock runs from the moment the frame's variant starts to appear
  // where the worker can read it.
  common::Stopwatch clock;
  write_scene(scene_memory_.data(), scene_memory_.bytes(), scene, size, size);
  const Answer load =
      call(Command::kRenderLoad, "the load of " + name, options_.start_timeout_s, f);
  if (!f.reason.empty()) return f;
  const Answer drawn = call(Command::kRenderFrame, name, options_.call_timeout_s, f);
  if (!f.reason.empty()) return f;
  // The probe after the frame is inside the clock's span: what it waits
  // for is charged there; here it only rejects.
  if (options_.memory == MemoryKind::kDevice) {
    const LateWork late = probe_late_work(options_.memory, options_.switch_ms, name, drawn.ms);
    if (!late.reason.empty()) return rejected(f, late.reason);
  }
  const Answer read_back =
      call(Command::kRenderReadBack, "the read-back of " + name, options_.call_timeout_s, f);
  const double span = clock.elapsed_ms();
  if (!f.reason.empty()) return f;
  // Copied before anything else: later writes are not the answer's.
  std::memcpy(actual.data(), image, image_size_);
  if (!probe(f, "the read-back of " + name, read_back.ms)) return f;
  for (std::size_t i = 0; i < kGuardBytes; ++i)
    if (image[image_size_ + i] != kPoison)
      return rejected(f, "the read-back of " + name + " wrote past the image");
  f.load_ms = load.ms;
  f.frame_ms = drawn.ms;
  f.read_back_ms = read_back.ms;
  f.untimed_ms = std::max(0.0, span - drawn.ms);
  return f;
}

Frame& RenderRun::rejected(Frame& f, const std::string& reason) {
  f.reason = reason;
  session_.quit();
  return f;
}

Answer RenderRun::call(Command command, const std::string& what, double seconds, Frame& f) {
  const Answer answer = session_.call(command, static_cast<std::int64_t>(circles_), seconds);
  if (!answer.failure.empty())
    f.reason = what + ": " + answer.failure;
  else if (answer.worker_failed)
    rejected(f, what + " failed: " + answer.message);
  return answer;
}

bool RenderRun::probe(Frame& f, const std::string& what, double call_ms) {
  const LateWork late = probe_late_work(options_.memory, options_.switch_ms, what, call_ms);
  if (!late.reason.empty()) {
    rejected(f, late.reason);
    return false;
  }
  f.probe_charged_ms += late.charged_ms;
  return true;
}

} // namespace judge
