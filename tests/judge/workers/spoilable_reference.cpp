// An honest reference that fails once spoil_reference has run beside it (its
// mark, which the failure takes away: the spoiler is killed while held,
// before any exit handler of its own could): the reference a graded worker
// made fail.
#include <cstdio>
#include <stdexcept>

#include "honest.h"
#include "slot.h"
#include "spoil_reference.h"

namespace {
void fail_if_spoiled() {
  if (std::remove(spoil_mark().c_str()) == 0) throw std::runtime_error("spoiled by its neighbour");
}
} // namespace

namespace scan::student {
void exclusive_scan(const int* input, int n, int* result) {
  fail_if_spoiled();
  honest::scan(input, n, result);
}
int find_repeats(const int* input, int n, int* output) {
  fail_if_spoiled();
  return honest::find_repeats(input, n, output);
}
} // namespace scan::student
