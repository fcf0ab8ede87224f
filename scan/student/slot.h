// The student slot of the scan library: the functions the student writes
// (student_scan.cu, course-style signatures on int counts) and the library's
// calls into them (slot.cpp). Internal to the library.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace scan::student {

// Written by the student in scan/student/student_scan.cu. Device pointers;
// both return when the result is complete.
void exclusive_scan(const int* input, int n, int* result);
int find_repeats(const int* input, int n, int* output);

} // namespace scan::student

namespace scan::detail {

// The library's calls into the slot: n in [1, INT_MAX] (else
// std::invalid_argument), in == out allowed; they wait for `stream` first.
void student_scan(const unsigned* in, unsigned* out, std::int64_t n, cudaStream_t stream);
// Writes the count to *d_count as find_repeats_async does (device memory, or
// the blocking find_repeats' mapped host slot).
void student_find_repeats(const int* in, std::int64_t n, int* out, std::int64_t* d_count,
                          cudaStream_t stream);

} // namespace scan::detail
