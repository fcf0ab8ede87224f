// Writes the judge's control page itself (the worker's descriptor 3): a
// thread keeps claiming answers to requests that were never sent while the
// call takes its time.
#include <sys/mman.h>

#include <chrono>
#include <thread>

#include "honest.h"
#include "judge/channel.h"
#include "slot.h"

namespace {
void forge_answers() {
  void* p = mmap(nullptr, sizeof(judge::ControlBlock), PROT_READ | PROT_WRITE, MAP_SHARED, 3, 0);
  if (p == MAP_FAILED) return;
  auto* block = static_cast<judge::ControlBlock*>(p);
  std::thread forger([block] {
    const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(200);
    while (std::chrono::steady_clock::now() < end)
      block->reply_seq.store(block->request_seq.load() + 5);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  forger.join();
}
} // namespace

SLOT_ONLY_RUNS(forge_answers)
