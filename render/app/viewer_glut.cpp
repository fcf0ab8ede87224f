// render -i through freeglut: one window the size of the image; each frame
// is converted to bytes as the image files are (so the window shows what
// the files hold) and drawn with glDrawPixels. freeglut's own loop is not
// used: the program drives it one event round per frame.
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "render/image_io.h"
#include "scenes/atomic_file.h"
#include "viewer.h"

// After our headers: X11 defines macros such as None.
#include <GL/freeglut.h>
#include <X11/Xlib.h>

namespace render_app {

namespace {

// What the GLUT callbacks need; GLUT callbacks take no context pointer.
struct ViewerWindow {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgb; // bottom row first, as glDrawPixels reads it
  bool closed = false;
  bool exposed = false;        // the window is on screen
  std::string screenshot_path; // read back the next frame drawn, then clear
};
ViewerWindow* g_window = nullptr;

// The back buffer, top row first, as a PPM.
void write_screenshot(const std::string& path, int width, int height) {
  std::vector<std::uint8_t> rgb(static_cast<std::size_t>(width) * height * 3);
  glFinish();
  glReadBuffer(GL_BACK);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, rgb.data());
  // Written whole or not at all, as every file the program writes.
  scenes::AtomicFile out(path);
  const std::string header =
      "P6\n" + std::to_string(width) + " " + std::to_string(height) + "\n255\n";
  out.write(header.data(), header.size());
  for (int y = height - 1; y >= 0; --y)
    out.write(rgb.data() + static_cast<std::size_t>(y) * width * 3,
              static_cast<std::size_t>(width) * 3);
  out.commit();
}

void draw() {
  if (!g_window || g_window->rgb.empty()) return;
  glViewport(0, 0, g_window->width, g_window->height);
  glMatrixMode(GL_PROJECTION);
  glLoadIdentity();
  glMatrixMode(GL_MODELVIEW);
  glLoadIdentity();
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glRasterPos2f(-1.0f, -1.0f);
  glDrawPixels(g_window->width, g_window->height, GL_RGB, GL_UNSIGNED_BYTE, g_window->rgb.data());
  // Read back before the swap: the back buffer holds exactly what was drawn,
  // where the front buffer's content after a swap is not defined.
  if (!g_window->screenshot_path.empty()) {
    write_screenshot(g_window->screenshot_path, g_window->width, g_window->height);
    g_window->screenshot_path.clear();
  }
  glutSwapBuffers();
}

void on_display() {
  if (g_window) g_window->exposed = true;
  draw();
}

void on_key(unsigned char key, int, int) {
  if ((key == 'q' || key == 'Q' || key == 27) && g_window) g_window->closed = true;
}

void on_close() {
  if (g_window) g_window->closed = true;
}

// freeglut's fatal errors: our one line instead of its message. freeglut
// cannot go on after one, so this ends the program (nothing is being written
// while the window is open).
[[noreturn]] void on_glut_error(const char* format, va_list args) {
  char text[512];
  std::vsnprintf(text, sizeof text, format, args);
  std::fprintf(stderr, "render: error: display: %s\n", text);
  std::exit(1);
}

void to_rgb(const render::Image& image, std::vector<std::uint8_t>& rgb) {
  rgb.resize(image.pixel_count() * 3);
  const float* p = image.data();
  for (std::size_t i = 0; i < image.pixel_count(); ++i)
    for (int c = 0; c < 3; ++c) rgb[3 * i + c] = render::to_byte(p[4 * i + c]);
}

// An open connection to the display, or a one-line error.
Display* open_display() {
  const char* display = std::getenv("DISPLAY");
  if (!display || !*display)
    throw std::runtime_error("-i needs a display and DISPLAY is not set (without one, write an "
                             "animated image with --gif FILE)");
  Display* connection = XOpenDisplay(nullptr);
  if (!connection)
    throw std::runtime_error(std::string("-i cannot open the display '") + display +
                             "' (without one, write an animated image with --gif FILE)");
  return connection;
}

} // namespace

void require_display() {
  XCloseDisplay(open_display());
}

int run_viewer(render::Renderer& renderer, const ViewerOptions& options, std::ostream& out) {
  // Asked first, so a bad display gets our line rather than freeglut's; held
  // until freeglut is connected, since a server whose last client leaves may
  // reset and refuse the next one for a moment.
  Display* probe = open_display();
  ViewerWindow window;
  window.width = renderer.image().width();
  window.height = renderer.image().height();
  g_window = &window;
  // freeglut's callbacks must not reach the window once it is gone, also
  // when a frame or the screenshot throws.
  struct Forget {
    ~Forget() { g_window = nullptr; }
  } forget;
  int argc = 1;
  char name[] = "render";
  char* argv[] = {name, nullptr};
  glutInitErrorFunc(on_glut_error);
  glutInit(&argc, argv);
  glutSetOption(GLUT_ACTION_ON_WINDOW_CLOSE, GLUT_ACTION_CONTINUE_EXECUTION);
  glutInitDisplayMode(GLUT_RGB | GLUT_DOUBLE);
  glutInitWindowSize(window.width, window.height);
  const int id = glutCreateWindow(options.title.c_str());
  glutDisplayFunc(on_display);
  glutKeyboardFunc(on_key);
  glutCloseFunc(on_close);
  XCloseDisplay(probe);

  out << "Showing frames from " << options.start_frame << " in a window (q or Esc closes it)\n";
  out.flush();
  for (int frame = 0; frame < options.start_frame; ++frame) renderer.advance();
  // Frames drawn before the window is mapped would not reach the screen.
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!window.exposed && !window.closed && std::chrono::steady_clock::now() < give_up) {
    glutMainLoopEvent();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  // At most 60 frames a second, the animation's own pace.
  constexpr auto kFrameTime = std::chrono::microseconds(16667);
  int shown = 0;
  while (!window.closed && (options.frames == 0 || shown < options.frames)) {
    const auto begin = std::chrono::steady_clock::now();
    renderer.clear();
    renderer.advance();
    renderer.render();
    to_rgb(renderer.image(), window.rgb);
    if (shown + 1 == options.frames) window.screenshot_path = options.screenshot_path;
    draw();
    ++shown;
    glutMainLoopEvent();
    std::this_thread::sleep_until(begin + kFrameTime);
  }
  if (!window.closed) glutDestroyWindow(id);
  glutMainLoopEvent();
  out << "Showed " << shown << " frames\n";
  return shown;
}

} // namespace render_app
