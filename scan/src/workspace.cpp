#include <algorithm>
#include <utility>

#include "common/cuda_check.h"
#include "workspace_access.h"

namespace scan {
namespace {

constexpr std::size_t kHeaderBytes = 256;
// suite-only
constexpr std::size_t kCounterOffset = 0, kCarryOffset = 16;
constexpr unsigned kEpochLimit = 1u << 30; // the epoch has 30 bits
// /suite-only

std::size_t round_up_256(std::size_t bytes) {
  return (bytes + 255) / 256 * 256;
}
std::size_t status_bytes(std::size_t words) {
  return round_up_256(words * sizeof(unsigned long long));
}

} // namespace

namespace detail {

ScratchNeed scan_need(std::int64_t n, Algorithm algorithm) {
  ScratchNeed need;
  if (n <= 0) return need;
  // suite-only
  if (algorithm == Algorithm::kKoggeStone)
    need.scratch_bytes = kogge_stone_scratch_elements(n) * sizeof(unsigned);
  if (algorithm == Algorithm::kSinglePass)
    need.status_words = static_cast<std::size_t>(single_pass_scan_tiles(n));
  // /suite-only
  if (algorithm == Algorithm::kCub) need.scratch_bytes = cub_scan_scratch_bytes(n);
  return need;
}

ScratchNeed find_repeats_need(std::int64_t n, Algorithm algorithm) {
  ScratchNeed need;
  if (n < 2) return need;
  switch (algorithm) {
  // suite-only
  case Algorithm::kKoggeStone: // the positions, then the scan's block sums
    need.scratch_bytes =
        (static_cast<std::size_t>(n) + kogge_stone_scratch_elements(n)) * sizeof(unsigned);
    break;
  case Algorithm::kBlelloch:
    need.scratch_bytes = static_cast<std::size_t>(n) * sizeof(unsigned);
    break;
  case Algorithm::kSinglePass:
    need.status_words = static_cast<std::size_t>(fused_repeats_tiles(n));
    break;
  // /suite-only
  case Algorithm::kCub:
    need.scratch_bytes = cub_find_repeats_scratch_bytes(n);
    break;
  case Algorithm::kStudent: // allocates its own scratch
    break;
  }
  return need;
}

std::size_t WorkspaceAccess::total_bytes(const ScratchNeed& need) {
  return kHeaderBytes + status_bytes(need.status_words) + round_up_256(need.scratch_bytes);
}

// suite-only
unsigned* WorkspaceAccess::carry(Workspace& ws) {
  return reinterpret_cast<unsigned*>(ws.buffer_.data() + kCarryOffset);
}
// /suite-only

std::int64_t* WorkspaceAccess::count_for_host(Workspace& ws) {
  if (ws.count_slot_.empty()) {
    common::MappedBuffer<std::int64_t> slot(1, "find_repeats count");
    ws.count_slot_device_ = slot.device_data();
    ws.count_slot_ = std::move(slot);
  }
  return ws.count_slot_.data();
}

std::int64_t* WorkspaceAccess::count_for_device(Workspace& ws) {
  count_for_host(ws);
  return ws.count_slot_device_;
}

void* WorkspaceAccess::scratch(Workspace& ws) {
  return ws.buffer_.data() + kHeaderBytes + status_bytes(ws.status_words_);
}

// suite-only
LookbackState WorkspaceAccess::next_lookback(Workspace& ws, cudaStream_t stream) {
  if (++ws.epoch_ >= kEpochLimit) {
    CUDA_CHECK(cudaMemsetAsync(ws.buffer_.data() + kHeaderBytes, 0, status_bytes(ws.status_words_),
                               stream));
    ws.epoch_ = 1;
  }
  LookbackState state;
  state.status = reinterpret_cast<unsigned long long*>(ws.buffer_.data() + kHeaderBytes);
  state.tile_counter = reinterpret_cast<unsigned*>(ws.buffer_.data() + kCounterOffset);
  state.epoch = ws.epoch_;
  return state;
}
// /suite-only

} // namespace detail

void Workspace::reserve(std::size_t status_words, std::size_t scratch_bytes, cudaStream_t stream) {
  if (!buffer_.empty() && status_words <= status_words_ && scratch_bytes <= scratch_bytes_) return;
  status_words_ = std::max(status_words, status_words_);
  scratch_bytes_ = std::max(scratch_bytes, scratch_bytes_);
  buffer_ = common::DeviceBuffer<unsigned char>(); // free the old buffer first (cudaFree waits for
                                                   // work that uses it)
  buffer_ = common::DeviceBuffer<unsigned char>(
      detail::WorkspaceAccess::total_bytes({status_words_, scratch_bytes_}), "scan workspace");
  // The header and status words start at zero; the scratch is written before it is read.
  CUDA_CHECK(
      cudaMemsetAsync(buffer_.data(), 0, kHeaderBytes + status_bytes(status_words_), stream));
  // Calls may come on another stream than this one: finish the clearing now.
  CUDA_CHECK(cudaStreamSynchronize(stream));
  epoch_ = 0;
}

void Workspace::reserve_scan(std::int64_t n, Algorithm algorithm, cudaStream_t stream) {
  detail::WorkspaceAccess::reserve(*this, detail::scan_need(n, algorithm), stream);
}

void Workspace::reserve_find_repeats(std::int64_t n, Algorithm algorithm, cudaStream_t stream) {
  detail::WorkspaceAccess::reserve(*this, detail::find_repeats_need(n, algorithm), stream);
  detail::WorkspaceAccess::count_for_host(*this); // the blocking call's mapped count slot
}

std::size_t Workspace::scan_bytes(std::int64_t n, Algorithm algorithm) {
  return detail::WorkspaceAccess::total_bytes(detail::scan_need(n, algorithm));
}

std::size_t Workspace::find_repeats_bytes(std::int64_t n, Algorithm algorithm) {
  return detail::WorkspaceAccess::total_bytes(detail::find_repeats_need(n, algorithm));
}

} // namespace scan
