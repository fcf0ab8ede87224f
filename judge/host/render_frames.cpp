#include "render_frames.h"

#include <cstdint>

#include "judge/seeds.h"
#include "render/banded_ref_renderer.h"

namespace judge {

namespace {

// Snow shading calls expf, which the GPU rounds differently (render's
// check.h says the same); every other scene must match exactly.
constexpr float kSnowTolerance = 1e-4f;

// A scene of `like`'s size and kind whose every value is drawn afresh: what
// a placement's setup() sees. Nothing setup() computes from it (a binning,
// a culling) holds for the scene's frames, whose geometry the course's
// generator fixes on rgb and pattern.
scenes::Scene random_like(const scenes::Scene& like, std::uint64_t draw) {
  scenes::Scene s = like;
  std::mt19937_64 rng(draw);
  std::uniform_real_distribution<float> unit(0.f, 1.f), speed(-0.01f, 0.01f), radius(0.001f, 0.05f);
  for (std::size_t i = 0; i < s.size(); ++i) {
    s.x[i] = unit(rng);
    s.y[i] = unit(rng);
    s.z[i] = unit(rng);
    s.vx[i] = speed(rng);
    s.vy[i] = speed(rng);
    s.vz[i] = speed(rng);
    s.r[i] = unit(rng);
    s.g[i] = unit(rng);
    s.b[i] = unit(rng);
    s.radius[i] = radius(rng);
  }
  return s;
}

} // namespace

scenes::Scene scene_variant(const std::string& name, std::uint32_t seed, std::uint64_t draw) {
  scenes::Scene scene = scenes::load_scene(name, seed);
  std::mt19937_64 rng(draw);
  std::uniform_real_distribution<float> factor(0.5f, 1.0f);
  // The geometry moves too (the course's generator fixes rgb's and
  // pattern's): the whole scene by up to 2% of the image, each circle by up
  // to 0.2% more, each radius by up to 3%. The work stays the scene's.
  std::uniform_real_distribution<float> shift(-0.02f, 0.02f), jitter(-0.002f, 0.002f),
      grow(0.97f, 1.03f);
  const float dx = shift(rng), dy = shift(rng);
  for (std::size_t i = 0; i < scene.size(); ++i) {
    scene.r[i] *= factor(rng);
    scene.g[i] *= factor(rng);
    scene.b[i] *= factor(rng);
    scene.x[i] += dx + jitter(rng);
    scene.y[i] += dy + jitter(rng);
    scene.radius[i] *= grow(rng);
  }
  return scene;
}

Variants next_variants(const std::string& scene_name, const RenderJudgeOptions& options,
                       std::mt19937_64& seeds) {
  Variants v;
  const auto decoy_seed = static_cast<std::uint32_t>(seeds() % 4294967295u + 1);
  v.decoy = scene_variant(scene_name, decoy_seed, seeds());
  const auto seed = static_cast<std::uint32_t>(seeds() % 4294967295u + 1);
  const std::uint64_t draw = seeds();
  v.scene = scene_variant(scene_name, seed, draw);
  v.fingerprint = fingerprint(options.secret, seed, draw);
  return v;
}

render::Image reference_frame(const scenes::Scene& scene, int size) {
  render::BandedRefRenderer renderer;
  renderer.setup(scene, size, size);
  renderer.clear();
  renderer.advance();
  renderer.render();
  return renderer.image();
}

float tolerance_for(const scenes::Scene& scene, const RenderJudgeOptions& options) {
  return scene.snow && options.memory == MemoryKind::kDevice ? kSnowTolerance : 0.f;
}

std::string warm_up(RenderRun& run, const std::string& scene_name,
                    const RenderJudgeOptions& options, std::mt19937_64& seeds, render::Image& image,
                    Placing placing, std::string* note) {
  if (placing != Placing::kNo && options.memory == MemoryKind::kDevice) {
    const Variants v = next_variants(scene_name, options, seeds);
    Frame f;
    std::string why = run.place(random_like(v.decoy, seeds()), f);
    if (!f.reason.empty()) return f.reason;
    if (why.empty()) {
      f = run.frame("the warm-up frame", v.decoy, v.scene, image);
      if (!f.reason.empty()) return f.reason;
      if (placing == Placing::kTrusted) return {};
      const render::ImageComparison c = render::compare_images(
          image, reference_frame(v.scene, options.size), tolerance_for(v.scene, options));
      if (c.sizes_match && c.mismatches == 0) return {};
      run.unplace();
      why = "the placed warm-up frame differs from the scene the judge placed (" +
            std::to_string(c.mismatches) + " pixels)";
    }
    if (note) *note = why;
  }
  const Variants v = next_variants(scene_name, options, seeds);
  return run.frame("the warm-up frame", v.decoy, v.scene, image).reason;
}

std::string protocol_line(bool placed, const std::string& loaded_because) {
  if (placed) return "# frames placed: the judge wrote each scene where setup() kept the decoy's\n";
  if (loaded_because.empty()) return "# frames loaded\n";
  return "# frames loaded: " + loaded_because + "\n";
}

const char* const kCostsHeader =
    "# frame\tsetup_ms\tload_ms\tframe_ms\tread_back_ms\tuntimed_ms\tallowance_ms\t"
    "probe_charged_ms\tcharged_ms\n";

} // namespace judge
