#include "alloc_cache.h"

#include "device_arena.h"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <map>
#include <mutex>
#include <unordered_map>

// The symbols CUDA's runtime defines, as --wrap renames them.
extern "C" {
cudaError_t __real_cudaMalloc(void** p, std::size_t bytes);
cudaError_t __real_cudaFree(void* p);
cudaError_t __real_cudaMallocHost(void** p, std::size_t bytes);
cudaError_t __real_cudaHostAlloc(void** p, std::size_t bytes, unsigned int flags);
cudaError_t __real_cudaFreeHost(void* p);
}

namespace {

struct Block {
  std::size_t capacity;
  unsigned flags; // pinned host blocks: cudaHostAlloc's flags
};

// One kind of memory: every block handed out (to know a freed block's
// size) and the kept ones by size.
struct Pool {
  std::unordered_map<void*, Block> live;
  std::multimap<std::size_t, void*> kept;

  // A kept block for `bytes` with `flags`, or nullptr.
  void* take(std::size_t bytes, unsigned flags) {
    for (auto it = kept.lower_bound(bytes); it != kept.end() && it->first / 2 <= bytes; ++it)
      if (live.at(it->second).flags == flags) {
        void* p = it->second;
        kept.erase(it);
        return p;
      }
    return nullptr;
  }
};

std::mutex guard;
bool cache_on = false;
Pool device, pinned;

template <class Allocate>
cudaError_t allocate(Pool& pool, void** p, std::size_t bytes, unsigned flags, Allocate real) {
  if (p == nullptr) return real();
  std::lock_guard<std::mutex> lock(guard);
  if (cache_on && bytes > 0)
    if (void* kept = pool.take(bytes, flags)) {
      *p = kept;
      return cudaSuccess;
    }
  const cudaError_t e = real();
  if (e == cudaSuccess && *p != nullptr) pool.live[*p] = Block{bytes, flags};
  return e;
}

template <class Free> cudaError_t release(Pool& pool, void* p, Free real) {
  if (p == nullptr) return real();
  std::lock_guard<std::mutex> lock(guard);
  const auto it = pool.live.find(p);
  if (cache_on && it != pool.live.end()) {
    pool.kept.emplace(it->second.capacity, p);
    return cudaSuccess;
  }
  if (it != pool.live.end()) pool.live.erase(it);
  return real();
}

template <class Free> void release_kept(Pool& pool, Free real) {
  for (const auto& [bytes, p] : pool.kept) {
    (void)bytes;
    pool.live.erase(p);
    real(p);
  }
  pool.kept.clear();
}

} // namespace

extern "C" {

// Device memory comes from the judge's arena while it has room
// (device_arena.h), then from CUDA.
cudaError_t __wrap_cudaMalloc(void** p, std::size_t bytes) {
  return allocate(device, p, bytes, 0, [&] {
    return judge::arena_allocate(p, bytes) ? cudaSuccess : __real_cudaMalloc(p, bytes);
  });
}

cudaError_t __wrap_cudaFree(void* p) {
  return release(device, p,
                 [&] { return judge::arena_free(p) ? cudaSuccess : __real_cudaFree(p); });
}

cudaError_t __wrap_cudaMallocHost(void** p, std::size_t bytes) {
  return allocate(pinned, p, bytes, cudaHostAllocDefault,
                  [&] { return __real_cudaMallocHost(p, bytes); });
}

cudaError_t __wrap_cudaHostAlloc(void** p, std::size_t bytes, unsigned int flags) {
  return allocate(pinned, p, bytes, flags, [&] { return __real_cudaHostAlloc(p, bytes, flags); });
}

cudaError_t __wrap_cudaFreeHost(void* p) {
  return release(pinned, p, [&] { return __real_cudaFreeHost(p); });
}

} // extern "C"

namespace judge {

void set_alloc_cache(bool on) {
  std::lock_guard<std::mutex> lock(guard);
  cache_on = on;
}

void release_alloc_cache() {
  std::lock_guard<std::mutex> lock(guard);
  release_kept(device, [](void* p) {
    if (!arena_free(p)) __real_cudaFree(p);
  });
  release_kept(pinned, [](void* p) { __real_cudaFreeHost(p); });
}

} // namespace judge
