// The scene catalog, load_scene and the host frame step.
#include "scenes/scene.h"

#include <functional>
#include <stdexcept>

#include "generators.h"
#include "scenes/animation.h"

namespace scenes {

void Scene::resize(std::size_t n) {
  for (std::vector<float>* array : arrays()) array->assign(n, 0.0f);
}

namespace {

using Builder = std::function<void(Scene&, std::uint32_t seed, CourseRand& rng)>;

struct CatalogEntry {
  SceneInfo info;
  Builder build;
};

const std::vector<CatalogEntry>& catalog() {
  using namespace detail;
  // Counts are written out so --list needs no generation; a test checks each
  // against the generated scene.
  static const std::vector<CatalogEntry> entries = {
      {{"rgb", 3, "three large overlapping circles: red, green, blue"},
       [](Scene& s, std::uint32_t, CourseRand&) { make_rgb(s); }},
      {{"rgby", 4, "red, green, blue and yellow circles"},
       [](Scene& s, std::uint32_t, CourseRand&) { make_rgby(s); }},
      {{"rand10k", 10000, "10,000 random circles"},
       [](Scene& s, std::uint32_t seed, CourseRand& rng) {
         make_random_circles(s, 10000, seed, rng);
       }},
      {{"rand100k", 100000, "100,000 random circles"},
       [](Scene& s, std::uint32_t seed, CourseRand& rng) {
         make_random_circles(s, 100000, seed, rng);
       }},
      {{"rand1M", 1000000, "1,000,000 small random circles"},
       [](Scene& s, std::uint32_t seed, CourseRand& rng) {
         make_random_circles(s, 1000000, seed, rng);
       }},
      {{"biglittle", 10000, "large circles at the back, 1,000 small ones in front"},
       [](Scene& s, std::uint32_t seed, CourseRand& rng) {
         make_sized_circles(s, 10000, 0.25f, seed, rng);
         move_circles(s, 9000, 1000, 0.05f, 0.85f, 0.1f, rng);
       }},
      {{"littlebig", 10000, "large circles at the back, 1,000 small ones in front, elsewhere"},
       [](Scene& s, std::uint32_t seed, CourseRand& rng) {
         make_sized_circles(s, 10000, 0.25f, seed, rng);
         move_circles(s, 9000, 1000, 0.05f, 0.05f, 0.1f, rng);
       }},
      {{"pattern", 256 + 961, "two grids of red and yellow circles"},
       [](Scene& s, std::uint32_t, CourseRand& rng) { make_pattern(s, rng); }},
      {{"micro2M", 2000000, "2,000,000 tiny circles"},
       [](Scene& s, std::uint32_t seed, CourseRand& rng) {
         make_sized_circles(s, 2000000, 0.001f, seed, rng);
       }},
      {{"bouncingballs", 10, "ten balls bouncing on the floor (animated)"},
       [](Scene& s, std::uint32_t, CourseRand& rng) { make_bouncing_balls(s, rng); }},
      {{"fireworks", 15 + 15 * 20, "15 shells throwing sparks (animated)"},
       [](Scene& s, std::uint32_t, CourseRand& rng) { make_fireworks(s, rng); }},
      {{"hypnosis", 25, "25 growing rings (animated)"},
       [](Scene& s, std::uint32_t, CourseRand& rng) { make_hypnosis(s, rng); }},
      {{"snow", kSnowFlakes,
        "100,000 falling snowflakes (animated; our own design, not the course's)"},
       [](Scene& s, std::uint32_t seed, CourseRand& rng) { make_snow(s, seed, rng); }},
      {{"snowsingle", kSnowFlakes, "one still frame of snow (our own design, not the course's)"},
       [](Scene& s, std::uint32_t seed, CourseRand& rng) {
         make_snow(s, seed, rng);
         for (int frame = 0; frame < kSnowSingleFrames; ++frame) advance(s);
         s.animation = Animation::None;
       }},
  };
  return entries;
}

} // namespace

const std::vector<SceneInfo>& scene_catalog() {
  static const std::vector<SceneInfo> infos = [] {
    std::vector<SceneInfo> list;
    for (const CatalogEntry& entry : catalog()) list.push_back(entry.info);
    return list;
  }();
  return infos;
}

const std::vector<std::string>& scene_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> list;
    for (const CatalogEntry& entry : catalog()) list.push_back(entry.info.name);
    return list;
  }();
  return names;
}

std::string scene_names_text() {
  std::string text;
  for (const std::string& name : scene_names()) text += (text.empty() ? "" : ", ") + name;
  return text;
}

std::string unknown_scene_message(const std::string& name) {
  return "unknown scene '" + name + "' (valid scenes: " + scene_names_text() + ")";
}

Scene load_scene(const std::string& name, std::uint32_t seed) {
  for (const CatalogEntry& entry : catalog()) {
    if (entry.info.name != name) continue;
    Scene scene;
    scene.name = name;
    CourseRand rng(seed);
    entry.build(scene, seed, rng);
    return scene;
  }
  throw std::invalid_argument(unknown_scene_message(name));
}

void validate_scene(const Scene& scene) {
  const std::size_t n = scene.x.size();
  for (const std::vector<float>* array : scene.arrays()) {
    if (array->size() != n) {
      throw std::invalid_argument("scene '" + scene.name + "': its arrays differ in length (" +
                                  std::to_string(n) + " and " + std::to_string(array->size()) +
                                  ")");
    }
  }
  if (scene.animation == Animation::Fireworks && n > kFireworksMaxCircles) {
    throw std::invalid_argument("scene '" + scene.name + "': a fireworks scene has at most " +
                                std::to_string(kFireworksMaxCircles) + " circles, not " +
                                std::to_string(n));
  }
}

void keep_first(Scene& scene, std::size_t count) {
  if (count >= scene.size()) return;
  for (std::vector<float>* array : scene.arrays()) array->resize(count);
}

void advance(Scene& scene) {
  validate_scene(scene);
  const std::size_t n = scene.size();
  if (scene.animation == Animation::None) return;
  const CircleArrays c{scene.x.data(),  scene.y.data(),  scene.z.data(),     scene.vx.data(),
                       scene.vy.data(), scene.vz.data(), scene.radius.data()};
  for (std::size_t i = 0; i < n; ++i) advance_circle(scene.animation, static_cast<int>(i), c);
}

} // namespace scenes
