// A fork bomb in the timed call.
#include <unistd.h>

#include "honest.h"
#include "slot.h"

namespace {
[[noreturn]] void bomb() {
  for (;;) fork();
}
} // namespace

SLOT_ONLY_RUNS(bomb)
