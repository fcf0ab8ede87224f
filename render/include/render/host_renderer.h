// What the two CPU renderers share: the scene copy, the image, clearing,
// advancing, and shading one circle into a box of pixels. They differ only in
// how they split the work.
#pragma once

#include <cstddef>

#include "render/image.h"
#include "render/renderer.h"
#include "render/shade.h"
#include "scenes/scene.h"

namespace render {

class HostRenderer : public Renderer {
public:
  void setup(const scenes::Scene& scene, int width, int height) override;
  void advance() override;
  const Image& image() override { return image_; }

protected:
  const scenes::Scene& scene() const { return scene_; }
  int width() const { return image_.width(); }
  int height() const { return image_.height(); }

  Image& mutable_image() { return image_; }
  float inverse_width() const { return inverse_width_; }
  float inverse_height() const { return inverse_height_; }

  // Sets rows [begin, end) to the clear color.
  void clear_rows(int begin, int end);

  // One circle's values, gathered from the scene's arrays.
  struct Circle {
    float x, y, z, radius, r, g, b;
  };
  Circle circle(std::size_t index) const;

  // The circle's pixel box (docs/scenes.md), clamped to the image. Inline: the
  // CPU renderer's tiles ask it for every circle of their lists.
  shade::PixelBox box_of(const Circle& c) const {
    return shade::circle_box(c.x, c.y, c.radius, width(), height());
  }

  // Shades the circle into every pixel of `box`, which must lie inside the
  // circle's own box and the image.
  void shade_circle(const Circle& c, const shade::PixelBox& box);

private:
  template <bool kSnow> void shade_circle_as(const Circle& c, const shade::PixelBox& box);

  scenes::Scene scene_;
  Image image_;
  float inverse_width_ = 0;
  float inverse_height_ = 0;
};

} // namespace render
