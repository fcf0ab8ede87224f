// The judge's request/reply channel with a worker: one page of shared memory
// (a memfd the worker inherits) holding sequence numbers both sides spin on,
// so a round trip costs microseconds and small timed calls stay measurable.
//
// The worker can write the whole page. The judge therefore keeps its own
// sequence count, reads only the reply fields, and treats every value there
// as hostile (a reply out of sequence breaks the protocol).
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

namespace judge {

// saxpy's: the whole trip (the shared host arrays copied to the shared
// device arrays, the kernel, the result copied back to the shared host
// array) and the kernel alone (on the shared device arrays), a in `scalar`.
// The render commands: set up the shared scene (a decoy: untimed, so its
// data is of no use to the frame), load the shared scene into a new
// renderer (setup() again, on the clock), one frame (clear, advance,
// render: the course's timed frame), and the read-back of the image into
// the shared one (on the clock). Placed frames (docs/design/judge.md): set
// up the shared scene (a decoy) in a new renderer and report where it keeps
// the scene's arrays and the image in the judge's device arena; the judge
// then writes each frame's scene there and reads the image itself.
enum class Command : std::uint32_t {
  kPing = 1,
  kScan = 2,
  kFindRepeats = 3,
  kQuit = 4,
  kRenderSetup = 5,
  kRenderFrame = 6,
  kRenderReadBack = 7,
  kRenderLoad = 8,
  kSaxpyTrip = 9,
  kSaxpyKernel = 10,
  kRenderPlace = 11
};

enum class ReplyStatus : std::int32_t { kDone = 0, kFailed = 1 };

constexpr std::uint32_t kChannelMagic = 0x6a756467; // "judg"
constexpr std::size_t kMessageBytes = 240;

struct ControlBlock {
  std::atomic<std::uint32_t> magic;
  std::atomic<std::uint32_t> worker_ready; // the worker's 1 once it can take requests
  alignas(64) std::atomic<std::uint64_t> request_seq;
  std::uint32_t command;
  std::int64_t n;
  float scalar; // saxpy's a
  alignas(64) std::atomic<std::uint64_t> reply_seq;
  std::int32_t status;
  std::int64_t value; // find_repeats' count
  char message[kMessageBytes];
};
static_assert(std::atomic<std::uint64_t>::is_always_lock_free, "spinning needs lock-free words");

// An anonymous shared mapping of `bytes` (a memfd), inherited by a child
// through its descriptor. Move-only; unmaps and closes on destruction.
class SharedMemory {
public:
  SharedMemory() = default;
  // Creates one, zero-filled. Throws std::system_error.
  static SharedMemory create(std::size_t bytes, const char* name);
  // Maps an inherited descriptor of at least `bytes` (the worker side).
  static SharedMemory attach(int fd, std::size_t bytes);
  SharedMemory(SharedMemory&& other) noexcept;
  SharedMemory& operator=(SharedMemory&& other) noexcept;
  SharedMemory(const SharedMemory&) = delete;
  SharedMemory& operator=(const SharedMemory&) = delete;
  ~SharedMemory();

  void* data() const noexcept { return data_; }
  std::size_t bytes() const noexcept { return bytes_; }
  int fd() const noexcept { return fd_; }

private:
  void reset() noexcept;
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
  int fd_ = -1;
};

// Spins politely: a pause instruction, and a yield once the wait is long.
void cpu_relax(std::uint64_t spins);

// A printable, bounded copy of text the worker wrote (its message field).
std::string printable(const char* text, std::size_t max_bytes);

} // namespace judge
