// Crashes in the timed call.
#include <csignal>

#include "honest.h"
#include "slot.h"

namespace {
void crash() {
  std::raise(SIGSEGV);
}
} // namespace

SLOT_ONLY_RUNS(crash)
