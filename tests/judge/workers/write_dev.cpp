// Writes into /dev (a file, or a file in /dev/shm): its /dev is read-only,
// so the work is done only if a write succeeds.
#include <initializer_list>
#include <fcntl.h>
#include <unistd.h>

#include "honest.h"
#include "slot.h"

namespace {
bool plant() {
  for (const char* path : {"/dev/planted", "/dev/shm/planted"}) {
    const int fd = open(path, O_WRONLY | O_CREAT, 0644);
    if (fd >= 0) {
      close(fd);
      return true;
    }
  }
  return false;
}
} // namespace

SLOT_IF_ATTACK_WORKS(plant)
