// Where a render worker's renderer keeps the scene and the image in the
// judge's device arena, as the worker reports it after a decoy's setup
// (the worker's side: judge/worker/device_arena.h). The worker's main
// copies each placed frame's scene to these offsets and the image from
// there, on the judge's clock, so no code of the student's runs in the
// load or the read-back (docs/design/judge.md); the judge poisons the image
// there before each frame.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace judge {

struct Placement {
  // Per scene array, in Scene::arrays() order: every arena offset setup()
  // copied it to.
  std::vector<std::vector<std::uint64_t>> arrays;
  bool has_image = false;  // whether image() copied it from the arena
  std::uint64_t image = 0; // from where
};

// Bytes a placement report may take (the start of the shared image).
constexpr std::size_t kPlacementBytes = 4096;

// The worker's side: `placement` into `region` (kPlacementBytes at least;
// else std::invalid_argument). A placement of more offsets than a report
// holds is written as such: the judge reads why it cannot place.
void write_placement(void* region, std::size_t bytes, const Placement& placement);

// The judge's side: the placement in `region`, checked against a scene of
// `circles` circles, an image of `image_bytes` and an arena of
// `arena_bytes`: every array at least once, every range inside the arena,
// none overlapping another. Empty when it holds, else why not.
std::string read_placement(const void* region, std::size_t bytes, std::size_t circles,
                           std::size_t image_bytes, std::size_t arena_bytes, Placement* placement);

} // namespace judge
