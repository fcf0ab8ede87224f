// render -i: a window that shows the frames as they are rendered. Built with
// freeglut when configure finds it (viewer_glut.cpp), else a stand-in that
// says how to get it (viewer_none.cpp).
#pragma once

#include <ostream>
#include <string>

#include "render/renderer.h"

namespace render_app {

struct ViewerOptions {
  int start_frame = 0; // earlier frames are advanced, not shown
  int frames = 0;      // close after this many frames; 0: when the user closes it
  std::string title;
  // When not empty, the window's last frame is read back from the screen
  // and written here as a PPM (P6), for tests comparing it with file output.
  std::string screenshot_path;
};

// Throws std::runtime_error with one line when this build has no display
// support or no display can be opened; run first, before any work.
void require_display();

// Shows frames of a renderer already set up, clearing, advancing and
// rendering each as the frame loop does. Throws std::runtime_error with one
// line when the build has no display support or no display can be opened.
// Returns the number of frames shown.
int run_viewer(render::Renderer& renderer, const ViewerOptions& options, std::ostream& out);

} // namespace render_app
