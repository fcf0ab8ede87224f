// Takes host memory until it can take no more.
#include <cstring>
#include <new>
#include <vector>

#include "honest.h"
#include "slot.h"

namespace {
void hog() {
  std::vector<char*> blocks;
  for (;;) {
    char* b = new char[1 << 26];
    std::memset(b, 1, 1 << 26);
    blocks.push_back(b);
  }
}
} // namespace

SLOT_ONLY_RUNS(hog)
