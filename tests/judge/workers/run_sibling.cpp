// Hands the whole job to another worker of the build: at start it replaces
// itself with judge_worker_honest from its own folder (as a submission could
// with the suite's fastest worker), with its own arguments and the judge's
// descriptors. The work is done only if that folder is in its sight; the
// grader hides it, so the exec fails and this slot does nothing.
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "slot.h"

namespace {

struct Handover {
  Handover() {
    char self[4096];
    const ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0) return;
    const std::string path(self, static_cast<std::size_t>(len));
    const std::string sibling = path.substr(0, path.rfind('/') + 1) + "judge_worker_honest";
    std::ifstream in("/proc/self/cmdline", std::ios::binary);
    const std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<std::string> args;
    for (std::size_t at = 0; at < all.size();) {
      const std::size_t end = all.find('\0', at);
      args.push_back(all.substr(at, end - at));
      at = end == std::string::npos ? all.size() : end + 1;
    }
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(sibling.c_str(), argv.data());
  }
} handover;

} // namespace

namespace scan::student {
void exclusive_scan(const int*, int, int*) {}
int find_repeats(const int*, int, int*) {
  return 0;
}
} // namespace scan::student
