// Runs the course's block scan (render/student/block_scan.cuh) on the GPU,
// for its test. Plain C++ interface; the kernels are in block_scan_gpu.cu.
#pragma once

#include <vector>

namespace student_test {

enum class ScanForm {
  kValues,  // block_exclusive_scan: a value in, its prefix out
  kInPlace, // block_exclusive_scan_in_place on a shared-memory array
};

struct BlockScanResult {
  std::vector<unsigned> prefixes; // one per input value
  std::vector<unsigned> totals;   // the total each thread was given, per input value
};

// Scans `input` on device 0 in segments of block_size values, `rounds`
// segments per block, one after the other (so the block's shared storage is
// reused), with blocks of block_width x (block_size / block_width) threads.
// block_size is a power of two from 1 to 1024; input.size() a multiple of
// block_size * rounds.
BlockScanResult block_scan_on_gpu(const std::vector<unsigned>& input, int block_size,
                                  int block_width, int rounds, ScanForm form);

} // namespace student_test
