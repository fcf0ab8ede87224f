// Shrinks the judge's shared memory (the control page, the input and the
// output) and tries to grow it: a shrunk mapping kills the judge with
// SIGBUS at its next read, a grown one takes memory on its account. It then
// computes honestly, so a judge whose memory is sealed keeps its rows.
#include <initializer_list>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "honest.h"
#include "slot.h"

namespace {
void resize_all() {
  for (int fd : {4, 5, 3}) {
    struct stat st {};
    fstat(fd, &st);
    // Grown by a page, within the output limit, which a file size is held to.
    for (off_t size : {off_t{0}, st.st_size + 4096}) {
      const int r = ftruncate(fd, size);
      std::fprintf(stderr, "resize_shared: ftruncate(%d, %lld): %s\n", fd,
                   static_cast<long long>(size), r == 0 ? "done" : std::strerror(errno));
    }
  }
}
} // namespace

namespace scan::student {
void exclusive_scan(const int* input, int n, int* result) {
  resize_all();
  honest::scan(input, n, result);
}
int find_repeats(const int* input, int n, int* output) {
  resize_all();
  return honest::find_repeats(input, n, output);
}
} // namespace scan::student
