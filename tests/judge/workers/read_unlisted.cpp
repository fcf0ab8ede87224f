// Reads a reference file the grader keeps where nothing hides it (another
// student's folder, the original handout): the work is done only if the
// read succeeds, so only a view that lists what a worker needs stops it.
#include <fstream>

#include "honest.h"
#include "slot.h"

namespace {
bool read_reference() {
  std::ifstream in(JUDGE_TEST_TARGETS "/visible/reference.txt");
  return static_cast<bool>(in);
}
} // namespace

SLOT_IF_ATTACK_WORKS(read_reference)
