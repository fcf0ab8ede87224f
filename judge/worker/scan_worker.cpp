// The scan worker: our small main around the code under test (a student's
// scan/student/student_scan.cu, or a reference of the same shape). It runs in
// the judge's sandbox and answers the judge's requests on the control page
// (descriptor 3) with the input and output arrays the judge shares
// (descriptors 4 and 5). It is untrusted: everything in this process may be
// replaced by the code it links, so the judge believes none of it.
#include <cuda_runtime_api.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string>

#include "judge/shared_array.h"
#include "judge/worker_loop.h"
#include "slot.h"

namespace {

constexpr int kInputFd = 4, kOutputFd = 5;

struct Args {
  judge::MemoryKind memory = judge::MemoryKind::kDevice;
  std::size_t input_bytes = 0, output_bytes = 0;
};

Args parse(int argc, char** argv) {
  const judge::WorkerArgs w = judge::parse_worker_args(argc, argv);
  return {w.device() ? judge::MemoryKind::kDevice : judge::MemoryKind::kHost,
          w.bytes("input-bytes"), w.bytes("output-bytes")};
}

// Runs one request; the answer's value goes on the page, a failure throws.
void serve(judge::ControlBlock& block, const Args& args, const judge::SharedArray& in,
           judge::SharedArray& out) {
  const auto command = static_cast<judge::Command>(block.command);
  const std::int64_t n = block.n;
  if (command != judge::Command::kScan && command != judge::Command::kFindRepeats)
    throw std::runtime_error("not a scan request");
  if (n < 0 || n > INT_MAX) throw std::runtime_error("n outside the slot's int count");
  const int* input = static_cast<const int*>(in.data());
  int* output = static_cast<int*>(out.data());
  if (command == judge::Command::kScan)
    scan::student::exclusive_scan(input, static_cast<int>(n), output);
  else
    block.value = scan::student::find_repeats(input, static_cast<int>(n), output);
  if (args.memory == judge::MemoryKind::kDevice) {
    const cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) throw std::runtime_error(cudaGetErrorString(e));
  }
}

} // namespace

int main(int argc, char** argv) {
  try {
    const Args args = parse(argc, argv);
    judge::SharedArray in = judge::SharedArray::attach(args.memory, kInputFd, args.input_bytes);
    judge::SharedArray out = judge::SharedArray::attach(args.memory, kOutputFd, args.output_bytes);
    return judge::serve_requests([&](judge::ControlBlock& block) { serve(block, args, in, out); });
  } catch (const std::exception& e) {
    std::fprintf(stderr, "scan worker: %s\n", e.what());
    return 1;
  }
}
