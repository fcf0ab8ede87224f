// The render worker's device arena (judge/worker/device_arena.h) on host
// code: its allocator hands out aligned, disjoint blocks inside the arena,
// takes them back and joins free neighbours, and says no when it has no
// room (the worker then asks CUDA); its copy notes say which host array
// went where. The arena's memory is never touched here, so a made-up
// address stands in for the device's.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

#include "device_arena.h"

// The worker's wrapped calls forward to these: stand-ins that copy nothing.
extern "C" {
cudaError_t __real_cudaMemcpy(void*, const void*, std::size_t, cudaMemcpyKind) {
  return cudaSuccess;
}
cudaError_t __real_cudaMemcpyAsync(void*, const void*, std::size_t, cudaMemcpyKind, cudaStream_t) {
  return cudaSuccess;
}
cudaError_t __wrap_cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind);
cudaError_t __wrap_cudaMemcpyAsync(void* dst, const void* src, std::size_t bytes,
                                   cudaMemcpyKind kind, cudaStream_t stream);
}

namespace {

constexpr std::uintptr_t kBase = 0x7f0000000000;
constexpr std::size_t kBytes = 1 << 20;

void* at(std::size_t offset) {
  return reinterpret_cast<void*>(kBase + offset);
}

class DeviceArena : public ::testing::Test {
protected:
  void SetUp() override { judge::attach_device_arena(at(0), kBytes); }
  void TearDown() override { judge::attach_device_arena(nullptr, 0); }
};

TEST_F(DeviceArena, BlocksAreAlignedDisjointAndInside) {
  std::vector<void*> blocks;
  for (const std::size_t bytes : {1u, 12u, 4000u, 100000u, 513u}) {
    void* p = nullptr;
    ASSERT_TRUE(judge::arena_allocate(&p, bytes)) << bytes;
    const long long offset = judge::arena_offset(p, bytes);
    ASSERT_GE(offset, 0) << bytes;
    EXPECT_EQ(offset % 512, 0) << bytes;
    for (void* q : blocks) EXPECT_NE(p, q);
    blocks.push_back(p);
  }
  // Each after the one before, rounded up to 512 bytes.
  EXPECT_EQ(judge::arena_offset(blocks[1], 12), 512);
  EXPECT_EQ(judge::arena_offset(blocks[2], 4000), 1024);
  EXPECT_EQ(judge::arena_offset(blocks[3], 100000), 1024 + 4096);
}

TEST_F(DeviceArena, NoRoomMeansCudaServes) {
  void* p = nullptr;
  EXPECT_FALSE(judge::arena_allocate(&p, kBytes + 1));
  ASSERT_TRUE(judge::arena_allocate(&p, kBytes));
  void* q = nullptr;
  EXPECT_FALSE(judge::arena_allocate(&q, 1));
  EXPECT_FALSE(judge::arena_free(at(kBytes + 4096))); // not the arena's: CUDA frees it
  EXPECT_TRUE(judge::arena_free(p));
  EXPECT_FALSE(judge::arena_free(p)); // twice: not the arena's any more
  EXPECT_TRUE(judge::arena_allocate(&q, kBytes));
}

TEST_F(DeviceArena, FreedNeighboursJoin) {
  void *a = nullptr, *b = nullptr, *c = nullptr;
  ASSERT_TRUE(judge::arena_allocate(&a, kBytes / 4));
  ASSERT_TRUE(judge::arena_allocate(&b, kBytes / 4));
  ASSERT_TRUE(judge::arena_allocate(&c, kBytes / 2));
  EXPECT_TRUE(judge::arena_free(a));
  EXPECT_TRUE(judge::arena_free(c));
  void* big = nullptr;
  EXPECT_FALSE(judge::arena_allocate(&big, kBytes / 2 + 512)); // a and c are apart
  EXPECT_TRUE(judge::arena_free(b));
  ASSERT_TRUE(judge::arena_allocate(&big, kBytes)); // all three joined
  EXPECT_EQ(big, at(0));
}

TEST_F(DeviceArena, OffsetsOutsideAreRefused) {
  EXPECT_EQ(judge::arena_offset(at(kBytes - 4), 4), static_cast<long long>(kBytes - 4));
  EXPECT_EQ(judge::arena_offset(at(kBytes - 4), 8), -1);
  EXPECT_EQ(judge::arena_offset(reinterpret_cast<void*>(kBase - 4), 4), -1);
  EXPECT_EQ(judge::arena_offset(at(0), kBytes + 1), -1);
}

TEST_F(DeviceArena, CopiesAreNotedOnlyWhileRecording) {
  std::vector<float> scene(100), image(64);
  __wrap_cudaMemcpy(at(0), scene.data(), 400, cudaMemcpyHostToDevice);
  EXPECT_TRUE(judge::recorded_copies().empty());
  judge::record_copies(true);
  __wrap_cudaMemcpy(at(512), scene.data(), 400, cudaMemcpyHostToDevice);
  __wrap_cudaMemcpyAsync(image.data(), at(4096), 256, cudaMemcpyDeviceToHost, nullptr);
  // Where the arena is tells cudaMemcpyDefault's direction.
  __wrap_cudaMemcpy(at(1024), scene.data(), 400, cudaMemcpyDefault);
  __wrap_cudaMemcpy(at(2048), at(1024), 400, cudaMemcpyDeviceToDevice); // no host side
  judge::record_copies(false);
  __wrap_cudaMemcpy(at(3072), scene.data(), 400, cudaMemcpyHostToDevice);
  const std::vector<judge::RecordedCopy> copies = judge::recorded_copies();
  ASSERT_EQ(copies.size(), 3u);
  EXPECT_EQ(copies[0].host, scene.data());
  EXPECT_EQ(copies[0].device, at(512));
  EXPECT_TRUE(copies[0].to_device);
  EXPECT_EQ(copies[1].host, image.data());
  EXPECT_EQ(copies[1].device, at(4096));
  EXPECT_EQ(copies[1].bytes, 256u);
  EXPECT_FALSE(copies[1].to_device);
  EXPECT_EQ(copies[2].device, at(1024));
  EXPECT_TRUE(copies[2].to_device);
  judge::record_copies(true); // a new recording forgets the last
  EXPECT_TRUE(judge::recorded_copies().empty());
  judge::record_copies(false);
}

TEST_F(DeviceArena, AFreedBlockTakesItsCopiesWithIt) {
  std::vector<float> scene(100);
  void *kept = nullptr, *temporary = nullptr;
  ASSERT_TRUE(judge::arena_allocate(&kept, 400));
  ASSERT_TRUE(judge::arena_allocate(&temporary, 4000));
  judge::record_copies(true);
  __wrap_cudaMemcpy(kept, scene.data(), 400, cudaMemcpyHostToDevice);
  __wrap_cudaMemcpy(static_cast<char*>(temporary) + 400, scene.data(), 400, cudaMemcpyHostToDevice);
  EXPECT_TRUE(judge::arena_free(temporary));
  judge::record_copies(false);
  const std::vector<judge::RecordedCopy> copies = judge::recorded_copies();
  ASSERT_EQ(copies.size(), 1u);
  EXPECT_EQ(copies[0].device, kept);
}

} // namespace
