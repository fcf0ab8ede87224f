// A parallel loop over a count of items on plain std::threads.
#pragma once

#include <cstddef>
#include <functional>

namespace render {

// The number of hardware threads (at least 1).
int hardware_threads();

// Calls fn(item) once for every item in [0, count), on up to `threads`
// threads (the caller is one of them). Items are handed out in order as
// threads become free, so uneven items balance. If fn throws, no new items
// start and the first exception is rethrown once every thread has stopped.
void parallel_for(int threads, std::size_t count, const std::function<void(std::size_t)>& fn);

} // namespace render
