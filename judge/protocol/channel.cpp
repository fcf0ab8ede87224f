#include "judge/channel.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>
#include <utility>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace judge {

namespace {

[[noreturn]] void fail(const char* what) {
  throw std::system_error(errno, std::generic_category(), what);
}

// MAP_POPULATE maps every page now: otherwise the first frame's read-back
// pays a page fault per page of the image, which no later frame pays.
void* map_shared(int fd, std::size_t bytes) {
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0);
  if (p == MAP_FAILED) fail("mmap of shared memory");
  return p;
}

} // namespace

SharedMemory SharedMemory::create(std::size_t bytes, const char* name) {
  SharedMemory m;
  // No MFD_CLOEXEC: the worker inherits it (the launcher closes the others).
  m.fd_ = memfd_create(name, MFD_ALLOW_SEALING);
  if (m.fd_ < 0) fail("memfd_create");
  if (ftruncate(m.fd_, static_cast<off_t>(bytes)) != 0) fail("ftruncate of shared memory");
  // Sealed at its size: a worker that shrank it would kill the judge with
  // SIGBUS at its next read, and one that grew it would take memory on the
  // judge's account. Nobody can unseal it.
  if (fcntl(m.fd_, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0)
    fail("sealing shared memory");
  m.bytes_ = bytes;
  m.data_ = map_shared(m.fd_, bytes);
  return m;
}

SharedMemory SharedMemory::attach(int fd, std::size_t bytes) {
  SharedMemory m;
  m.fd_ = fd;
  m.bytes_ = bytes;
  m.data_ = map_shared(fd, bytes);
  return m;
}

SharedMemory::SharedMemory(SharedMemory&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), bytes_(std::exchange(other.bytes_, 0)),
      fd_(std::exchange(other.fd_, -1)) {}

SharedMemory& SharedMemory::operator=(SharedMemory&& other) noexcept {
  if (this != &other) {
    reset();
    data_ = std::exchange(other.data_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

SharedMemory::~SharedMemory() {
  reset();
}

void SharedMemory::reset() noexcept {
  if (data_) munmap(data_, bytes_);
  if (fd_ >= 0) close(fd_);
  data_ = nullptr;
  bytes_ = 0;
  fd_ = -1;
}

void cpu_relax(std::uint64_t spins) {
  // Past about a million spins (tens of milliseconds) nothing is imminent:
  // give the core away so two spinning processes share two cores well.
  if (spins > (1u << 20)) {
    sched_yield();
    return;
  }
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#endif
}

std::string printable(const char* text, std::size_t max_bytes) {
  std::string out;
  for (std::size_t i = 0; i < max_bytes && text[i] != '\0'; ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    out += (c >= 0x20 && c < 0x7f) ? static_cast<char>(c) : '?';
  }
  return out;
}

} // namespace judge
