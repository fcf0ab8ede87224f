#include "scenes/atomic_file.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <utility>

namespace scenes {

WriteError::WriteError(int error, std::string reason)
    : std::system_error(error, std::generic_category()), reason_(std::move(reason)) {}

namespace {

[[noreturn]] void fail(int error) {
  throw WriteError(error, std::strerror(error));
}

// The temporary files in flight, for the signal handler. A handler may only
// read memory and call async-signal-safe functions (unlink, raise), so the
// paths sit in fixed arrays and a lock-free state says which slot to trust.
enum SlotState : int { kFree, kFilling, kArmed };
struct TempSlot {
  std::atomic<int> state{kFree};
  char path[PATH_MAX];
};
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs lock-free atomics");
constexpr int kTempSlots = 16;
TempSlot temp_slots[kTempSlots];

// Takes a free slot, or -1 when all are taken (that file is then not cleaned
// up on a signal, but written as usual).
int claim_slot() {
  for (int i = 0; i < kTempSlots; ++i) {
    int expected = kFree;
    if (temp_slots[i].state.compare_exchange_strong(expected, kFilling)) return i;
  }
  return -1;
}

// Points the slot at `path`, before the file exists, so no moment is left
// where the file exists and a signal would miss it.
void arm_slot(int slot, const std::string& path) {
  if (slot < 0) return;
  TempSlot& s = temp_slots[slot];
  s.state.store(kFilling);
  if (path.size() >= sizeof s.path) return; // too long to keep: not covered
  std::memcpy(s.path, path.c_str(), path.size() + 1);
  s.state.store(kArmed);
}

void release_slot(int slot) {
  if (slot >= 0) temp_slots[slot].state.store(kFree);
}

extern "C" void remove_temp_files_and_reraise(int signal_number) {
  for (TempSlot& s : temp_slots)
    if (s.state.load() == kArmed) ::unlink(s.path);
  // SA_RESETHAND restored the default action; the signal is blocked while
  // the handler runs and ends the process as soon as the handler returns.
  ::raise(signal_number);
}

// The destination may be replaced only when it does not exist or is a regular
// file the user may write; throws otherwise.
void check_replaceable(const std::string& destination) {
  struct stat info {};
  if (::lstat(destination.c_str(), &info) != 0) {
    if (errno == ENOENT) return;
    fail(errno);
  }
  if (S_ISLNK(info.st_mode))
    throw WriteError(EEXIST, "it is a symbolic link (refused: the link would be replaced, "
                             "not written through)");
  if (S_ISDIR(info.st_mode)) throw WriteError(EISDIR, "it is a folder");
  if (!S_ISREG(info.st_mode))
    throw WriteError(EEXIST, "it exists and is not a regular file (refused to replace it)");
  if ((info.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0 ||
      ::faccessat(AT_FDCWD, destination.c_str(), W_OK, AT_EACCESS) != 0)
    throw WriteError(EACCES, "it is read-only (refused to replace it)");
}

} // namespace

void remove_temp_files_on_signals() {
  for (const int signal_number : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old_action {};
    if (::sigaction(signal_number, nullptr, &old_action) != 0) continue;
    if (old_action.sa_handler == SIG_IGN) continue; // e.g. nohup: keep it ignored
    struct sigaction action {};
    action.sa_handler = remove_temp_files_and_reraise;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND;
    ::sigaction(signal_number, &action, nullptr);
  }
}

AtomicFile::AtomicFile(const std::string& destination) : destination_(destination) {
  check_replaceable(destination);
  const std::size_t slash = destination.find_last_of('/');
  const std::string folder = slash == std::string::npos ? "" : destination.substr(0, slash + 1);
  slot_ = claim_slot();
  // A name of its own (process, then a counter shared by the threads), never
  // longer than a few dozen bytes, whatever the destination's name; O_EXCL
  // never takes over another writer's file.
  static std::atomic<unsigned> counter{0};
  for (int attempt = 0; attempt < 100; ++attempt) {
    path_ = folder + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
    arm_slot(slot_, path_);
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd_ >= 0 || errno != EEXIST) break;
  }
  if (fd_ < 0) {
    const int error = errno;
    release_slot(slot_);
    fail(error);
  }
}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_) ::unlink(path_.c_str());
  release_slot(slot_);
}

void AtomicFile::write(const void* data, std::size_t size) {
  const auto* bytes = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t written = ::write(fd_, bytes, size);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) fail(written < 0 ? errno : EIO);
    bytes += written;
    size -= static_cast<std::size_t>(written);
  }
}

void AtomicFile::commit() {
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) fail(errno);
  if (std::rename(path_.c_str(), destination_.c_str()) != 0) fail(errno);
  committed_ = true;
}

} // namespace scenes
