#include "device_arena.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <mutex>

// The symbols CUDA's runtime defines, as --wrap renames them.
extern "C" {
cudaError_t __real_cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind);
cudaError_t __real_cudaMemcpyAsync(void* dst, const void* src, std::size_t bytes,
                                   cudaMemcpyKind kind, cudaStream_t stream);
}

namespace {

// cudaMalloc's alignment at least, so a renderer's vector loads still align.
constexpr std::size_t kAlign = 512;

std::mutex guard;
std::uintptr_t base = 0;
std::size_t capacity = 0;
std::map<std::size_t, std::size_t> free_ranges; // offset -> bytes
std::map<std::uintptr_t, std::size_t> live;     // address -> bytes taken
bool recording = false;
std::vector<judge::RecordedCopy> copies;

void give_back(std::size_t offset, std::size_t bytes) {
  auto next = free_ranges.lower_bound(offset);
  if (next != free_ranges.end() && offset + bytes == next->first) {
    bytes += next->second;
    next = free_ranges.erase(next);
  }
  if (next != free_ranges.begin()) {
    auto before = std::prev(next);
    if (before->first + before->second == offset) {
      before->second += bytes;
      return;
    }
  }
  free_ranges.emplace(offset, bytes);
}

// Whether a copy of `kind` from src to dst moves host bytes to (or from)
// the device; cudaMemcpyDefault is read from where the arena lies.
bool host_to_device(const void* dst, const void* src, cudaMemcpyKind kind) {
  if (kind == cudaMemcpyHostToDevice) return true;
  return kind == cudaMemcpyDefault && judge::arena_offset(dst, 1) >= 0 &&
         judge::arena_offset(src, 1) < 0;
}

bool device_to_host(const void* dst, const void* src, cudaMemcpyKind kind) {
  if (kind == cudaMemcpyDeviceToHost) return true;
  return kind == cudaMemcpyDefault && judge::arena_offset(src, 1) >= 0 &&
         judge::arena_offset(dst, 1) < 0;
}

void note(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind) {
  std::lock_guard<std::mutex> lock(guard);
  if (!recording) return;
  if (host_to_device(dst, src, kind))
    copies.push_back({src, dst, bytes, true});
  else if (device_to_host(dst, src, kind))
    copies.push_back({dst, src, bytes, false});
}

} // namespace

extern "C" {

cudaError_t __wrap_cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind) {
  note(dst, src, bytes, kind);
  return __real_cudaMemcpy(dst, src, bytes, kind);
}

cudaError_t __wrap_cudaMemcpyAsync(void* dst, const void* src, std::size_t bytes,
                                   cudaMemcpyKind kind, cudaStream_t stream) {
  note(dst, src, bytes, kind);
  return __real_cudaMemcpyAsync(dst, src, bytes, kind, stream);
}

} // extern "C"

namespace judge {

void attach_device_arena(void* at, std::size_t bytes) {
  std::lock_guard<std::mutex> lock(guard);
  base = reinterpret_cast<std::uintptr_t>(at);
  capacity = bytes;
  free_ranges.clear();
  live.clear();
  if (bytes > 0) free_ranges.emplace(0, bytes);
}

bool arena_allocate(void** p, std::size_t bytes) {
  std::lock_guard<std::mutex> lock(guard);
  if (base == 0 || bytes == 0 || bytes > capacity) return false;
  const std::size_t need = (bytes + kAlign - 1) / kAlign * kAlign;
  for (auto it = free_ranges.begin(); it != free_ranges.end(); ++it) {
    if (it->second < need) continue;
    const std::size_t offset = it->first, left = it->second - need;
    free_ranges.erase(it);
    if (left > 0) free_ranges.emplace(offset + need, left);
    *p = reinterpret_cast<void*>(base + offset);
    live.emplace(base + offset, need);
    return true;
  }
  return false;
}

bool arena_free(void* p) {
  std::lock_guard<std::mutex> lock(guard);
  const auto it = live.find(reinterpret_cast<std::uintptr_t>(p));
  if (it == live.end()) return false;
  // A copy into memory freed since is no place the scene is kept.
  const std::uintptr_t begin = it->first, end = it->first + it->second;
  copies.erase(std::remove_if(copies.begin(), copies.end(),
                              [&](const judge::RecordedCopy& c) {
                                const auto at = reinterpret_cast<std::uintptr_t>(c.device);
                                return at >= begin && at < end;
                              }),
               copies.end());
  give_back(it->first - base, it->second);
  live.erase(it);
  return true;
}

void record_copies(bool on) {
  std::lock_guard<std::mutex> lock(guard);
  recording = on;
  if (on) copies.clear();
}

std::vector<RecordedCopy> recorded_copies() {
  std::lock_guard<std::mutex> lock(guard);
  return copies;
}

long long arena_offset(const void* p, std::size_t bytes) {
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  if (base == 0 || at < base || bytes > capacity || at - base > capacity - bytes) return -1;
  return static_cast<long long>(at - base);
}

} // namespace judge
