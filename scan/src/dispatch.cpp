// The public calls: argument checks, scratch, and the choice of algorithm.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "common/cuda_check.h"
#include "slot.h"
#include "workspace_access.h"

namespace scan {
namespace {

using detail::WorkspaceAccess;

void check_count(const char* call, std::int64_t n, std::int64_t max) {
  if (n < 0 || n > max)
    throw std::invalid_argument(std::string(call) + ": n = " + std::to_string(n) +
                                " is out of range (0 to " + std::to_string(max) + ")");
}

void check_pointer(const char* call, const void* p, const char* what) {
  if (!p) throw std::invalid_argument(std::string(call) + ": " + what + " is a null pointer");
}

bool overlap(const void* a, std::int64_t a_count, const void* b, std::int64_t b_count) {
  const auto a0 = reinterpret_cast<std::uintptr_t>(a), b0 = reinterpret_cast<std::uintptr_t>(b);
  const auto a1 = a0 + static_cast<std::uintptr_t>(a_count) * sizeof(int);
  const auto b1 = b0 + static_cast<std::uintptr_t>(b_count) * sizeof(int);
  return a0 < b1 && b0 < a1;
}

// Checks find_repeats' arguments; returns false when there is no pair to compare.
bool check_find_repeats(const int* d_in, std::int64_t n, const int* d_out) {
  constexpr const char* kCall = "find_repeats";
  check_count(kCall, n, kMaxRepeatsElements);
  if (n < 2) return false;
  check_pointer(kCall, d_in, "input");
  check_pointer(kCall, d_out, "output");
  if (overlap(d_in, n, d_out, n - 1))
    throw std::invalid_argument(
        "find_repeats: the output overlaps the input (in place is not supported)");
  return true;
}

} // namespace

void exclusive_scan(const int* d_in, int* d_out, std::int64_t n, Algorithm algorithm,
                    Workspace& workspace, cudaStream_t stream) {
  constexpr const char* kCall = "exclusive_scan";
  check_count(kCall, n, kMaxScanElements);
  if (n == 0) return;
  check_pointer(kCall, d_in, "input");
  check_pointer(kCall, d_out, "output");
  if (d_in != d_out && overlap(d_in, n, d_out, n))
    throw std::invalid_argument(
        "exclusive_scan: input and output overlap without being the same array");

  WorkspaceAccess::reserve(workspace, detail::scan_need(n, algorithm), stream);
  const auto* in = reinterpret_cast<const unsigned*>(d_in);
  auto* out = reinterpret_cast<unsigned*>(d_out);
  switch (algorithm) {
  // suite-only
  case Algorithm::kKoggeStone:
    detail::kogge_stone_scan(in, out, n,
                             static_cast<unsigned*>(WorkspaceAccess::scratch(workspace)), stream);
    return;
  case Algorithm::kBlelloch:
    detail::blelloch_scan(in, out, n, WorkspaceAccess::carry(workspace), stream);
    return;
  case Algorithm::kSinglePass:
    detail::single_pass_scan(in, out, n, WorkspaceAccess::next_lookback(workspace, stream), stream);
    return;
  // /suite-only
  case Algorithm::kCub:
    detail::cub_scan(in, out, n, WorkspaceAccess::scratch(workspace),
                     WorkspaceAccess::scratch_bytes(workspace), stream);
    return;
  case Algorithm::kStudent: // scan/student/
    detail::student_scan(in, out, n, stream);
    return;
  }
  throw std::invalid_argument("exclusive_scan: unknown algorithm");
}

void exclusive_scan(const int* d_in, int* d_out, std::int64_t n, Algorithm algorithm,
                    cudaStream_t stream) {
  Workspace workspace;
  exclusive_scan(d_in, d_out, n, algorithm, workspace, stream);
}

void find_repeats_async(const int* d_in, std::int64_t n, int* d_out, std::int64_t* d_count,
                        Algorithm algorithm, Workspace& workspace, cudaStream_t stream) {
  check_pointer("find_repeats", d_count, "count");
  if (!check_find_repeats(d_in, n, d_out)) {
    CUDA_CHECK(cudaMemsetAsync(d_count, 0, sizeof(std::int64_t), stream));
    return;
  }
  WorkspaceAccess::reserve(workspace, detail::find_repeats_need(n, algorithm), stream);
  switch (algorithm) {
  // suite-only
  case Algorithm::kKoggeStone: {
    // The positions, then the Kogge-Stone scan's block sums (find_repeats_need).
    auto* positions = static_cast<unsigned*>(WorkspaceAccess::scratch(workspace));
    detail::composed_find_repeats(d_in, n, d_out, d_count, positions, detail::kogge_stone_scan,
                                  positions + n, stream);
    return;
  }
  case Algorithm::kBlelloch:
    detail::composed_find_repeats(d_in, n, d_out, d_count,
                                  static_cast<unsigned*>(WorkspaceAccess::scratch(workspace)),
                                  detail::blelloch_scan, WorkspaceAccess::carry(workspace), stream);
    return;
  case Algorithm::kSinglePass:
    detail::fused_find_repeats(d_in, n, d_out, d_count,
                               WorkspaceAccess::next_lookback(workspace, stream), stream);
    return;
  // /suite-only
  case Algorithm::kCub:
    detail::cub_find_repeats(d_in, n, d_out, d_count, WorkspaceAccess::scratch(workspace),
                             WorkspaceAccess::scratch_bytes(workspace), stream);
    return;
  case Algorithm::kStudent: // scan/student/
    detail::student_find_repeats(d_in, n, d_out, d_count, stream);
    return;
  }
  throw std::invalid_argument("find_repeats: unknown algorithm");
}

std::int64_t find_repeats(const int* d_in, std::int64_t n, int* d_out, Algorithm algorithm,
                          Workspace& workspace, cudaStream_t stream) {
  // No pair to compare: the count is 0, answered on the host (the async
  // call's cudaMemsetAsync is documented for device memory, not for the mapped
  // slot below).
  if (!check_find_repeats(d_in, n, d_out)) {
    CUDA_CHECK(cudaStreamSynchronize(stream)); // the call waits for the stream, as documented
    return 0;
  }
  // The count slot is mapped pinned host memory in the workspace. Every path
  // writes it with plain stores from a kernel (CUB's init and selection
  // kernels) or, in the student slot, a copy whose direction is inferred; so
  // no copy back is queued on this short call's critical path. A kernel that
  // stored the count otherwise would have to work on mapped host memory too:
  // the CountSlotReusedAcrossSizes test covers every algorithm.
  // suite-only
  // The suite's own kernels store it plainly too (the fused kernel's last
  // tile, the composition's scatter), not by a bulk copy.
  // /suite-only
  WorkspaceAccess::reserve(workspace, detail::find_repeats_need(n, algorithm), stream);
  std::int64_t* h_count = WorkspaceAccess::count_for_host(workspace);
  find_repeats_async(d_in, n, d_out, WorkspaceAccess::count_for_device(workspace), algorithm,
                     workspace, stream);
  CUDA_CHECK(cudaStreamSynchronize(stream)); // after it, the kernel's store is on the host
  return *h_count;
}

std::int64_t find_repeats(const int* d_in, std::int64_t n, int* d_out, Algorithm algorithm,
                          cudaStream_t stream) {
  Workspace workspace;
  return find_repeats(d_in, n, d_out, algorithm, workspace, stream);
}

} // namespace scan
