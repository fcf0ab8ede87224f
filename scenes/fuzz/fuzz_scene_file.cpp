// libFuzzer target for the scene-file reader (scripts/fuzz_scene_file.sh
// builds and runs it). Any input must either be rejected with a
// SceneFileError or be accepted as a scene that writes back, reads back bit
// for bit, and animates without fault. Anything else (another exception, a
// sanitizer report, a mismatch) is a finding.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>

#include "scenes/scene.h"
#include "scenes/scene_file.h"

namespace {

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

bool identical(const scenes::Scene& a, const scenes::Scene& b) {
  return a.name == b.name && a.snow == b.snow && a.animation == b.animation &&
         same_bits(a.x, b.x) && same_bits(a.y, b.y) && same_bits(a.z, b.z) &&
         same_bits(a.vx, b.vx) && same_bits(a.vy, b.vy) && same_bits(a.vz, b.vz) &&
         same_bits(a.r, b.r) && same_bits(a.g, b.g) && same_bits(a.b, b.b) &&
         same_bits(a.radius, b.radius);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  scenes::Scene scene;
  try {
    scene = scenes::read_scene(in, "fuzz-input");
  } catch (const scenes::SceneFileError&) {
    return 0; // rejected cleanly: the expected outcome for most inputs
  }
  std::stringstream text;
  scenes::write_scene(scene, text); // must not throw for an accepted scene
  const scenes::Scene back = scenes::read_scene(text, "fuzz-round-trip");
  if (!identical(scene, back)) std::abort();
  for (int frame = 0; frame < 3; ++frame) scenes::advance(scene);
  return 0;
}
