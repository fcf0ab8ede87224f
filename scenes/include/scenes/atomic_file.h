// A file written whole or not at all. It lives in the lowest library that
// writes files (scene files); render's image writers use it too.
#pragma once

#include <cstddef>
#include <string>
#include <system_error>

namespace scenes {

// A failure of AtomicFile: code() carries errno, what() the reason in words
// (errno's text, or why the destination is refused), for "cannot write
// PATH: REASON".
class WriteError : public std::system_error {
public:
  WriteError(int error, std::string reason);
  const char* what() const noexcept override { return reason_.c_str(); }

private:
  std::string reason_;
};

// The bytes go to a new file in the destination's folder (so the rename stays
// on one file system), under a short hidden name, which replaces the
// destination on commit() and is removed otherwise. The file gets the usual
// permissions (0666 less the umask).
//
// An existing destination is replaced only when it is a regular file that
// the user may write: a read-only file (no write permission for the user, or
// none at all, so root too leaves it alone), a symbolic link (the rename would
// replace the link, not write through it) and anything else (a device, a
// pipe, a folder) are refused. Every failure throws WriteError.
class AtomicFile {
public:
  explicit AtomicFile(const std::string& destination);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  void write(const void* data, std::size_t size);
  // Closes the file (a full disk may only show here) and renames it into place.
  void commit();

private:
  std::string destination_;
  std::string path_;
  int fd_ = -1;
  int slot_ = -1; // in the table the signal handlers clean up, or -1
  bool committed_ = false;
};

// Makes SIGINT, SIGTERM and SIGHUP (those not ignored) remove the temporary
// files of the AtomicFiles still open, then end the process by the same
// signal as before. Programs that write files call it once at the start.
// Up to 16 files open at once are covered, with paths shorter than PATH_MAX.
void remove_temp_files_on_signals();

} // namespace scenes
