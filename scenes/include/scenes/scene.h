// The scene model: circles as structure-of-arrays host data, and how scenes
// are made (docs/scenes.md is the specification they follow exactly).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace scenes {

// How a scene moves between frames. The per-circle steps live in
// animation.h as inline functions that host and device code both call.
enum class Animation { None, BouncingBalls, Hypnosis, Fireworks, Snow };

struct Scene {
  std::string name;
  // Snow shading: color ramp and radial falloff per contribution, and the
  // gray gradient clear. True for snow and snowsingle only.
  bool snow = false;
  Animation animation = Animation::None;

  // One entry per circle, index 0 drawn first (farthest).
  std::vector<float> x, y, z;    // position; z is depth in [0, 1]
  std::vector<float> vx, vy, vz; // velocity (animated scenes)
  std::vector<float> r, g, b;    // color
  std::vector<float> radius;

  std::size_t size() const { return x.size(); }
  // Resizes every array to n circles (new entries zero).
  void resize(std::size_t n);
  // Every per-circle array above, in the order declared.
  std::array<std::vector<float>*, 10> arrays() {
    return {&x, &y, &z, &vx, &vy, &vz, &r, &g, &b, &radius};
  }
  std::array<const std::vector<float>*, 10> arrays() const {
    return {&x, &y, &z, &vx, &vy, &vz, &r, &g, &b, &radius};
  }
};

// The scenes load_scene knows, in the order --list prints them; the same as
// one line ("rgb, rgby, ..."); and the message for a name not among them.
const std::vector<std::string>& scene_names();
std::string scene_names_text();
std::string unknown_scene_message(const std::string& name);

// What --list prints about a scene, known without generating it.
struct SceneInfo {
  std::string name;
  std::size_t circles = 0;
  std::string description; // one line
};

// Every scene load_scene knows, in scene_names() order.
const std::vector<SceneInfo>& scene_catalog();

// Builds a named scene exactly as docs/scenes.md says, seeding the course
// generator with `seed` (0 is treated as 1). Unknown names throw
// std::invalid_argument whose message lists the valid names.
Scene load_scene(const std::string& name, std::uint32_t seed = 0);

// Throws std::invalid_argument unless every array has size() entries and the
// scene's animation can run on that many circles (fireworks: at most
// kFireworksMaxCircles, so every spark has its shell).
void validate_scene(const Scene& scene);

// Keeps only the first `count` circles (all of them when there are fewer).
// Every animation stays valid: a firework spark's shell comes before it.
void keep_first(Scene& scene, std::size_t count);

// Advances an animated scene by one frame on the host (no-op for static
// scenes), using the same per-circle steps as the GPU. Throws as
// validate_scene does.
void advance(Scene& scene);

} // namespace scenes
