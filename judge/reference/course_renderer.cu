// The course's reference renderer, in the shape of the render slot
// (render/student/student_renderer.cu) as a student hands it in: the slot's
// given code unchanged, and the course's design in place of the first
// attempt. One block per 16x16 tile of pixels, one thread per pixel; the
// block takes the circles in batches of one per thread, each thread tests
// its circle against the tile, a block-wide exclusive scan of those flags
// (block_scan.cuh, the helper a handout gives students) lists the batch's
// hits in index order, and every thread blends its pixel over that list
// only. It calls nothing a handout does not hold.
//
// Two jobs: the judge's reference worker (judge_render_reference: the
// grade's reference time is this design timed the judge's way), and the
// handout's reference programs, which scripts/make_handout.sh builds from a
// copy of the handout with this file in its slot. Not part of any handout.
// tests/student/test_reference_slot.sh checks that its given code is still
// the slot's.
#include <climits>
#include <memory>
#include <stdexcept>
#include <string>

#include "block_scan.cuh"
#include "common/cuda_check.h"
#include "common/device.h"
#include "common/device_buffer.h"
#include "render/shade.h"
#include "scenes/animation.h"
#include "student_renderer.h"

namespace render {

namespace {

// The scene on the device: one array per property, `count` entries each.
struct DeviceScene {
  float *x, *y, *z, *vx, *vy, *vz, *r, *g, *b, *radius;
  int count;
  bool snow;
};

constexpr int kThreads = 256;

unsigned blocks_for(std::size_t items) {
  return static_cast<unsigned>((items + kThreads - 1) / kThreads);
}

// Given: fills the image with the scene's clear color, one thread per pixel.
__global__ void kernel_clear_image(float4* image, int width, int height, bool snow) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= static_cast<std::size_t>(width) * height) return;
  const float gray = shade::clear_gray(static_cast<int>(i / width), height, snow);
  image[i] = make_float4(gray, gray, gray, 1.f);
}

// Given: one animation step, one thread per circle (scenes/animation.h).
__global__ void kernel_advance(DeviceScene s, scenes::Animation animation) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= s.count) return;
  scenes::advance_circle(animation, i,
                         scenes::CircleArrays{s.x, s.y, s.z, s.vx, s.vy, s.vz, s.radius});
}

// The course's design: a tile of pixels per block, the circles that reach
// the tile listed in index order batch by batch, each pixel blended over
// its tile's list.
constexpr int kTileSide = 16;
constexpr int kTileThreads = kTileSide * kTileSide; // one per pixel, one per circle of a batch

unsigned tiles_for(int width, int height) {
  const unsigned across = static_cast<unsigned>((width + kTileSide - 1) / kTileSide);
  const unsigned down = static_cast<unsigned>((height + kTileSide - 1) / kTileSide);
  return across * down;
}

__global__ void kernel_render_circles(DeviceScene s, float* image, int width, int height) {
  __shared__ BlockScanStorage<kTileThreads, unsigned> scan;
  // The batch's hits, in index order, with what shading reads of each:
  // every thread of the block reads them, so they are staged once here.
  __shared__ float4 hit_circle[kTileThreads]; // x, y, z, radius
  __shared__ float4 hit_color[kTileThreads];  // r, g, b
  __shared__ shade::PixelBox hit_box[kTileThreads];

  const int t = static_cast<int>(threadIdx.x);
  const int tiles_across = (width + kTileSide - 1) / kTileSide;
  const int x0 = static_cast<int>(blockIdx.x) % tiles_across * kTileSide;
  const int y0 = static_cast<int>(blockIdx.x) / tiles_across * kTileSide;
  const int px = x0 + t % kTileSide, py = y0 + t / kTileSide;
  // Threads past the image's edge test circles and wait at the barriers
  // like the others, but own no pixel.
  const bool in_image = px < width && py < height;
  const float center_x = shade::pixel_center(px, shade::inverse_extent(width));
  const float center_y = shade::pixel_center(py, shade::inverse_extent(height));
  float* out =
      image + 4 * (static_cast<std::size_t>(in_image ? py : 0) * width + (in_image ? px : 0));
  float pixel[4] = {0.f, 0.f, 0.f, 0.f};
  if (in_image)
    for (int c = 0; c < 4; ++c) pixel[c] = out[c];

  for (int first = 0; first < s.count; first += kTileThreads) {
    // This thread's circle of the batch: does its pixel box reach the tile?
    const int i = first + t;
    shade::PixelBox box{0, 0, 0, 0};
    float x = 0.f, y = 0.f, radius = 0.f;
    if (i < s.count) {
      x = s.x[i];
      y = s.y[i];
      radius = s.radius[i];
      box = shade::circle_box(x, y, radius, width, height);
    }
    const bool hit = box.min_x < x0 + kTileSide && box.max_x > x0 && box.min_y < y0 + kTileSide &&
                     box.max_y > y0;
    unsigned hits = 0;
    const unsigned place = block_exclusive_scan<kTileThreads>(hit ? 1u : 0u, scan, hits);
    if (hit) { // lower indices get lower places: the list keeps index order
      hit_circle[place] = make_float4(x, y, s.z[i], radius);
      hit_color[place] = make_float4(s.r[i], s.g[i], s.b[i], 0.f);
      hit_box[place] = box;
    }
    __syncthreads();
    for (unsigned k = 0; k < hits && in_image; ++k) {
      const shade::PixelBox b = hit_box[k];
      if (px < b.min_x || px >= b.max_x || py < b.min_y || py >= b.max_y) continue;
      const float4 c = hit_circle[k], color = hit_color[k];
      shade::shade_pixel(pixel, center_x, center_y, c.x, c.y, c.z, c.w, color.x, color.y, color.z,
                         s.snow);
    }
    // The next batch's scan waits for every thread before the list is
    // written again.
  }
  if (in_image)
    for (int c = 0; c < 4; ++c) out[c] = pixel[c];
}

class StudentRenderer final : public Renderer {
public:
  StudentRenderer() {
    const std::string reason = common::no_device_reason();
    if (!reason.empty()) throw std::runtime_error("no CUDA device available: " + reason);
  }

  std::string name() const override { return "student"; }

  // Given: copies the scene to the device and sizes the image.
  void setup(const scenes::Scene& scene, int width, int height) override {
    scenes::validate_scene(scene);
    image_ = Image(width, height); // checks the sides
    animation_ = scene.animation;
    const std::size_t n = scene.size();
    if (n > static_cast<std::size_t>(INT_MAX))
      throw std::invalid_argument("the scene has more circles than an int counts");
    const auto host = scene.arrays(); // x, y, z, vx, vy, vz, r, g, b, radius
    float** device[] = {&scene_.x,  &scene_.y, &scene_.z, &scene_.vx, &scene_.vy,
                        &scene_.vz, &scene_.r, &scene_.g, &scene_.b,  &scene_.radius};
    for (int k = 0; k < kArrays; ++k) {
      arrays_[k] = common::DeviceBuffer<float>(n, "scene array");
      arrays_[k].copy_from_host(host[k]->data(), n);
      *device[k] = arrays_[k].data();
    }
    scene_.count = static_cast<int>(n);
    scene_.snow = scene.snow;
    d_image_ = common::DeviceBuffer<float>(image_.pixel_count() * 4, "image");
  }

  void clear() override {
    kernel_clear_image<<<blocks_for(image_.pixel_count()), kThreads>>>(
        reinterpret_cast<float4*>(d_image_.data()), image_.width(), image_.height(), scene_.snow);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaDeviceSynchronize());
  }

  // A static scene has nothing to move: no launch, as in the course.
  void advance() override {
    if (scene_.count == 0 || animation_ == scenes::Animation::None) return;
    kernel_advance<<<blocks_for(static_cast<std::size_t>(scene_.count)), kThreads>>>(scene_,
                                                                                     animation_);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaDeviceSynchronize());
  }

  // One block per tile; returns when the frame is complete.
  void render() override {
    if (scene_.count == 0) return;
    kernel_render_circles<<<tiles_for(image_.width(), image_.height()), kTileThreads>>>(
        scene_, d_image_.data(), image_.width(), image_.height());
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaDeviceSynchronize());
  }

  // Given: copies the image back to the host.
  const Image& image() override {
    d_image_.copy_to_host(image_.data(), image_.pixel_count() * 4);
    return image_;
  }

private:
  static constexpr int kArrays = 10;
  common::DeviceBuffer<float> arrays_[kArrays];
  common::DeviceBuffer<float> d_image_;
  DeviceScene scene_{};
  scenes::Animation animation_ = scenes::Animation::None;
  Image image_;
};

} // namespace

std::unique_ptr<Renderer> make_student_renderer() {
  return std::make_unique<StudentRenderer>();
}

} // namespace render
