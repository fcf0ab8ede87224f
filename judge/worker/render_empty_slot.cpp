// The judge's empty renderer: what an honest renderer must do with the data
// the judge hands it and nothing more. Its setup() copies the scene (to the
// device as the course's renderer does, or on the host with
// RENDER_EMPTY_ON_HOST), its image() copies the image back, and its frame
// draws nothing. The judge times it like a submission in the same run, and
// what its load and read-back cost is all a submission's may cost unseen:
// the allowance of those calls is this fixed cost, never a reference's.
// Trusted code only; its images are never checked.
#include <array>
#include <memory>
#include <string>
#include <tuple>
#include <utility>

#include "render/image.h"
#include "student_renderer.h"

#ifndef RENDER_EMPTY_ON_HOST
#include "common/device_buffer.h"
#endif

namespace render {

namespace {

class EmptyRenderer final : public Renderer {
public:
  std::string name() const override { return "empty"; }

  void setup(const scenes::Scene& scene, int width, int height) override {
    image_ = Image(width, height);
#ifdef RENDER_EMPTY_ON_HOST
    scene_ = scene;
#else
    const std::size_t n = scene.size();
    const auto host = scene.arrays();
    for (std::size_t k = 0; k < host.size(); ++k) {
      arrays_[k] = common::DeviceBuffer<float>(n, "scene array");
      arrays_[k].copy_from_host(host[k]->data(), n);
    }
    device_image_ = common::DeviceBuffer<float>(image_.pixel_count() * 4, "image");
#endif
  }

  void clear() override {}
  void advance() override {}
  void render() override {}

  const Image& image() override {
#ifndef RENDER_EMPTY_ON_HOST
    device_image_.copy_to_host(image_.data(), image_.pixel_count() * 4);
#endif
    return image_;
  }

private:
  Image image_;
#ifdef RENDER_EMPTY_ON_HOST
  scenes::Scene scene_;
#else
  // One per array of the scene.
  std::array<common::DeviceBuffer<float>,
             std::tuple_size_v<decltype(std::declval<const scenes::Scene&>().arrays())>>
      arrays_;
  common::DeviceBuffer<float> device_image_;
#endif
};

} // namespace

std::unique_ptr<Renderer> make_student_renderer() {
  return std::make_unique<EmptyRenderer>();
}

} // namespace render
