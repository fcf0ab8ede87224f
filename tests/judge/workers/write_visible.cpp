// Writes into a folder it can see (beside its own program): the judge's view
// is read-only, so the work is done only if the write succeeds.
#include <cstdio>

#include "honest.h"
#include "slot.h"

namespace {
bool plant() {
  std::FILE* f = std::fopen(JUDGE_TEST_TARGETS "/visible/planted", "w");
  if (!f) return false;
  std::fclose(f);
  return true;
}
} // namespace

SLOT_IF_ATTACK_WORKS(plant)
