// The renderer interface every implementation follows. The factory that
// picks one is render/renderer_factory.h.
#pragma once

#include <string>

#include "render/image.h"
#include "scenes/scene.h"

namespace render {

// Renders an animated scene frame by frame. Contract: clear(), advance() and
// render() return only when their work is complete (a GPU renderer
// synchronizes before returning), so a wall clock around each call times it
// correctly. A renderer may defer clear()'s writes into the next render()
// (the CUDA renderer does, so each pixel is written once per frame); the work
// is then timed there, and image() never shows the difference. Errors are
// exceptions.
class Renderer {
public:
  virtual ~Renderer() = default;

  // Short name as -r spells it: "cpuref", "cpu", "cuda".
  virtual std::string name() const = 0;

  // Takes its own copy of the scene (advance() changes the copy) and sizes the
  // image: sides in [1, kMaxImageSide], else std::invalid_argument.
  virtual void setup(const scenes::Scene& scene, int width, int height) = 0;

  // Fills the image with the scene's clear color (docs/scenes.md), now or as the
  // start of the next render().
  virtual void clear() = 0;

  // Moves the scene one frame forward (scenes::advance on the host).
  virtual void advance() = 0;

  // Draws every circle over the image, in index order per pixel.
  virtual void render() = 0;

  // The current image on the host; a GPU renderer copies it back here.
  virtual const Image& image() = 0;
};

} // namespace render
