// The CUDA renderer's host side: its state on the device, setup, the
// deferred clear, and each frame's launches per mode. Binned mode's passes
// and pair memory, the recorded frames, the choice of mode, the settings,
// the memory layouts and what setup proves of a scene have files of their
// own; the kernels are behind kernels.h. Plain C++.
#include "render/cuda_renderer.h"

#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

#include "binning/passes.h"
#include "common/cuda_check.h"
#include "common/device.h"
#include "common/device_buffer.h"
#include "common/stream.h"
#include "frame/graphs.h"
#include "kernels.h"
#include "ladder/ladder.h"
#include "memory/layouts.h"
#include "memory/scratch.h"
#include "render/shade.h"
#include "setup/exactness.h"
#include "setup/mode_choice.h"
#include "setup/settings.h"

namespace render {

struct CudaRenderer::State final : gpu::TrialFrames {
  explicit State(const CudaRendererOptions& o)
      : settings(gpu::settings::resolve(o)),
        suffix_counters(2, "CUDA renderer: suffix tile counters"), graphs(settings.graphs) {}

  gpu::settings::Settings settings;
  CudaMode mode = CudaMode::Auto; // resolved by setup
  std::string description = "not set up";
  common::CudaStream stream;
  bool ready = false;

  bool snow = false;
  scenes::Animation animation = scenes::Animation::None;
  gpu::Shading shading = gpu::Shading::FlatExact;
  // FlatFused proven only for frames that start from the clear color.
  bool fused_after_clear_only = false;
  gpu::Shading frame_shading = gpu::Shading::FlatExact; // the frame being drawn
  common::DeviceBuffer<unsigned char> scene_memory;
  gpu::SceneArrays scene;

  Image image;
  gpu::FrameGeometry frame;
  common::DeviceBuffer<float4> pixels;
  // clear() only sets this: the next render starts its tiles from the clear
  // color, so the image is written once per frame instead of cleared and
  // then read and written again. image() clears first if no render came.
  bool clear_pending = false;

  gpu::ScratchArena circle_arena{"CUDA renderer: circle records"};
  gpu::CircleScratch circles;
  gpu::BinnedPasses binned;

  // Suffix compositing's plan for this scene, when it applies.
  bool suffix = false;
  gpu::SuffixPlan suffix_plan;
  common::DeviceBuffer<unsigned long long> suffix_counters;

  // Dropped first, before the buffers they name.
  gpu::FrameGraphs graphs;

  void size_buffers(int width, int height) {
    frame.width = width;
    frame.height = height;
    frame.tiles_x = (width + gpu::kTileSide - 1) / gpu::kTileSide;
    frame.tiles_y = (height + gpu::kTileSide - 1) / gpu::kTileSide;
    frame.inverse_width = shade::inverse_extent(width);
    frame.inverse_height = shade::inverse_extent(height);

    const std::size_t pixel_count = static_cast<std::size_t>(width) * height;
    pixels = common::DeviceBuffer<float4>();
    pixels = common::DeviceBuffer<float4>(pixel_count, "CUDA renderer: image");

    const std::size_t scan_bytes = gpu::scan_scratch_bytes(scene.count);
    std::size_t bytes = 0;
    gpu::lay_out_circles(nullptr, scene.count, frame.tile_count(), scan_bytes, bytes);
    circles = gpu::lay_out_circles(circle_arena.reserve(bytes), scene.count, frame.tile_count(),
                                   scan_bytes, bytes);
    binned.memory().set_budget(settings.max_pairs_per_pass);
  }

  void clear() override { clear_pending = true; }

  // Queues a pending clear of the image on the stream (the one place that
  // writes a clear no shading pass took over).
  void flush_clear() {
    if (clear_pending) gpu::clear_image(pixels.data(), frame, snow, stream.get());
    clear_pending = false;
  }

  // Where the first shading pass starts; later passes draw over the image.
  gpu::PixelStart take_start() {
    if (!clear_pending) return gpu::PixelStart::Image;
    clear_pending = false;
    return snow ? gpu::PixelStart::SnowClear : gpu::PixelStart::Clear;
  }

  void render(CudaMode m) override {
    // A frame drawn over the last one, not from the clear color, falls
    // outside the few-circles proof of the fused blend.
    frame_shading = shading == gpu::Shading::FlatFused && fused_after_clear_only && !clear_pending
                        ? gpu::Shading::FlatExact
                        : shading;
    if (m == CudaMode::Tiled)
      render_tiled();
    else if (m == CudaMode::Binned)
      render_binned();
    else
      render_ladder(m);
    // A frame without a shading pass (binned, no pairs) still owes the clear.
    flush_clear();
    stream.synchronize();
  }

  // The ladder's rungs draw over a cleared image: the clear is not folded in.
  void render_ladder(CudaMode m) {
    flush_clear();
    const cudaStream_t s = stream.get();
    switch (m) {
    case CudaMode::RungCircles:
      return gpu::ladder::draw_circles(scene, frame, snow, pixels.data(), s);
    case CudaMode::RungPixels:
      return gpu::ladder::draw_pixels(scene, frame, snow, pixels.data(), s);
    case CudaMode::RungTiles:
      return gpu::ladder::draw_tiles(scene, frame, snow, pixels.data(), s);
    case CudaMode::RungClassic:
      return gpu::ladder::draw_classic(scene, frame, snow, pixels.data(), s);
    default:
      throw std::logic_error("CUDA renderer: not a rung of the ladder");
    }
  }

  void render_tiled() {
    const gpu::PixelStart start = take_start();
    graphs.run({CudaMode::Tiled, start, frame_shading}, stream.get(), [&] {
      gpu::prepare_circles(scene, frame, circles.records, nullptr, stream.get());
      gpu::shade_tiled(circles.records, scene.count, frame, frame_shading,
                       settings.tiled_blocks_per_sm, start, pixels.data(), stream.get());
    });
  }

  // A binned frame, its stages in order: binning/passes.h.
  void render_binned() {
    const gpu::BinnedFrame f{scene,
                             frame,
                             circles,
                             frame_shading,
                             settings.rows_per_thread,
                             suffix ? &suffix_plan : nullptr,
                             pixels.data(),
                             stream.get(),
                             settings.binning == CudaBinning::Count};
    binned.draw(f, animation == scenes::Animation::None, graphs, [this] { return take_start(); });
  }

  // Renders frame 0 as the mode's choice needs (setup/mode_choice.h), so the
  // timed frames find every kernel loaded and every buffer sized, and
  // resolves auto.
  void choose_mode() {
    // Loads the animation kernel without moving anything.
    gpu::SceneArrays none = scene;
    none.count = 0;
    gpu::advance_scene(none, animation, stream.get());
    const gpu::ModeChoice choice =
        gpu::choose_mode(settings, {frame.tile_count(), scene.count, snow, suffix}, *this);
    mode = choice.mode;
    description = choice.description;
    reset_image();
  }

  // Leaves the image as a fresh one is: all zeros; counts from here.
  void reset_image() {
    CUDA_CHECK(cudaMemsetAsync(pixels.data(), 0, pixels.bytes(), stream.get()));
    CUDA_CHECK(cudaMemsetAsync(suffix_counters.data(), 0, suffix_counters.bytes(), stream.get()));
    stream.synchronize();
    clear_pending = false;
  }
};

CudaRenderer::CudaRenderer(const CudaRendererOptions& options) {
  common::require_cuda_device();
  state_ = std::make_unique<State>(options);
}

CudaRenderer::~CudaRenderer() = default;

void CudaRenderer::setup(const scenes::Scene& scene, int width, int height) {
  scenes::validate_scene(scene);
  if (scene.size() >= gpu::kMaxCircles)
    throw std::invalid_argument("the CUDA renderer takes fewer than " +
                                std::to_string(gpu::kMaxCircles) + " circles, not " +
                                std::to_string(scene.size()));
  Image image(width, height); // checks the sides
  State& s = *state_;
  s.ready = false;
  s.graphs.clear(); // they name the buffers about to be replaced
  s.clear_pending = false;
  s.binned.forget_pair_count();
  s.snow = scene.snow;
  s.animation = scene.animation;
  const gpu::FusedBlend fused =
      s.settings.allow_fused_blend ? gpu::fused_blend_scope(scene) : gpu::FusedBlend::Never;
  s.shading = scene.snow                        ? gpu::Shading::Snow
              : fused != gpu::FusedBlend::Never ? gpu::Shading::FlatFused
                                                : gpu::Shading::FlatExact;
  s.fused_after_clear_only = fused == gpu::FusedBlend::AfterClear;
  s.suffix = s.settings.suffix_min_pairs > 0 && gpu::suffix_bounds(scene, s.suffix_plan);
  s.suffix_plan.min_pairs = s.settings.suffix_min_pairs;
  s.suffix_plan.min_full_percent = s.settings.suffix_min_full_percent;
  s.suffix_plan.tiles = s.suffix_counters.data();
  s.scene = gpu::upload_scene(scene, s.scene_memory, s.stream.get());
  s.size_buffers(width, height);
  s.image = std::move(image);
  s.choose_mode();
  s.ready = true;
}

void CudaRenderer::clear() {
  if (!state_->ready) throw std::logic_error("CudaRenderer::clear before setup");
  state_->clear();
}

void CudaRenderer::advance() {
  State& s = *state_;
  if (!s.ready) throw std::logic_error("CudaRenderer::advance before setup");
  if (s.animation == scenes::Animation::None) return;
  gpu::advance_scene(s.scene, s.animation, s.stream.get());
  s.stream.synchronize();
}

void CudaRenderer::render() {
  if (!state_->ready) throw std::logic_error("CudaRenderer::render before setup");
  state_->render(state_->mode);
}

const Image& CudaRenderer::image() {
  State& s = *state_;
  if (!s.ready) throw std::logic_error("CudaRenderer::image before setup");
  s.flush_clear(); // ordered before the copy on the same stream
  s.pixels.copy_to_host_async(reinterpret_cast<float4*>(s.image.data()), s.pixels.size(),
                              s.stream.get());
  s.stream.synchronize();
  return s.image;
}

CudaMode CudaRenderer::mode() const {
  return state_->mode;
}

std::string CudaRenderer::describe() const {
  return state_->description;
}

CudaSuffixTiles CudaRenderer::suffix_tiles() const {
  State& s = *state_;
  if (!s.ready) throw std::logic_error("CudaRenderer::suffix_tiles before setup");
  unsigned long long counts[2] = {0, 0};
  s.suffix_counters.copy_to_host_async(counts, 2, s.stream.get());
  s.stream.synchronize();
  return CudaSuffixTiles{counts[0], counts[1]};
}

std::unique_ptr<Renderer> make_cuda_renderer(const CudaRendererOptions& options) {
  return std::make_unique<CudaRenderer>(options);
}

} // namespace render
