// Shrinks the judge's shared image and scene in setup (the judge's next read
// of a shrunk mapping dies of SIGBUS) and tries to grow them, then renders
// honestly: a judge whose memory is sealed keeps its rows.
#include <initializer_list>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "render/ref_renderer.h"
#include "student_renderer.h"

namespace render {
namespace {
class Resizing : public RefRenderer {
public:
  void setup(const scenes::Scene& scene, int width, int height) override {
    for (int fd : {5, 4}) {
      struct stat st {};
      fstat(fd, &st);
      // Grown by a page: a file size past the output limit is refused anyway.
      for (off_t size : {off_t{0}, st.st_size + 4096}) {
        const int r = ftruncate(fd, size);
        std::fprintf(stderr, "resize_image: ftruncate(%d, %lld): %s\n", fd,
                     static_cast<long long>(size), r == 0 ? "done" : std::strerror(errno));
      }
    }
    RefRenderer::setup(scene, width, height);
  }
};
} // namespace
std::unique_ptr<Renderer> make_student_renderer() {
  return std::make_unique<Resizing>();
}
} // namespace render
