// The render worker's allocation cache. The judge loads each timed frame's
// scene into a new renderer, on the clock, after a decoy setup of the same
// size; so that an honest renderer's allocations stay as free as they were
// in the untimed setup, what the old renderer frees while the cache is on
// is kept, and the new renderer's cudaMalloc and cudaMallocHost (or
// cudaHostAlloc) are served from it. The render worker is linked with
// --wrap for those calls (judge/CMakeLists.txt); the judge itself is not.
// Plain C++: no CUDA compiler needed.
#pragma once

namespace judge {

// While on, frees are kept and requests served from what was kept (a block
// serves a request of at least half its size); off, both go to CUDA.
void set_alloc_cache(bool on);

// Frees what is kept (before a decoy setup: none of it is the frame's).
void release_alloc_cache();

} // namespace judge
