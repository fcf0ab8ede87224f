// The render worker: our small main around a renderer slot (a student's
// render/student/student_renderer.cu, or a reference of the same shape:
// make_student_renderer()). It runs in the judge's sandbox and answers the
// judge's requests on the control page (descriptor 3): set up the scene the
// judge shares (descriptor 4; a decoy), load it into a new renderer (the
// real one, on the judge's clock), draw one frame, read the image back into
// the shared one (descriptor 5); or, for placed frames, set up a decoy in a
// new renderer and report where it keeps the scene and the image in the
// judge's device arena (descriptor 6; device_arena.h). Untrusted like the code it links: the
// judge times and checks everything itself.
#include <cuda_runtime_api.h>
#include <malloc.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "alloc_cache.h"
#include "common/device_buffer.h"
#include "device_arena.h"
#include "judge/channel.h"
#include "judge/render_placement.h"
#include "judge/render_share.h"
#include "judge/shared_array.h"
#include "judge/worker_loop.h"
#include "student_renderer.h"

namespace {

constexpr int kSceneFd = 4, kImageFd = 5, kArenaFd = 6;

struct Args {
  bool device = true; // --memory device: the renderer uses the GPU
  std::size_t scene_bytes = 0, image_bytes = 0;
  std::size_t arena_bytes = 0; // the judge's device arena; 0 for none
};

Args parse(int argc, char** argv) {
  const judge::WorkerArgs w = judge::parse_worker_args(argc, argv);
  return {w.device(), w.bytes("scene-bytes"), w.bytes("image-bytes"), w.bytes("arena-bytes")};
}

// The judge's device arena, made the allocator's before any renderer runs.
judge::SharedArray attach_arena(const Args& args) {
  if (!args.device || args.arena_bytes == 0) return {};
  judge::SharedArray arena =
      judge::SharedArray::attach(judge::MemoryKind::kDevice, kArenaFd, args.arena_bytes);
  judge::attach_device_arena(arena.data(), arena.bytes());
  return arena;
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
        image_(judge::SharedMemory::attach(kImageFd, args.image_bytes)), arena_(attach_arena(args)),
        renderer_(render::make_student_renderer()) {
    if (arena_.data() == nullptr) return; // loaded frames only
    switch_word_ = common::DeviceBuffer<int>(1, "render worker: a word");
    // Page-locked if CUDA can, so a placed frame's copies are the device's
    // own, alike in every worker; plain copies when not.
    for (const judge::SharedMemory* m : {&scene_, &image_})
      if (cudaHostRegister(m->data(), m->bytes(), cudaHostRegisterDefault) != cudaSuccess)
        (void)cudaGetLastError();
  }

  void serve(judge::ControlBlock& block) {
    switch (static_cast<judge::Command>(block.command)) {
    case judge::Command::kRenderSetup: // a decoy: what is kept is not the frame's
      placed_image_ = -1;
      judge::release_alloc_cache();
      setup();
      break;
    case judge::Command::kRenderLoad: {
      if (placed_image_ >= 0) {
        load_placed_scene();
        break;
      }
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
    case judge::Command::kRenderPlace:
      place();
      break;
    case judge::Command::kRenderFrame:
      renderer_->clear();
      renderer_->advance();
      renderer_->render();
      break;
    case judge::Command::kRenderReadBack: {
      if (placed_image_ >= 0) {
        read_placed_image();
        break;
      }
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
  void setup() { setup_scene(read()); }

  scenes::Scene read() {
    return judge::read_scene(scene_.data(), scene_.bytes(), &width_, &height_);
  }

  void setup_scene(const scenes::Scene& scene) { renderer_->setup(scene, width_, height_); }

  // A new renderer set up on the shared scene (a decoy), and image() once:
  // the copies they make say where the scene's arrays and the image live.
  void place() {
    if (arena_.data() == nullptr) throw std::runtime_error("no device arena to place frames in");
    renderer_.reset();
    judge::release_alloc_cache();
    renderer_ = render::make_student_renderer();
    const scenes::Scene scene = read();
    judge::record_copies(true);
    struct Stop {
      ~Stop() { judge::record_copies(false); }
    } stop;
    setup_scene(scene);
    finish_gpu(args_);
    const render::Image& image = renderer_->image();
    finish_gpu(args_);
    judge::Placement placement;
    placement.arrays.resize(scene.arrays().size());
    for (const judge::RecordedCopy& c : judge::recorded_copies()) {
      const long long offset = judge::arena_offset(c.device, c.bytes);
      if (offset < 0) continue;
      const auto at = static_cast<std::uint64_t>(offset);
      for (std::size_t k = 0; k < placement.arrays.size(); ++k) {
        const std::vector<float>& array = *scene.arrays()[k];
        auto& offsets = placement.arrays[k];
        if (c.to_device && c.host == array.data() && c.bytes == array.size() * sizeof(float) &&
            std::find(offsets.begin(), offsets.end(), at) == offsets.end())
          offsets.push_back(at);
      }
      if (!c.to_device && c.host == image.data() &&
          c.bytes == judge::image_bytes(width_, height_)) {
        placement.image = at;
        placement.has_image = true;
      }
    }
    placed_image_ = placement.has_image ? static_cast<long long>(placement.image) : -1;
    placed_arrays_ = placement.arrays;
    placed_circles_ = scene.size();
    judge::write_placement(image_.data(), image_.bytes(), placement);
  }

  // A placed frame's load: each of the shared scene's arrays to every place
  // the renderer's setup() copied the decoy's to.
  void load_placed_scene() {
    std::size_t n = 0;
    for (std::size_t k = 0; k < placed_arrays_.size(); ++k) {
      const float* from = judge::shared_scene_array(scene_.data(), scene_.bytes(), k, &n);
      if (n != placed_circles_) throw std::runtime_error("the placed scene changed its size");
      for (const std::uint64_t offset : placed_arrays_[k]) {
        void* to = static_cast<unsigned char*>(arena_.data()) + offset;
        const cudaError_t e = cudaMemcpyAsync(to, from, n * sizeof(float), cudaMemcpyHostToDevice);
        if (e != cudaSuccess) throw std::runtime_error(cudaGetErrorString(e));
      }
    }
    // Work on the compute engine too, as a renderer's own load does: the GPU
    // switches from the judge's context (its probe) to the worker's here, in
    // the load, which the empty renderer pays alike, not in the frame.
    const cudaError_t e = cudaMemsetAsync(switch_word_.data(), 0, sizeof(int));
    if (e != cudaSuccess) throw std::runtime_error(cudaGetErrorString(e));
  }

  // A placed frame's read-back: the image from where image() read it, into
  // the shared one (registered with CUDA, so the copy costs the same in
  // every worker and is not the host's page-by-page staging).
  void read_placed_image() {
    const std::size_t bytes = judge::image_bytes(width_, height_);
    if (bytes > image_.bytes()) throw std::runtime_error("the shared image is too small");
    const auto* from = static_cast<const unsigned char*>(arena_.data()) + placed_image_;
    const cudaError_t e = cudaMemcpy(image_.data(), from, bytes, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) throw std::runtime_error(cudaGetErrorString(e));
  }

  Args args_;
  bool gpu_;
  judge::SharedMemory scene_, image_;
  judge::SharedArray arena_;
  common::DeviceBuffer<int> switch_word_; // placed frames only
  std::unique_ptr<render::Renderer> renderer_;
  int width_ = 0, height_ = 0;
  // Placed frames: where the image and each scene array are in the arena.
  long long placed_image_ = -1; // none: loaded frames
  std::vector<std::vector<std::uint64_t>> placed_arrays_;
  std::size_t placed_circles_ = 0;
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
