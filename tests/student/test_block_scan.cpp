// The course's block scan (render/student/block_scan.cuh) against a serial
// exclusive scan, on random values (sums that wrap past 2^32 too), for
// several block sizes and shapes, in both of its forms, several scans per
// block so its shared storage is reused. Skipped without a GPU. A fresh
// seed per run; BLOCK_SCAN_TEST_SEED repeats one.
#include <gtest/gtest.h>

#include <cstddef>
#include <random>
#include <string>
#include <vector>

#include "block_scan_gpu.h"
#include "gpu_test.h"
#include "test_seed.h"

namespace {

using student_test::ScanForm;

unsigned seed() {
  static const unsigned s = test_seed_from("BLOCK_SCAN_TEST_SEED");
  return s;
}

struct Shape {
  int block_size;
  int block_width; // threads along x; the rest along y
  ScanForm form;
};

std::string shape_name(const testing::TestParamInfo<Shape>& info) {
  const Shape& s = info.param;
  return std::to_string(s.block_width) + "x" + std::to_string(s.block_size / s.block_width) +
         (s.form == ScanForm::kValues ? "_values" : "_in_place");
}

class BlockScan : public GpuTestWithParam<Shape> {};

// Serial exclusive scans of each block_size segment, wrapping as unsigned does.
void expect_scanned(const std::vector<unsigned>& input, int block_size,
                    const student_test::BlockScanResult& got, const std::string& what) {
  for (std::size_t start = 0; start < input.size(); start += block_size) {
    unsigned sum = 0;
    for (std::size_t i = start; i < start + block_size; ++i) {
      ASSERT_EQ(got.prefixes[i], sum)
          << what << ": prefix of value " << i - start << " of segment " << start / block_size;
      sum += input[i];
    }
    for (std::size_t i = start; i < start + block_size; ++i)
      ASSERT_EQ(got.totals[i], sum)
          << what << ": total seen by thread " << i - start << " of segment " << start / block_size;
  }
}

TEST_P(BlockScan, MatchesASerialScan) {
  const Shape s = GetParam();
  const std::string note = "seed " + std::to_string(seed()) + " (BLOCK_SCAN_TEST_SEED repeats it)";
  std::mt19937 rng(seed() + static_cast<unsigned>(s.block_size * 4 + s.block_width));
  constexpr int kRounds = 3;
  constexpr int kBlocks = 37;
  const std::size_t n = static_cast<std::size_t>(s.block_size) * kRounds * kBlocks;
  // Flags as a renderer's hit tests give them, small counts, and any
  // 32-bit value (the sums wrap).
  std::uniform_int_distribution<unsigned> flag(0, 1), count(0, 9), any;
  for (auto* values : {&flag, &count, &any}) {
    std::vector<unsigned> input(n);
    for (unsigned& v : input) v = (*values)(rng);
    const auto got =
        student_test::block_scan_on_gpu(input, s.block_size, s.block_width, kRounds, s.form);
    expect_scanned(input, s.block_size, got,
                   "values up to " + std::to_string(values->max()) + ", " + note);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, BlockScan,
    testing::Values(Shape{1, 1, ScanForm::kValues}, Shape{2, 2, ScanForm::kValues},
                    Shape{8, 8, ScanForm::kValues}, Shape{32, 32, ScanForm::kValues},
                    Shape{64, 64, ScanForm::kValues}, Shape{128, 128, ScanForm::kValues},
                    Shape{256, 256, ScanForm::kValues}, Shape{256, 16, ScanForm::kValues},
                    Shape{512, 32, ScanForm::kValues}, Shape{1024, 1024, ScanForm::kValues},
                    Shape{1024, 32, ScanForm::kValues}, Shape{1, 1, ScanForm::kInPlace},
                    Shape{8, 4, ScanForm::kInPlace}, Shape{32, 32, ScanForm::kInPlace},
                    Shape{256, 16, ScanForm::kInPlace}, Shape{1024, 1024, ScanForm::kInPlace}),
    shape_name);

} // namespace
