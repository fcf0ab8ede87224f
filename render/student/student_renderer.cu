// YOUR RENDERER: draws the scene's circles on the GPU.
//
// This file is yours to edit; `render -r student` runs it (in a handout,
// `render -r cuda` does). As handed out it runs, but its images are WRONG:
// render() below is the course's first attempt, one thread per circle, and
// `render -r student -c SCENE` reports the mismatching pixels.
//
//   render -r student -c rgb                  # check frame 0 against the serial renderer
//   render -r student -b 0:4 rand10k          # time frames 0..3
//   scripts/grade.sh render                   # the score table
//
// The rule every renderer must follow (docs/render.md, "Where the rule lives"):
// each pixel receives the circles that cover it IN INDEX ORDER (circle 0
// first), and the blend of one circle into a pixel must be finished before
// the next circle's blend into that pixel starts. The serial renderer
// (render/src/host/ref_renderer.cpp and render/src/host/host_renderer.cpp) is the
// definition of correct; render/include/render/shade.h holds the shading
// functions to call (the same ones the serial renderer calls, so results
// agree bit for bit).
//
// Read first: docs/students.md (how to build, check and grade) and
// docs/render.md (the program's options and output).
//
// Given for your kernels, in this folder: circle_box.h (may a circle reach
// a box of the image?) and block_scan.cuh (a block-wide exclusive scan in
// shared memory). Thrust and CUB may be used too.
#include <climits>
#include <memory>
#include <stdexcept>
#include <string>

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

// TODO: replace this kernel. It is the course's first attempt: one thread per
// circle, each blending its circle into every pixel of its bounding box.
// It is wrong in two ways: two threads may update one pixel at the same time
// (one update is lost), and circles reach a pixel in whatever order the
// threads run, not in index order. Your design must keep both rules
// (docs/render.md, and the hints in docs/students.md) and be fast on the
// scenes with many circles as well as on those with a few large ones.
__global__ void kernel_render_circles(DeviceScene s, float* image, int width, int height) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= s.count) return;
  const float x = s.x[i], y = s.y[i], z = s.z[i], radius = s.radius[i];
  const shade::PixelBox box = shade::circle_box(x, y, radius, width, height);
  const float inverse_width = shade::inverse_extent(width);
  const float inverse_height = shade::inverse_extent(height);
  for (int py = box.min_y; py < box.max_y; ++py) {
    const float center_y = shade::pixel_center(py, inverse_height);
    for (int px = box.min_x; px < box.max_x; ++px) {
      const float center_x = shade::pixel_center(px, inverse_width);
      float* pixel = image + 4 * (static_cast<std::size_t>(py) * width + px);
      shade::shade_pixel(pixel, center_x, center_y, x, y, z, radius, s.r[i], s.g[i], s.b[i],
                         s.snow);
    }
  }
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

  // TODO: launch your kernel(s) here. render() must return only when the
  // frame is complete (keep the cudaDeviceSynchronize).
  void render() override {
    if (scene_.count == 0) return;
    kernel_render_circles<<<blocks_for(static_cast<std::size_t>(scene_.count)), kThreads>>>(
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
