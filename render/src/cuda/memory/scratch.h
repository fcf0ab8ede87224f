// Scratch memory for the CUDA renderer: one device allocation carved into
// aligned typed arrays. A layout function takes arrays from a ScratchCarver;
// run on a null base it only measures, so the size and the pointers come from
// the same code.
#pragma once

#include <cstddef>

#include "common/device_buffer.h"

namespace render::gpu {

class ScratchCarver {
public:
  // 256 bytes: what cudaMalloc guarantees, and enough for any vector type.
  static constexpr std::size_t kAlignment = 256;

  explicit ScratchCarver(void* base) : base_(static_cast<unsigned char*>(base)) {}

  // `count` elements of T; null while measuring.
  template <class T> T* take(std::size_t count) {
    offset_ = align_up(offset_);
    T* array = base_ ? reinterpret_cast<T*>(base_ + offset_) : nullptr;
    offset_ += count * sizeof(T);
    return array;
  }

  // Bytes taken so far, rounded up to the alignment.
  std::size_t bytes() const { return align_up(offset_); }

private:
  static std::size_t align_up(std::size_t v) {
    return (v + kAlignment - 1) / kAlignment * kAlignment;
  }

  unsigned char* base_;
  std::size_t offset_ = 0;
};

// An allocation that only grows: reused across frames, replaced by a larger
// one when a layout needs more. The old one is freed first, so peak memory is
// the new size, not the sum.
class ScratchArena {
public:
  explicit ScratchArena(const char* label) : label_(label) {}

  // A base of at least `bytes` bytes; earlier contents are lost when it grows.
  void* reserve(std::size_t bytes) {
    if (bytes > memory_.size()) {
      memory_ = common::DeviceBuffer<unsigned char>();
      memory_ = common::DeviceBuffer<unsigned char>(bytes, label_);
    }
    return memory_.data();
  }

  std::size_t capacity() const { return memory_.size(); }

private:
  const char* label_;
  common::DeviceBuffer<unsigned char> memory_;
};

} // namespace render::gpu
