#include "common/cuda_check.h"

#include <sstream>

namespace common {

namespace {
// Strip the folders: the file name is enough to find the line.
const char* base_name(const char* path) {
  const char* last = path;
  for (const char* p = path; *p; ++p)
    if (*p == '/' || *p == '\\') last = p + 1;
  return last;
}
} // namespace

std::string describe_cuda_failure(cudaError_t code, const char* expr, const char* file, int line) {
  std::ostringstream out;
  out << expr << " failed at " << base_name(file) << ':' << line << ": " << cudaGetErrorString(code)
      << " (" << cudaGetErrorName(code) << ')';
  return out.str();
}

void throw_cuda_error(cudaError_t code, const char* expr, const char* file, int line) {
  // Clear a sticky "last error" so the next check reports its own failure.
  (void)cudaGetLastError();
  throw CudaError(code, describe_cuda_failure(code, expr, file, line));
}

} // namespace common
