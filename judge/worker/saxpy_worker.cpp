// The saxpy worker: our small main around the code under test (a student's
// saxpy/student/student_saxpy.cu, or a slot of the same shape: its
// launch_student_kernel). It runs in the judge's sandbox and answers two
// timed requests on the arrays the judge shares: the course's whole trip
// (the host x and y, descriptors 4 and 5, copied to the device ones, 7 and
// 8; the kernel into the device result, 9; the result copied back to the
// host one, 6) and the kernel alone on the device arrays.
// Untrusted like the code it links: the judge times and checks everything.
#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string>

#include "judge/shared_array.h"
#include "judge/worker_loop.h"
#include "saxpy/saxpy.h"

namespace {

constexpr int kHostFd = 4, kDeviceFd = 7; // x, y, result each

void check(cudaError_t e) {
  if (e != cudaSuccess) throw std::runtime_error(cudaGetErrorString(e));
}

class Server {
public:
  Server(const judge::WorkerArgs& args) : gpu_(args.device()), n_(args.bytes("elements")) {
    for (int i = 0; i < 3; ++i) {
      const std::string result = i == 2 ? "result-" : "";
      host_[i] = judge::SharedArray::attach(judge::MemoryKind::kHost, kHostFd + i,
                                            args.bytes("host-" + result + "bytes"));
      device_[i] = judge::SharedArray::attach(kind(), kDeviceFd + i,
                                              args.bytes("device-" + result + "bytes"));
      if (host_[i].bytes() < bytes() || device_[i].bytes() < bytes())
        throw std::runtime_error("a shared array is smaller than its elements");
    }
  }

  void serve(judge::ControlBlock& block) {
    const auto command = static_cast<judge::Command>(block.command);
    if (command != judge::Command::kSaxpyTrip && command != judge::Command::kSaxpyKernel)
      throw std::runtime_error("not a saxpy request");
    if (block.n != static_cast<std::int64_t>(n_))
      throw std::runtime_error("n is not the worker's element count");
    const bool trip = command == judge::Command::kSaxpyTrip;
    if (trip) {
      copy(device_[0].data(), host_[0].data(), cudaMemcpyHostToDevice);
      copy(device_[1].data(), host_[1].data(), cudaMemcpyHostToDevice);
    }
    saxpy::launch_student_kernel(n_, block.scalar, static_cast<const float*>(device_[0].data()),
                                 static_cast<const float*>(device_[1].data()),
                                 static_cast<float*>(device_[2].data()), nullptr);
    if (gpu_) {
      check(cudaGetLastError());
      check(cudaDeviceSynchronize());
    }
    if (trip) copy(host_[2].data(), device_[2].data(), cudaMemcpyDeviceToHost);
  }

private:
  std::size_t bytes() const { return n_ * sizeof(float); }
  judge::MemoryKind kind() const {
    return gpu_ ? judge::MemoryKind::kDevice : judge::MemoryKind::kHost;
  }
  // One array's copy, as the course's trip makes it with cudaMemcpy (on host
  // memory, for the judge's host-code tests, a memcpy).
  void copy(void* dst, const void* src, cudaMemcpyKind direction) const {
    if (gpu_)
      check(cudaMemcpy(dst, src, bytes(), direction));
    else
      std::memcpy(dst, src, bytes());
  }

  bool gpu_;
  std::size_t n_;
  judge::SharedArray host_[3], device_[3]; // x, y, result
};

} // namespace

int main(int argc, char** argv) {
  try {
    Server server(judge::parse_worker_args(argc, argv));
    return judge::serve_requests([&](judge::ControlBlock& block) { server.serve(block); });
  } catch (const std::exception& e) {
    std::fprintf(stderr, "saxpy worker: %s\n", e.what());
    return 1;
  }
}
