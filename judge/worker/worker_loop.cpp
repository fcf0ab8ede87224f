#include "judge/worker_loop.h"

#include <cstdio>
#include <cstdlib>
#include <exception>

namespace judge {

void set_message(ControlBlock& block, const char* text) {
  std::snprintf(block.message, kMessageBytes, "%s", text);
}

WorkerArgs parse_worker_args(int argc, char** argv) {
  WorkerArgs a;
  for (int i = 1; i + 1 < argc; i += 2) a.values[argv[i]] = argv[i + 1];
  return a;
}

bool WorkerArgs::device() const {
  const auto it = values.find("--memory");
  return it == values.end() || it->second != "host";
}

std::size_t WorkerArgs::bytes(const std::string& name) const {
  const auto it = values.find("--" + name);
  return it == values.end() ? 0 : std::strtoull(it->second.c_str(), nullptr, 10);
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
