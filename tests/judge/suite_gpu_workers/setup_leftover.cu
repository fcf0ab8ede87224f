// Leaves a long kernel running when setup() answers, on a stream of its
// own that the frame's work never waits for, then draws each frame
// honestly with our classic mode: work a setup starts must not fall between
// the judge's clocks. The worker's loop synchronizes the device before it
// answers, so the setup's answer waits for the kernel and its excess over
// the allowance is charged to the frame; work that slipped past that would
// leave the GPU busy for the judge's probe after the frame, a rejection.
#include <cuda_runtime.h>

#include <memory>

#include "classic_inner.h"
#include "common/cuda_check.h"
#include "student_renderer.h"

namespace render {
namespace {

// The leftover's length: far above any frame of the scenes it runs on.
constexpr long long kSpinCycles = 100'000'000; // about 50 ms at 2 GHz

__global__ void spin(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

class SetupLeftover : public Renderer {
public:
  SetupLeftover() {
    inner_ = make_classic_inner();
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  }
  ~SetupLeftover() override { cudaStreamDestroy(stream_); }
  std::string name() const override { return "cuda"; }
  void setup(const scenes::Scene& scene, int width, int height) override {
    inner_->setup(scene, width, height);
    spin<<<1, 1, 0, stream_>>>(kSpinCycles);
    CUDA_CHECK_LAUNCH();
  }
  void clear() override { inner_->clear(); }
  void advance() override { inner_->advance(); }
  void render() override { inner_->render(); }
  const Image& image() override { return inner_->image(); }

private:
  std::unique_ptr<Renderer> inner_;
  cudaStream_t stream_ = nullptr;
};

} // namespace

std::unique_ptr<Renderer> make_student_renderer() {
  return std::make_unique<SetupLeftover>();
}

} // namespace render
