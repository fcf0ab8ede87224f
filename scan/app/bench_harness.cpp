#include "bench_harness.h"

#include "device_memory.h"

namespace scan_app {

BufferSets make_buffer_sets(const std::vector<int>& input, std::size_t l2_bytes,
                            std::size_t keep_free) {
  constexpr std::size_t kMaxSets = 64;
  const std::size_t elements = std::max<std::size_t>(input.size(), 1);
  const std::size_t bytes_per_set = 2 * elements * sizeof(int);
  const std::size_t free = free_device_memory();
  const std::size_t wanted = (3 * l2_bytes + bytes_per_set - 1) / bytes_per_set;
  const std::size_t fit = free > keep_free ? (free - keep_free) / bytes_per_set : 0;
  const std::size_t sets = std::clamp<std::size_t>(std::min(wanted, fit), 1, kMaxSets);
  BufferSets b;
  for (std::size_t s = 0; s < sets; ++s) {
    b.in.emplace_back(elements, "bench input");
    b.out.emplace_back(elements, "bench output");
    b.in.back().copy_from_host(input.data(), input.size());
  }
  return b;
}

} // namespace scan_app
