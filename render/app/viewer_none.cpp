// The stand-in for builds configured without freeglut.
#include <stdexcept>

#include "viewer.h"

namespace render_app {

void require_display() {
  throw std::runtime_error(
      "this build has no display support for -i: install freeglut and OpenGL (Debian: "
      "freeglut3-dev) and configure again, or write an animated image with --gif FILE");
}

int run_viewer(render::Renderer&, const ViewerOptions&, std::ostream&) {
  require_display();
  return 0;
}

} // namespace render_app
