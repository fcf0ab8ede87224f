// The render worker: our small main around a renderer slot (a student's
// render/student/student_renderer.cu, or a reference of the same shape:
// make_student_renderer()). It runs in the judge's sandbox and answers the
// judge's requests on the control page (descriptor 3): set up the scene the
// judge shares (descriptor 4; a decoy), load it into a new renderer (the
// real one, on the judge's clock), draw one frame, read the image back into
// the shared one (descriptor 5). Untrusted like the code it links: the
// judge times and checks everything itself.
#include <cuda_runtime_api.h>
#include <malloc.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>

#include "alloc_cache.h"
#include "judge/channel.h"
#include "judge/render_share.h"
#include "judge/worker_loop.h"
#include "student_renderer.h"

namespace {

constexpr int kSceneFd = 4, kImageFd = 5;

struct Args {
  bool device = true; // --memory device: the renderer uses the GPU
  std::size_t scene_bytes = 0, image_bytes = 0;
};

Args parse(int argc, char** argv) {
  const judge::WorkerArgs w = judge::parse_worker_args(argc, argv);
  return {w.device(), w.bytes("scene-bytes"), w.bytes("image-bytes")};
}

// Makes the CUDA context before the worker says it is ready: with the
// judge's eager module loading every kernel loads here, not in a timed call.
bool start_gpu(bool device) {
  if (!device) return false;
  const cudaError_t e = cudaFree(nullptr);
  if (e != cudaSuccess) throw std::runtime_error(cudaGetErrorString(e));
  return true;
}

// The renderer's contract says its calls return when their work is done;
// the worker waits for the GPU too, so a slot that forgets is timed whole.
void finish_gpu(const Args& args) {
  if (!args.device) return;
  const cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) throw std::runtime_error(cudaGetErrorString(e));
}

class Server {
public:
  Server(const Args& args)
      : args_(args), gpu_(start_gpu(args.device)),
        scene_(judge::SharedMemory::attach(kSceneFd, args.scene_bytes)),
        image_(judge::SharedMemory::attach(kImageFd, args.image_bytes)),
        renderer_(render::make_student_renderer()) {}

  void serve(judge::ControlBlock& block) {
    switch (static_cast<judge::Command>(block.command)) {
    case judge::Command::kRenderSetup: // a decoy: what is kept is not the frame's
      judge::release_alloc_cache();
      setup();
      break;
    case judge::Command::kRenderLoad: {
      // A new renderer, so one that allocates in setup() (the course's) is
      // served from what the old one freed, as free as in the decoy's setup.
      judge::set_alloc_cache(true);
      struct Off {
        ~Off() { judge::set_alloc_cache(false); }
      } off;
      renderer_.reset();
      renderer_ = render::make_student_renderer();
      setup();
      break;
    }
    case judge::Command::kRenderFrame:
      renderer_->clear();
      renderer_->advance();
      renderer_->render();
      break;
    case judge::Command::kRenderReadBack: {
      const render::Image& image = renderer_->image();
      if (image.width() != width_ || image.height() != height_)
        throw std::runtime_error("image() is " + std::to_string(image.width()) + "x" +
                                 std::to_string(image.height()) + ", not the scene's " +
                                 std::to_string(width_) + "x" + std::to_string(height_));
      const std::size_t bytes = judge::image_bytes(width_, height_);
      if (bytes > image_.bytes()) throw std::runtime_error("the shared image is too small");
      std::memcpy(image_.data(), image.data(), bytes);
      break;
    }
    default:
      throw std::runtime_error("not a render request");
    }
    finish_gpu(args_);
  }

private:
  void setup() {
    int width = 0, height = 0;
    const scenes::Scene scene = judge::read_scene(scene_.data(), scene_.bytes(), &width, &height);
    renderer_->setup(scene, width, height);
    width_ = width;
    height_ = height;
  }

  Args args_;
  bool gpu_;
  judge::SharedMemory scene_, image_;
  std::unique_ptr<render::Renderer> renderer_;
  int width_ = 0, height_ = 0;
};

} // namespace

int main(int argc, char** argv) {
  // Host memory freed by the old renderer is reused by the new one without
  // new page faults, as the device's is (alloc_cache.h): no mmap'd chunks,
  // no trimming.
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, -1);
  try {
    Server server(parse(argc, argv));
    return judge::serve_requests([&](judge::ControlBlock& block) { server.serve(block); });
  } catch (const std::exception& e) {
    std::fprintf(stderr, "render worker: %s\n", e.what());
    return 1;
  }
}
