// Move-only owners of device memory and of pinned host memory. Copies between
// host and device are explicit calls; nothing copies implicitly.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <utility>

namespace common {

// Untyped allocation helpers. On failure they throw CudaError naming the
// label and the byte count ("device allocation of 400000000 bytes for 'x'
// failed: out of memory"). The frees never throw; they log on failure.
void* device_allocate(std::size_t bytes, const char* label);
void device_free(void* ptr) noexcept;
void* pinned_allocate(std::size_t bytes, const char* label);
void pinned_free(void* ptr) noexcept;
// Pinned host memory mapped into the device's address space
// (cudaHostAllocMapped); freed by pinned_free.
void* mapped_allocate(std::size_t bytes, const char* label);
// The address kernels use for mapped host memory (cudaHostGetDevicePointer).
void* mapped_device_pointer(void* host);

namespace detail {
// Shared body of the buffer kinds: owns `count` elements obtained from
// Alloc and released by Free.
template <class T, void* (*Alloc)(std::size_t, const char*), void (*Free)(void*) noexcept>
class OwnedArray {
public:
  OwnedArray() = default;
  explicit OwnedArray(std::size_t count, const char* label = "buffer")
      : ptr_(count ? static_cast<T*>(Alloc(count * sizeof(T), label)) : nullptr), count_(count) {}
  ~OwnedArray() { Free(ptr_); }
  OwnedArray(const OwnedArray&) = delete;
  OwnedArray& operator=(const OwnedArray&) = delete;
  OwnedArray(OwnedArray&& other) noexcept
      : ptr_(std::exchange(other.ptr_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  OwnedArray& operator=(OwnedArray&& other) noexcept {
    if (this != &other) {
      Free(ptr_);
      ptr_ = std::exchange(other.ptr_, nullptr);
      count_ = std::exchange(other.count_, 0);
    }
    return *this;
  }

  T* data() noexcept { return ptr_; }
  const T* data() const noexcept { return ptr_; }
  std::size_t size() const noexcept { return count_; }
  std::size_t bytes() const noexcept { return count_ * sizeof(T); }
  bool empty() const noexcept { return count_ == 0; }

private:
  T* ptr_ = nullptr;
  std::size_t count_ = 0;
};

void copy_bytes(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind,
                cudaStream_t stream, bool async);
void check_copy_count(std::size_t count, std::size_t capacity);
} // namespace detail

template <class T> class DeviceBuffer : public detail::OwnedArray<T, device_allocate, device_free> {
  using Base = detail::OwnedArray<T, device_allocate, device_free>;

public:
  using Base::Base;

  // Synchronous copies of the first `count` elements (count <= size()).
  void copy_from_host(const T* src, std::size_t count) { copy_in(src, count, nullptr, false); }
  void copy_to_host(T* dst, std::size_t count) const { copy_out(dst, count, nullptr, false); }
  // Asynchronous copies on a stream; the host memory should be pinned for overlap.
  void copy_from_host_async(const T* src, std::size_t count, cudaStream_t stream) {
    copy_in(src, count, stream, true);
  }
  void copy_to_host_async(T* dst, std::size_t count, cudaStream_t stream) const {
    copy_out(dst, count, stream, true);
  }

private:
  void copy_in(const T* src, std::size_t count, cudaStream_t stream, bool async) {
    detail::check_copy_count(count, this->size());
    detail::copy_bytes(this->data(), src, count * sizeof(T), cudaMemcpyHostToDevice, stream, async);
  }
  void copy_out(T* dst, std::size_t count, cudaStream_t stream, bool async) const {
    detail::check_copy_count(count, this->size());
    detail::copy_bytes(dst, this->data(), count * sizeof(T), cudaMemcpyDeviceToHost, stream, async);
  }
};

namespace detail {
// Page-locked host memory of either kind, indexed on the host.
template <class T, void* (*Alloc)(std::size_t, const char*)>
class HostArray : public OwnedArray<T, Alloc, pinned_free> {
  using Base = OwnedArray<T, Alloc, pinned_free>;

public:
  using Base::Base;
  T& operator[](std::size_t i) noexcept { return this->data()[i]; }
  const T& operator[](std::size_t i) const noexcept { return this->data()[i]; }
};
} // namespace detail

// Page-locked host memory: needed for copies that overlap kernels, and faster.
template <class T> class PinnedBuffer : public detail::HostArray<T, pinned_allocate> {
public:
  using detail::HostArray<T, pinned_allocate>::HostArray;
};

// Pinned host memory that kernels read and write directly: a result a kernel
// stores through device_data() is on the host once the work has finished,
// with no copy to queue.
template <class T> class MappedBuffer : public detail::HostArray<T, mapped_allocate> {
public:
  using detail::HostArray<T, mapped_allocate>::HostArray;
  // The pointer to pass to kernels (null for an empty buffer).
  T* device_data() {
    return this->empty() ? nullptr : static_cast<T*>(mapped_device_pointer(this->data()));
  }
};

} // namespace common
