// Never becomes ready: a static constructor that sleeps.
#include <unistd.h>

#include "honest.h"
#include "slot.h"

namespace {
struct Stall {
  Stall() {
    for (;;) sleep(1);
  }
} stall;
} // namespace

HONEST_SLOT
