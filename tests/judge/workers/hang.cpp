// Never returns.
#include <atomic>

#include "honest.h"
#include "slot.h"

namespace {
std::atomic<int> spin{0};
[[noreturn]] void hang() {
  for (;;) spin.fetch_add(1, std::memory_order_relaxed);
}
} // namespace

SLOT_ONLY_RUNS(hang)
