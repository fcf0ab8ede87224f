// Where a render worker's renderer keeps the scene and the image on the
// device, so that the judge can write each timed frame's scene there and
// read the image itself (docs/design/judge.md, "Placed frames").
//
// The arena is device memory the judge made and shares (a descriptor): the
// worker's cudaMalloc serves from it while it has room, so what the judge
// writes and reads is the renderer's own memory. While recording, the
// worker notes every cudaMemcpy and cudaMemcpyAsync (linked with --wrap):
// which device bytes a scene array was copied to in setup(), and which the
// image was copied from in image(). The worker is untrusted: the judge
// checks every offset it reports and every image it reads.
// Plain C++: no CUDA compiler needed.
#pragma once

#include <cstddef>
#include <vector>

namespace judge {

// The arena at `base` (device memory of `bytes`); before any allocation.
void attach_device_arena(void* base, std::size_t bytes);

// The arena's allocator, under the worker's cudaMalloc: true and *p set
// when it served the request, false when it has no room (or no arena).
bool arena_allocate(void** p, std::size_t bytes);
// True when `p` was the arena's (and is now free).
bool arena_free(void* p);

// One copy between host and device memory, as the renderer asked for it.
struct RecordedCopy {
  const void* host;
  const void* device;
  std::size_t bytes;
  bool to_device;
};

// Starts recording copies (forgetting earlier ones) or stops. A block of
// the arena freed while recording takes the copies into it with it.
void record_copies(bool on);
std::vector<RecordedCopy> recorded_copies();

// The offset of [p, p + bytes) in the arena, or -1 when it is not all in it.
long long arena_offset(const void* p, std::size_t bytes);

} // namespace judge
