// A file written whole or not at all. It lives in the lowest library that
// writes files (scene files); render's image writers use it too.
#pragma once

#include <cstddef>
#include <string>

namespace scenes {

// The bytes go to a new file in the destination's folder (so the rename stays
// on one file system), under a short hidden name, which replaces the
// destination on commit() and is removed otherwise. The file gets the usual
// permissions (0666 less the umask). Every failure throws std::system_error
// carrying errno; callers add what they were writing.
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
  bool committed_ = false;
};

} // namespace scenes
