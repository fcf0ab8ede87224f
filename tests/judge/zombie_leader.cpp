// A process whose first thread has ended while another runs on: its
// /proc/PID/stat says Z (a zombie), yet the other thread writes "z" lines
// to standard output every 10 ms. Worker::pause must hold it still.
#include <sys/syscall.h>
#include <unistd.h>

#include <thread>

int main() {
  std::thread([] {
    for (;;) {
      if (write(1, "z\n", 2) != 2) return;
      usleep(10000);
    }
  }).detach();
  // The first thread alone ends (exit() would end the process).
  syscall(SYS_exit, 0);
}
