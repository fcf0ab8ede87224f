// Takes 1 GiB of shared anonymous memory, which the data limit does not
// count (nor the file size limit, which holds a memfd), and touches every
// page.
#include <sys/mman.h>

#include <cstring>

#include "honest.h"
#include "slot.h"

namespace {
void hog() {
  constexpr std::size_t kBytes = std::size_t{1} << 30;
  void* p = mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return;
  std::memset(p, 1, kBytes);
}
} // namespace

SLOT_ONLY_RUNS(hog)
