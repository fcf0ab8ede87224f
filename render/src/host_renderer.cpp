#include "render/host_renderer.h"

#include <utility>

#include "run_shading.h"

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

shade::PixelBox HostRenderer::box_of(std::size_t circle) const {
  return shade::circle_box(scene_.x[circle], scene_.y[circle], scene_.radius[circle], width(),
                           height());
}

void HostRenderer::shade_circle(std::size_t circle, const shade::PixelBox& box) {
  // Chosen once per circle rather than per pixel.
  if (scene_.snow)
    shade_circle_as<true>(circle, box);
  else
    shade_circle_as<false>(circle, box);
}

void HostRenderer::shade_circle_runs(std::size_t circle, const shade::PixelBox& box) {
  // Snow's contribution changes per pixel, so runs would save little there.
  if (scene_.snow) {
    shade_circle_as<true>(circle, box);
    return;
  }
  const FlatCircle c{scene_.x[circle], scene_.y[circle], scene_.radius[circle],
                     shade::blend_terms(shade::flat_contribution(scene_.r[circle], scene_.g[circle],
                                                                 scene_.b[circle]))};
  shade_flat_circle_runs(image_, c, box, inverse_width_, inverse_height_);
}

template <bool kSnow>
void HostRenderer::shade_circle_as(std::size_t circle, const shade::PixelBox& box) {
  const float x = scene_.x[circle];
  const float y = scene_.y[circle];
  const float z = scene_.z[circle];
  const float radius = scene_.radius[circle];
  const float r = scene_.r[circle];
  const float g = scene_.g[circle];
  const float b = scene_.b[circle];
  for (int py = box.min_y; py < box.max_y; ++py) {
    const float center_y = shade::pixel_center(py, inverse_height_);
    float* p = image_.pixel(box.min_x, py);
    for (int px = box.min_x; px < box.max_x; ++px, p += Image::kChannels) {
      const float center_x = shade::pixel_center(px, inverse_width_);
      shade::shade_pixel(p, center_x, center_y, x, y, z, radius, r, g, b, kSnow);
    }
  }
}

} // namespace render
