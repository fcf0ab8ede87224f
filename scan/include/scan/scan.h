// Exclusive prefix sums and repeat finding on device arrays of 32-bit ints.
//
// Every call takes device pointers and a stream and is asynchronous unless it
// says otherwise. Sizes are 64-bit counts. Errors are exceptions:
// std::invalid_argument for bad arguments, common::CudaError for CUDA failures.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "common/device_buffer.h"
#include "scan/algorithm.h"

namespace scan {

// exclusive_scan takes up to 2^38 elements (1 TiB, past any device), which
// keeps every launch's grid inside CUDA's limits.
constexpr std::int64_t kMaxScanElements = std::int64_t{1} << 38;
// find_repeats writes indices as int, so its input holds at most 2^31 - 1 elements.
constexpr std::int64_t kMaxRepeatsElements = 2147483647;

namespace detail {
struct WorkspaceAccess;
}

// Device scratch memory reused across calls, so that allocation stays out of
// timed loops: reserve once for the largest call, then every call up to that
// size allocates nothing. A call that needs more grows it (allocating and
// synchronizing). One workspace serves one call at a time: calls that share it
// must be issued on one stream.
class Workspace {
public:
  Workspace() = default;

  // Grows the scratch memory so that a call with these arguments allocates
  // nothing (find_repeats: the mapped host slot for its count too).
  void reserve_scan(std::int64_t n, Algorithm algorithm, cudaStream_t stream = nullptr);
  void reserve_find_repeats(std::int64_t n, Algorithm algorithm, cudaStream_t stream = nullptr);

  // Scratch bytes such a call needs (for checking device memory before allocating).
  static std::size_t scan_bytes(std::int64_t n, Algorithm algorithm);
  static std::size_t find_repeats_bytes(std::int64_t n, Algorithm algorithm);

  std::size_t capacity_bytes() const noexcept { return buffer_.bytes(); }

private:
  friend struct detail::WorkspaceAccess;
  void reserve(std::size_t status_words, std::size_t scratch_bytes, cudaStream_t stream);

  common::DeviceBuffer<unsigned char> buffer_;
  // find_repeats' count: host memory the kernels write through its mapped
  // device address, so the blocking call reads it with no copy back.
  common::MappedBuffer<std::int64_t> count_slot_;
  std::int64_t* count_slot_device_ = nullptr;
  std::size_t status_words_ = 0;  // status words (one per tile), kept zeroed or stamped
  std::size_t scratch_bytes_ = 0; // CUB's temporary storage, or the composition's positions
  unsigned epoch_ = 0;            // stamp of the last call that stamped the status words
  // The status words are the single-pass scan's look-back words (lookback.cuh). // suite-only
};

// out[i] = in[0] + ... + in[i-1], out[0] = 0, for i < n. Sums wrap modulo 2^32
// (two's complement), exactly like the serial reference. In place (in == out)
// works for every algorithm; arrays that overlap otherwise are rejected.
void exclusive_scan(const int* d_in, int* d_out, std::int64_t n, Algorithm algorithm,
                    Workspace& workspace, cudaStream_t stream = nullptr);
// The same with a workspace of its own (allocates on every call).
void exclusive_scan(const int* d_in, int* d_out, std::int64_t n,
                    Algorithm algorithm = kDefaultAlgorithm, cudaStream_t stream = nullptr);

// Writes, in increasing order, every index i with in[i] == in[i+1] to d_out
// (which must hold n - 1 ints; it must not overlap d_in) and the count of such
// indices to *d_count (device memory). Asynchronous.
void find_repeats_async(const int* d_in, std::int64_t n, int* d_out, std::int64_t* d_count,
                        Algorithm algorithm, Workspace& workspace, cudaStream_t stream = nullptr);
// The same, returning the count: waits for the stream.
std::int64_t find_repeats(const int* d_in, std::int64_t n, int* d_out, Algorithm algorithm,
                          Workspace& workspace, cudaStream_t stream = nullptr);
std::int64_t find_repeats(const int* d_in, std::int64_t n, int* d_out,
                          Algorithm algorithm = kDefaultAlgorithm, cudaStream_t stream = nullptr);

} // namespace scan
