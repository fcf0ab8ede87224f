// Floods its output.
#include <cstdio>

#include "honest.h"
#include "slot.h"

namespace {
[[noreturn]] void flood() {
  for (;;) std::fputs("Student GPU time: 0.001 ms\n", stdout);
}
} // namespace

SLOT_ONLY_RUNS(flood)
