#include "judge/render_share.h"

#include <cstring>
#include <stdexcept>
#include <string>

namespace judge {

namespace {

constexpr std::uint32_t kSceneMagic = 0x7363656e; // "scen"
constexpr std::size_t kNameBytes = 32;

struct SceneHeader {
  std::uint32_t magic;
  std::uint32_t animation; // scenes::Animation
  std::uint32_t snow;
  std::int32_t width;
  std::int32_t height;
  std::uint32_t pad;
  std::uint64_t circles;
  char name[kNameBytes];
};

} // namespace

std::size_t scene_bytes(std::size_t circles) {
  return sizeof(SceneHeader) + 10 * circles * sizeof(float);
}

std::size_t image_bytes(int width, int height) {
  return static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 4 * sizeof(float);
}

void write_scene(void* region, std::size_t bytes, const scenes::Scene& scene, int width,
                 int height) {
  if (bytes < scene_bytes(scene.size()))
    throw std::invalid_argument("write_scene: the region is too small for the scene");
  SceneHeader header{};
  header.magic = kSceneMagic;
  header.animation = static_cast<std::uint32_t>(scene.animation);
  header.snow = scene.snow ? 1 : 0;
  header.width = width;
  header.height = height;
  header.circles = scene.size();
  std::strncpy(header.name, scene.name.c_str(), kNameBytes - 1);
  auto* out = static_cast<unsigned char*>(region);
  std::memcpy(out, &header, sizeof header);
  out += sizeof header;
  for (const std::vector<float>* array : scene.arrays()) {
    std::memcpy(out, array->data(), array->size() * sizeof(float));
    out += array->size() * sizeof(float);
  }
}

namespace {

SceneHeader read_header(const void* region, std::size_t bytes) {
  SceneHeader header{};
  if (bytes < sizeof header) throw std::runtime_error("the shared scene is too small");
  std::memcpy(&header, region, sizeof header);
  if (header.magic != kSceneMagic) throw std::runtime_error("no scene in the shared region");
  if (header.circles > (bytes - sizeof header) / (10 * sizeof(float)))
    throw std::runtime_error("the shared scene's circle count does not fit its region");
  return header;
}

} // namespace

const float* shared_scene_array(const void* region, std::size_t bytes, std::size_t k,
                                std::size_t* circles) {
  const SceneHeader header = read_header(region, bytes);
  if (k >= 10) throw std::runtime_error("a scene has ten arrays");
  *circles = header.circles;
  const auto* first = static_cast<const unsigned char*>(region) + sizeof header;
  return reinterpret_cast<const float*>(first + k * header.circles * sizeof(float));
}

scenes::Scene read_scene(const void* region, std::size_t bytes, int* width, int* height) {
  SceneHeader header = read_header(region, bytes);
  if (header.animation > static_cast<std::uint32_t>(scenes::Animation::Snow))
    throw std::runtime_error("the shared scene's animation is unknown");
  scenes::Scene scene;
  header.name[kNameBytes - 1] = '\0';
  scene.name = header.name;
  scene.snow = header.snow != 0;
  scene.animation = static_cast<scenes::Animation>(header.animation);
  scene.resize(header.circles);
  const auto* in = static_cast<const unsigned char*>(region) + sizeof header;
  for (std::vector<float>* array : scene.arrays()) {
    std::memcpy(array->data(), in, array->size() * sizeof(float));
    in += array->size() * sizeof(float);
  }
  *width = header.width;
  *height = header.height;
  return scene;
}

} // namespace judge
