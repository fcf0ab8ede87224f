// What the judge shares with a render worker besides the control page: the
// scene of the next frame (host memory the worker inherits; the worker's
// renderer takes its own copy in setup()) and the image it reads back into.
// The judge writes the scene and reads the image; it never reads the scene
// back, so whatever the worker writes there changes nothing.
#pragma once

#include <cstddef>
#include <cstdint>

#include "scenes/scene.h"

namespace judge {

// Bytes of a shared scene of `circles` circles (a header, then the ten
// per-circle arrays in Scene::arrays() order).
std::size_t scene_bytes(std::size_t circles);

// Writes `scene` and the image size into `region` (scene_bytes(scene.size())
// bytes at least, else std::invalid_argument).
void write_scene(void* region, std::size_t bytes, const scenes::Scene& scene, int width,
                 int height);

// The worker's side: the scene and the image size in `region`. Throws
// std::runtime_error when the region holds no whole scene.
scenes::Scene read_scene(const void* region, std::size_t bytes, int* width, int* height);

// The worker's side of a placed frame: array `k` (Scene::arrays() order) of
// the scene in `region`, in place, and its circle count in `circles`.
// Throws std::runtime_error when the region holds no whole scene.
const float* shared_scene_array(const void* region, std::size_t bytes, std::size_t k,
                                std::size_t* circles);

// Bytes of a width x height image of 4 floats per pixel.
std::size_t image_bytes(int width, int height);

} // namespace judge
