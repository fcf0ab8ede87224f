// The kernels behind block_scan_gpu.h: the course's block scan called as a
// student's kernel calls it, in both forms.
#include "block_scan_gpu.h"

#include <cstddef>
#include <stdexcept>
#include <string>

#include "block_scan.cuh"
#include "common/cuda_check.h"
#include "common/device_buffer.h"

namespace student_test {

namespace {

// Value i of round `round` of this block, for its thread of rank `rank`.
template <int kBlockSize> __device__ std::size_t value_index(int round, int rounds, int rank) {
  return (static_cast<std::size_t>(blockIdx.x) * rounds + round) * kBlockSize + rank;
}

template <int kBlockSize>
__global__ void scan_values(const unsigned* input, unsigned* prefixes, unsigned* totals,
                            int rounds) {
  __shared__ render::BlockScanStorage<kBlockSize, unsigned> storage;
  const int rank = render::block_thread_rank();
  for (int round = 0; round < rounds; ++round) {
    const std::size_t i = value_index<kBlockSize>(round, rounds, rank);
    unsigned total;
    prefixes[i] = render::block_exclusive_scan<kBlockSize>(input[i], storage, total);
    totals[i] = total;
  }
}

// Each thread fills its own entry and, after the scan, reads its neighbour's:
// the scan's own barriers must make both safe.
template <int kBlockSize>
__global__ void scan_in_place(const unsigned* input, unsigned* prefixes, unsigned* totals,
                              int rounds) {
  __shared__ unsigned data[kBlockSize];
  __shared__ render::BlockScanStorage<kBlockSize, unsigned> storage;
  const int rank = render::block_thread_rank();
  const int neighbour = (rank + 1) % kBlockSize;
  for (int round = 0; round < rounds; ++round) {
    __syncthreads(); // the previous round's reads of data are done
    data[rank] = input[value_index<kBlockSize>(round, rounds, rank)];
    const unsigned total = render::block_exclusive_scan_in_place<kBlockSize>(data, storage);
    prefixes[value_index<kBlockSize>(round, rounds, neighbour)] = data[neighbour];
    totals[value_index<kBlockSize>(round, rounds, rank)] = total;
  }
}

template <int kBlockSize>
void launch(const unsigned* input, unsigned* prefixes, unsigned* totals, unsigned blocks,
            int block_width, int rounds, ScanForm form) {
  const dim3 threads(static_cast<unsigned>(block_width),
                     static_cast<unsigned>(kBlockSize / block_width));
  if (form == ScanForm::kValues)
    scan_values<kBlockSize><<<blocks, threads>>>(input, prefixes, totals, rounds);
  else
    scan_in_place<kBlockSize><<<blocks, threads>>>(input, prefixes, totals, rounds);
  CUDA_CHECK_LAUNCH();
}

} // namespace

BlockScanResult block_scan_on_gpu(const std::vector<unsigned>& input, int block_size,
                                  int block_width, int rounds, ScanForm form) {
  const std::size_t n = input.size();
  const std::size_t per_block = static_cast<std::size_t>(block_size) * rounds;
  if (block_width < 1 || block_size % block_width != 0 || rounds < 1 || n == 0 ||
      n % per_block != 0)
    throw std::invalid_argument("block_scan_on_gpu: bad shape for " + std::to_string(n) +
                                " values");
  common::DeviceBuffer<unsigned> d_input(n, "input");
  common::DeviceBuffer<unsigned> d_prefixes(n, "prefixes");
  common::DeviceBuffer<unsigned> d_totals(n, "totals");
  d_input.copy_from_host(input.data(), n);
  const auto blocks = static_cast<unsigned>(n / per_block);
  unsigned* p = d_prefixes.data();
  unsigned* t = d_totals.data();
  switch (block_size) {
  case 1:
    launch<1>(d_input.data(), p, t, blocks, block_width, rounds, form);
    break;
  case 2:
    launch<2>(d_input.data(), p, t, blocks, block_width, rounds, form);
    break;
  case 8:
    launch<8>(d_input.data(), p, t, blocks, block_width, rounds, form);
    break;
  case 32:
    launch<32>(d_input.data(), p, t, blocks, block_width, rounds, form);
    break;
  case 64:
    launch<64>(d_input.data(), p, t, blocks, block_width, rounds, form);
    break;
  case 128:
    launch<128>(d_input.data(), p, t, blocks, block_width, rounds, form);
    break;
  case 256:
    launch<256>(d_input.data(), p, t, blocks, block_width, rounds, form);
    break;
  case 512:
    launch<512>(d_input.data(), p, t, blocks, block_width, rounds, form);
    break;
  case 1024:
    launch<1024>(d_input.data(), p, t, blocks, block_width, rounds, form);
    break;
  default:
    throw std::invalid_argument("block_scan_on_gpu: no kernel for blocks of " +
                                std::to_string(block_size));
  }
  CUDA_CHECK(cudaDeviceSynchronize());
  BlockScanResult result{std::vector<unsigned>(n), std::vector<unsigned>(n)};
  d_prefixes.copy_to_host(result.prefixes.data(), n);
  d_totals.copy_to_host(result.totals.data(), n);
  return result;
}

} // namespace student_test
