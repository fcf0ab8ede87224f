// What the CUDA renderer's test files share: scenes made once per program
// run, a random seed per run, frame 0 as the frame loop draws it, and the
// comparison with the serial reference (bit for bit, except snow scenes:
// check_tolerance), in one mode or several, per size case.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "render/check.h"
#include "render/cuda_renderer.h"
#include "render/ref_renderer.h"
#include "scenes/scene.h"

namespace cuda_checks {

using render::CudaMode;
using render::CudaRenderer;
using render::CudaRendererOptions;
using render::Image;
using render::RefRenderer;

constexpr CudaMode kBothModes[] = {CudaMode::Tiled, CudaMode::Binned};

// One seed per test program run, printed with any failure, so each run also
// covers a scene nobody chose; RENDER_TEST_SEED=<number> repeats a run.
std::uint32_t random_seed();

// Scenes are slow to generate (rand1M, micro2M): each once per program run.
const scenes::Scene& cached_scene(const std::string& name, std::uint32_t seed);

// Frame 0 as the frame loop draws it: clear, advance, render.
const Image& draw_frame(render::Renderer& renderer);

// Empty when the images agree within the scene's tolerance (and, when that
// is 0, in every bit); else what differs.
std::string difference(const Image& actual, const Image& expected, float tolerance);

// Renders frame 0 of `scene` with the CUDA renderer and compares it with
// `expected`; returns the renderer's suffix compositing counts.
render::CudaSuffixTiles expect_cuda_matches(const scenes::Scene& scene, int size,
                                            const Image& expected,
                                            const CudaRendererOptions& options,
                                            const std::string& what);

CudaRendererOptions with_mode(CudaMode mode);

// expect_cuda_matches in each of `modes`, the mode named after `what`.
template <std::size_t N>
void expect_modes_match(const scenes::Scene& scene, int size, const Image& expected,
                        const CudaMode (&modes)[N], const std::string& what) {
  for (const CudaMode mode : modes)
    expect_cuda_matches(scene, size, expected, with_mode(mode),
                        what + ", " + render::cuda_mode_name(mode));
}

struct SizeCase {
  int size;
  bool random_seed;
};

// For each size case of scene `name`: the scene, its reference image, and a
// description for failures, passed to check(scene, size, expected, where).
template <class Check>
void for_each_size_case(const std::string& name, const std::vector<SizeCase>& cases,
                        const Check& check) {
  for (const SizeCase& c : cases) {
    const std::uint32_t seed = c.random_seed ? random_seed() : 0u;
    const scenes::Scene& scene = cached_scene(name, seed);
    RefRenderer ref;
    ref.setup(scene, c.size, c.size);
    const Image expected = draw_frame(ref);
    const std::string where =
        name + " at " + std::to_string(c.size) + "², seed " + std::to_string(seed) +
        (c.random_seed ? " (RENDER_TEST_SEED=" + std::to_string(random_seed() - 1) + ")" : "");
    check(scene, c.size, expected, where);
  }
}

// Hand-made scenes that probe the exactness arguments: circles far outside
// the unit square, huge and tiny and negative radii, NaN and infinity, black
// circles stacked until pixels become tiny (where a fused blend would round
// differently), a radius-0 circle exactly on a pixel center.
std::vector<std::pair<std::string, scenes::Scene>> edge_scenes();

} // namespace cuda_checks
