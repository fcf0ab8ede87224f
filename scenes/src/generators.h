// The scene generators, one per kind of scene. Internal to the library:
// load_scene (scene.cpp) is the public way in.
#pragma once

#include <cstdint>

#include "scenes/course_rand.h"
#include "scenes/scene.h"

namespace scenes::detail {

// docs/scenes.md, "How the scenes are built". Each takes the generator as seeded at load time.
void make_rgb(Scene& scene);
void make_rgby(Scene& scene);
void make_random_circles(Scene& scene, std::size_t n, std::uint32_t seed, CourseRand& rng);
void make_sized_circles(Scene& scene, std::size_t n, float radius, std::uint32_t seed,
                        CourseRand& rng);
void move_circles(Scene& scene, std::size_t first, std::size_t count, float radius, float c,
                  float d, CourseRand& rng);
void make_pattern(Scene& scene, CourseRand& rng);
void make_bouncing_balls(Scene& scene, CourseRand& rng);
void make_hypnosis(Scene& scene, CourseRand& rng);
void make_fireworks(Scene& scene, CourseRand& rng);

// Our own snow (snow_scene.cpp).
constexpr std::size_t kSnowFlakes = 100000;
constexpr int kSnowSingleFrames = 60; // snowsingle is snow one second in
void make_snow(Scene& scene, std::uint32_t seed, CourseRand& rng);

} // namespace scenes::detail
