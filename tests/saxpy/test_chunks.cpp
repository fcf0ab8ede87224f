#include <gtest/gtest.h>

#include <cstddef>
#include <stdexcept>
#include <vector>

#include "saxpy/chunks.h"
#include "saxpy/saxpy.h"

namespace {

using saxpy::Chunk;
using saxpy::chunk_schedule;
using saxpy::kDefaultChunk;
using saxpy::kTailChunk;

// Every float of [0, n) in exactly one chunk, in order, no chunk empty or
// larger than asked for.
::testing::AssertionResult covers_in_order(const std::vector<Chunk>& chunks, std::size_t n,
                                           std::size_t chunk) {
  std::size_t next = 0;
  for (std::size_t k = 0; k < chunks.size(); ++k) {
    const Chunk& c = chunks[k];
    if (c.offset != next)
      return ::testing::AssertionFailure()
             << "chunk " << k << " starts at " << c.offset << ", expected " << next;
    if (c.count == 0 || c.count > chunk)
      return ::testing::AssertionFailure() << "chunk " << k << " has " << c.count << " floats";
    next += c.count;
  }
  if (next != n) return ::testing::AssertionFailure() << "covers " << next << " of " << n;
  return ::testing::AssertionSuccess();
}

TEST(ChunkSchedule, CoversEveryFloatOnceInOrder) {
  const std::size_t big = std::size_t{1} << 33;
  for (const std::size_t chunk : {std::size_t{1}, std::size_t{3}, std::size_t{1000},
                                  std::size_t{1} << 20, kDefaultChunk, std::size_t{1} << 30}) {
    for (const std::size_t n :
         {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{7}, std::size_t{1009},
          std::size_t{65537}, std::size_t{1000003}, kDefaultChunk - 1, kDefaultChunk,
          kDefaultChunk + 1, 3 * kDefaultChunk + 12345, std::size_t{100000000}, big}) {
      // One float per chunk over 2^33 floats is a list too large to build.
      if (n / chunk > (std::size_t{1} << 21)) continue;
      EXPECT_TRUE(covers_in_order(chunk_schedule(n, chunk), n, chunk))
          << "n " << n << ", chunk " << chunk;
    }
  }
}

TEST(ChunkSchedule, EmptyInputHasNoChunks) {
  EXPECT_TRUE(chunk_schedule(0, kDefaultChunk).empty());
}

TEST(ChunkSchedule, ChunkOfOneIsOneFloatEach) {
  const std::vector<Chunk> chunks = chunk_schedule(5, 1);
  const std::vector<Chunk> want{{0, 1}, {1, 1}, {2, 1}, {3, 1}, {4, 1}};
  EXPECT_EQ(chunks, want);
}

TEST(ChunkSchedule, ZeroChunkThrows) {
  EXPECT_THROW(chunk_schedule(10, 0), std::invalid_argument);
  EXPECT_THROW(saxpy::run(saxpy::Variant::Tuned, 10, 2.0f, nullptr, nullptr, nullptr, 0),
               std::invalid_argument);
}

// Full chunks while two or more remain, then halving: the last chunk is
// small whatever is left over, so the copy out after the last copy in is short.
TEST(ChunkSchedule, TailTapersToASmallLastChunk) {
  for (const std::size_t n : {std::size_t{100000000}, 2 * kDefaultChunk - 1, 2 * kDefaultChunk,
                              5 * kDefaultChunk, 5 * kDefaultChunk + 1, std::size_t{1} << 33}) {
    const std::vector<Chunk> chunks = chunk_schedule(n, kDefaultChunk);
    ASSERT_GE(chunks.size(), 2u) << n;
    EXPECT_LE(chunks.back().count, kTailChunk) << "n " << n;
    for (std::size_t k = 1; k < chunks.size(); ++k)
      EXPECT_LE(chunks[k].count, chunks[k - 1].count) << "n " << n << ", chunk " << k;
    // Only the last two chunks' worth of floats is split finer.
    for (const Chunk& c : chunks) {
      if (n - c.offset >= 2 * kDefaultChunk) {
        EXPECT_EQ(c.count, kDefaultChunk) << "n " << n;
      }
    }
    // Halving: a handful of tail chunks, not many small ones.
    const std::size_t full = n / kDefaultChunk;
    EXPECT_LE(chunks.size(), full + 8) << "n " << n;
  }
}

// With a chunk that is a multiple of four floats every chunk starts on a
// 16-byte boundary, so the kernel's vector loads apply to every chunk.
TEST(ChunkSchedule, OffsetsStayAlignedForAlignedChunks) {
  for (const std::size_t n : {std::size_t{100000000}, std::size_t{1000003}, 7 * kDefaultChunk + 5})
    for (const std::size_t chunk : {kDefaultChunk, std::size_t{1} << 20, std::size_t{12}})
      for (const Chunk& c : chunk_schedule(n, chunk))
        EXPECT_EQ(c.offset % 4, 0u) << "n " << n << ", chunk " << chunk << ", offset " << c.offset;
}

// A chunk smaller than the tail size is not split further, nor grown.
TEST(ChunkSchedule, SmallChunksStayWhole) {
  const std::vector<Chunk> chunks = chunk_schedule(10 * 1000 + 1, 1000);
  ASSERT_EQ(chunks.size(), 11u);
  for (std::size_t k = 0; k < 10; ++k) EXPECT_EQ(chunks[k].count, 1000u);
  EXPECT_EQ(chunks.back().count, 1u);
}

TEST(ChunkSchedule, NextChunkCountStaysInBounds) {
  for (const std::size_t remaining :
       {std::size_t{1}, std::size_t{2}, kTailChunk - 1, kTailChunk, kTailChunk + 1, 3 * kTailChunk,
        kDefaultChunk, 2 * kDefaultChunk - 1, 2 * kDefaultChunk + 1})
    for (const std::size_t chunk : {std::size_t{1}, std::size_t{5}, kTailChunk, kDefaultChunk}) {
      const std::size_t count = saxpy::next_chunk_count(remaining, chunk);
      EXPECT_GE(count, 1u);
      EXPECT_LE(count, remaining);
      EXPECT_LE(count, chunk);
    }
}

} // namespace
