#include "common/host_memory.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace common {

std::size_t available_host_memory() {
  std::ifstream meminfo("/proc/meminfo");
  std::string line;
  while (std::getline(meminfo, line)) {
    std::istringstream fields(line);
    std::string key;
    std::size_t kib = 0;
    if (fields >> key >> kib && key == "MemAvailable:") return kib * 1024;
  }
  return 0;
}

void require_host_memory(std::size_t bytes, const std::string& what) {
  const std::size_t available = available_host_memory();
  if (available != 0 && bytes > available)
    throw std::runtime_error(what + " needs " + std::to_string(bytes) +
                             " bytes of host memory, but " + std::to_string(available) +
                             " bytes are available");
}

} // namespace common
