#include "test_util.h"

#include <sys/wait.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>

namespace render_test {

scenes::Scene make_scene(const std::vector<Circle>& circles, bool snow) {
  scenes::Scene s;
  s.name = "handmade";
  s.snow = snow;
  s.resize(circles.size());
  for (std::size_t i = 0; i < circles.size(); ++i) {
    s.x[i] = circles[i].x;
    s.y[i] = circles[i].y;
    s.z[i] = circles[i].z;
    s.radius[i] = circles[i].radius;
    s.r[i] = circles[i].r;
    s.g[i] = circles[i].g;
    s.b[i] = circles[i].b;
  }
  return s;
}

std::vector<std::uint8_t> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(in), {});
}

namespace {

std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

} // namespace

ProgramRun run_built(const std::string& program, const std::vector<std::string>& args,
                     const std::string& work_dir, const std::string& wrapper) {
  const TempDir capture;
  std::string command;
  if (!work_dir.empty()) command += "cd " + quote(work_dir) + " && ";
  if (!wrapper.empty()) command += wrapper + " ";
  command += quote(program);
  for (const std::string& a : args) command += " " + quote(a);
  command += " >" + quote(capture.file("out")) + " 2>" + quote(capture.file("err"));
  const int raw = std::system(command.c_str());
  ProgramRun run;
  run.status = (raw != -1 && WIFEXITED(raw)) ? WEXITSTATUS(raw) : -1;
  run.out = slurp(capture.file("out"));
  run.err = slurp(capture.file("err"));
  return run;
}

ProgramRun run_program(const std::vector<std::string>& args, const std::string& work_dir,
                       const std::string& wrapper) {
  return run_built(RENDER_PROGRAM, args, work_dir, wrapper);
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

bool same_bits(const render::Image& a, const render::Image& b) {
  return a.width() == b.width() && a.height() == b.height() &&
         std::memcmp(a.data(), b.data(),
                     a.pixel_count() * render::Image::kChannels * sizeof(float)) == 0;
}

} // namespace render_test
