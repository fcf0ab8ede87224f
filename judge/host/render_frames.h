// What each frame of the render judge draws (a fresh variant of the scene,
// its decoy, the reference's image of it) and the untimed warm-up every
// worker starts with, placed or loaded (docs/design/judge.md, "Placed
// frames"). Shared by the pair (render_pair.cpp) and the empty renderer
// (render_empty.cpp). Internal to the judge.
#pragma once

#include <random>
#include <string>

#include "judge/render_judge.h"
#include "render/image.h"
#include "render_run.h"
#include "scenes/scene.h"

namespace judge {

// Where the empty renderer's seeds start in the row's stream: past any
// frame count the judge takes.
constexpr unsigned long long kEmptyStreamOffset = 1ull << 20;
// Where a row judged again on loaded frames draws its variants: past the
// first attempt's and the empty renderer's, so no frame of the first
// attempt comes again.
constexpr unsigned long long kRetryStreamOffset = 1ull << 21;

// Each frame's variant and its decoy: `seeds` gives both, fresh.
struct Variants {
  scenes::Scene decoy, scene;
  std::string fingerprint;
};
Variants next_variants(const std::string& scene_name, const RenderJudgeOptions& options,
                       std::mt19937_64& seeds);

// The reference image of one frame: the serial reference, its rows split
// among the cores (the same bits: render_tests checks it).
render::Image reference_frame(const scenes::Scene& scene, int size);

// How far a pixel may be from the reference's: 0 but for snow on the GPU.
float tolerance_for(const scenes::Scene& scene, const RenderJudgeOptions& options);

// Whether a warm-up tries placed frames, and whether it checks the placed
// frame it draws (the empty renderer's draws nothing: trusted).
enum class Placing { kNo, kChecked, kTrusted };

// An untimed frame on decoys first, for the empty renderer and the worker
// alike: what a first frame pays once (pages of the shared memory mapped,
// caches filled) is then in no timed frame nor allowance. On the GPU it
// places the frames when it can: setup() copied each scene array, and
// image() read the image, where the judge can reach them, and the frame it
// then draws on the scene the judge placed is that scene's. Otherwise the
// frames are loaded, `note` says why, and one more frame warms that up.
// Returns why the worker failed, or nothing.
std::string warm_up(RenderRun& run, const std::string& scene_name,
                    const RenderJudgeOptions& options, std::mt19937_64& seeds, render::Image& image,
                    Placing placing, std::string* note = nullptr);

// The costs file's first line: how the frames reached the worker.
std::string protocol_line(bool placed, const std::string& loaded_because);

// The costs file's column names, after its first line.
extern const char* const kCostsHeader;

} // namespace judge
