// Honest, but a reference beside it fails (its mark, read by
// spoilable_reference): the part must not be lost for it. The judge runs
// the reference again alone, where it passes, and rejects this worker.
#include <cstdio>

#include "honest.h"
#include "slot.h"
#include "spoil_reference.h"

namespace {
const bool marked = [] {
  std::FILE* f = std::fopen(spoil_mark().c_str(), "w");
  if (f) std::fclose(f);
  return f != nullptr;
}();
} // namespace

HONEST_SLOT
