#include "render/host_renderer.h"

#include <utility>

namespace render {

void HostRenderer::setup(const scenes::Scene& scene, int width, int height) {
  scenes::validate_scene(scene); // every array one entry per circle
  Image image(width, height);
  scene_ = scene;
  image_ = std::move(image);
  inverse_width_ = shade::inverse_extent(width);
  inverse_height_ = shade::inverse_extent(height);
}

void HostRenderer::advance() {
  scenes::advance(scene_);
}

void HostRenderer::clear_rows(int begin, int end) {
  for (int y = begin; y < end; ++y) {
    const float gray = shade::clear_gray(y, height(), scene_.snow);
    float* p = image_.pixel(0, y);
    for (int x = 0; x < width(); ++x, p += Image::kChannels) {
      p[0] = gray;
      p[1] = gray;
      p[2] = gray;
      p[3] = 1.f;
    }
  }
}

HostRenderer::Circle HostRenderer::circle(std::size_t i) const {
  return Circle{scene_.x[i], scene_.y[i], scene_.z[i], scene_.radius[i],
                scene_.r[i], scene_.g[i], scene_.b[i]};
}

void HostRenderer::shade_circle(const Circle& c, const shade::PixelBox& box) {
  // Chosen once per circle rather than per pixel.
  if (scene_.snow)
    shade_circle_as<true>(c, box);
  else
    shade_circle_as<false>(c, box);
}

template <bool kSnow>
void HostRenderer::shade_circle_as(const Circle& c, const shade::PixelBox& box) {
  for (int py = box.min_y; py < box.max_y; ++py) {
    const float center_y = shade::pixel_center(py, inverse_height_);
    float* p = image_.pixel(box.min_x, py);
    for (int px = box.min_x; px < box.max_x; ++px, p += Image::kChannels) {
      const float center_x = shade::pixel_center(px, inverse_width_);
      shade::shade_pixel(p, center_x, center_y, c.x, c.y, c.z, c.radius, c.r, c.g, c.b, kSnow);
    }
  }
}

} // namespace render
