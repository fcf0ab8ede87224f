// The floor of the course's timing: one launch of a kernel that does nothing.
#pragma once

#include <cuda_runtime_api.h>

namespace scan_app {

// Launches an empty kernel (one block of one thread) on `stream`; checked.
void launch_empty_kernel(cudaStream_t stream);

} // namespace scan_app
