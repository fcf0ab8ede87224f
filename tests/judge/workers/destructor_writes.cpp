// Does no work; an atexit handler and a static destructor try to write the
// grader's results (a file the test planted in a folder the judge hides).
#include <cstdio>
#include <cstdlib>

#include "honest.h"
#include "slot.h"

namespace {
void forge_results() {
  if (std::FILE* f = std::fopen(JUDGE_TEST_TARGETS "/hidden/results.json", "w")) {
    std::fputs("{\"score\": 100}\n", f);
    std::fclose(f);
  }
}
struct Forge {
  Forge() { std::atexit(forge_results); }
  ~Forge() { forge_results(); }
} forge;
} // namespace

SLOT_ONLY_RUNS(forge_results)
