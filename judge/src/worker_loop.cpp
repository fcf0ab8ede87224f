#include "judge/worker_loop.h"

#include <cstdio>
#include <exception>

namespace judge {

void set_message(ControlBlock& block, const char* text) {
  std::snprintf(block.message, kMessageBytes, "%s", text);
}

int serve_requests(const std::function<void(ControlBlock&)>& serve) {
  SharedMemory page = SharedMemory::attach(kControlFd, sizeof(ControlBlock));
  auto* block = static_cast<ControlBlock*>(page.data());
  if (block->magic.load() != kChannelMagic) {
    std::fprintf(stderr, "worker: no judge's control page on descriptor 3\n");
    return 2;
  }
  block->worker_ready.store(1, std::memory_order_release);
  for (std::uint64_t seen = 0;;) {
    std::uint64_t seq;
    for (std::uint64_t spins = 0;
         (seq = block->request_seq.load(std::memory_order_acquire)) == seen; ++spins)
      cpu_relax(spins);
    seen = seq;
    const auto command = static_cast<Command>(block->command);
    if (command == Command::kQuit) return 0;
    block->status = static_cast<std::int32_t>(ReplyStatus::kDone);
    block->value = 0;
    if (command != Command::kPing) {
      try {
        serve(*block);
      } catch (const std::exception& e) {
        block->status = static_cast<std::int32_t>(ReplyStatus::kFailed);
        set_message(*block, e.what());
      }
    }
    block->reply_seq.store(seq, std::memory_order_release);
  }
}

} // namespace judge
