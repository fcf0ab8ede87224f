// Helpers shared by the render tests: temporary folders, hand-made scenes,
// and running the built program.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "render/image.h"
#include "scenes/scene.h"
#include "temp_dir.h"

namespace render_test {

using TempDir = ::TempDir; // tests/temp_dir.h

// A circle for hand-made scenes.
struct Circle {
  float x, y, z, radius, r, g, b;
};
scenes::Scene make_scene(const std::vector<Circle>& circles, bool snow = false);

// The whole file as bytes.
std::vector<std::uint8_t> read_file(const std::string& path);

// Exit status and output of one run of a program.
struct ProgramRun {
  int status = -1;
  std::string out;
  std::string err;
};
// Runs the built `program` (a path). `wrapper`: shell words put before it
// (e.g. "env -u DISPLAY").
ProgramRun run_built(const std::string& program, const std::vector<std::string>& args,
                     const std::string& work_dir = "", const std::string& wrapper = "");
// The same for the render program.
ProgramRun run_program(const std::vector<std::string>& args, const std::string& work_dir = "",
                       const std::string& wrapper = "");

// Whether `part` occurs in `text`.
bool contains(const std::string& text, const std::string& part);

// True when the two images hold the same bits in every channel.
bool same_bits(const render::Image& a, const render::Image& b);

} // namespace render_test
