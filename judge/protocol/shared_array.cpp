#include "judge/shared_array.h"

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime_api.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

#include "common/cuda_check.h"
#include "judge/channel.h"

namespace judge {

const char* memory_name(MemoryKind kind) {
  return kind == MemoryKind::kHost ? "host" : "device";
}

struct SharedArray::Impl {
  virtual ~Impl() = default;
  MemoryKind kind = MemoryKind::kHost;
  void* data = nullptr;
  std::size_t bytes = 0;
  int fd = -1;
  virtual void write(std::size_t offset, const void* src, std::size_t n) = 0;
  virtual void read(std::size_t offset, void* dst, std::size_t n) const = 0;
  virtual void fill(std::size_t offset, std::size_t n, unsigned char value) = 0;
};

namespace {

void check_range(std::size_t offset, std::size_t n, std::size_t bytes) {
  if (offset > bytes || n > bytes - offset)
    throw std::out_of_range("shared array: " + std::to_string(n) + " bytes at " +
                            std::to_string(offset) + " pass its end (" + std::to_string(bytes) +
                            ")");
}

struct HostImpl final : SharedArray::Impl {
  SharedMemory memory;
  explicit HostImpl(SharedMemory m) : memory(std::move(m)) {
    kind = MemoryKind::kHost;
    data = memory.data();
    bytes = memory.bytes();
    fd = memory.fd();
  }
  void write(std::size_t offset, const void* src, std::size_t n) override {
    check_range(offset, n, bytes);
    std::memcpy(static_cast<char*>(data) + offset, src, n);
  }
  void read(std::size_t offset, void* dst, std::size_t n) const override {
    check_range(offset, n, bytes);
    std::memcpy(dst, static_cast<const char*>(data) + offset, n);
  }
  void fill(std::size_t offset, std::size_t n, unsigned char value) override {
    check_range(offset, n, bytes);
    std::memset(static_cast<char*>(data) + offset, value, n);
  }
};

// The driver calls of CUDA's virtual memory management, found through the
// runtime so that the programs need no link to libcuda (machines without a
// driver still start them and get a clear error).
struct Driver {
  PFN_cuMemCreate_v10020 create = nullptr;
  PFN_cuMemRelease_v10020 release = nullptr;
  PFN_cuMemExportToShareableHandle_v10020 export_handle = nullptr;
  PFN_cuMemImportFromShareableHandle_v10020 import_handle = nullptr;
  PFN_cuMemAddressReserve_v10020 reserve = nullptr;
  PFN_cuMemAddressFree_v10020 address_free = nullptr;
  PFN_cuMemMap_v10020 map = nullptr;
  PFN_cuMemUnmap_v10020 unmap = nullptr;
  PFN_cuMemSetAccess_v10020 set_access = nullptr;
  PFN_cuMemGetAllocationGranularity_v10020 granularity = nullptr;
};

template <class F> void entry(const char* name, F& fn) {
  void* p = nullptr;
  cudaDriverEntryPointQueryResult found{};
  CUDA_CHECK(cudaGetDriverEntryPointByVersion(name, &p, 12000, cudaEnableDefault, &found));
  if (found != cudaDriverEntryPointSuccess || !p)
    throw std::runtime_error(std::string("the CUDA driver lacks ") + name);
  fn = reinterpret_cast<F>(p);
}

const Driver& driver() {
  static const Driver d = [] {
    CUDA_CHECK(cudaFree(nullptr)); // the primary context, current for the driver calls
    Driver r;
    entry("cuMemCreate", r.create);
    entry("cuMemRelease", r.release);
    entry("cuMemExportToShareableHandle", r.export_handle);
    entry("cuMemImportFromShareableHandle", r.import_handle);
    entry("cuMemAddressReserve", r.reserve);
    entry("cuMemAddressFree", r.address_free);
    entry("cuMemMap", r.map);
    entry("cuMemUnmap", r.unmap);
    entry("cuMemSetAccess", r.set_access);
    entry("cuMemGetAllocationGranularity", r.granularity);
    return r;
  }();
  return d;
}

void cu_check(CUresult result, const char* call) {
  if (result != CUDA_SUCCESS)
    throw std::runtime_error(std::string(call) + " failed (CUDA driver error " +
                             std::to_string(static_cast<int>(result)) + ")");
}

CUmemAllocationProp allocation_prop() {
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = device;
  prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  return prop;
}

struct DeviceImpl final : SharedArray::Impl {
  CUmemGenericAllocationHandle handle = 0;
  CUdeviceptr address = 0;

  DeviceImpl(CUmemGenericAllocationHandle h, std::size_t size, int descriptor) {
    kind = MemoryKind::kDevice;
    handle = h;
    bytes = size;
    fd = descriptor;
    const Driver& d = driver();
    cu_check(d.reserve(&address, size, 0, 0, 0), "cuMemAddressReserve");
    cu_check(d.map(address, size, 0, handle, 0), "cuMemMap");
    CUmemAccessDesc access{};
    access.location = allocation_prop().location;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    cu_check(d.set_access(address, size, &access, 1), "cuMemSetAccess");
    data = reinterpret_cast<void*>(address);
  }
  ~DeviceImpl() override {
    const Driver& d = driver();
    if (address) {
      d.unmap(address, bytes);
      d.address_free(address, bytes);
    }
    if (handle) d.release(handle);
    if (fd >= 0) close(fd);
  }
  void write(std::size_t offset, const void* src, std::size_t n) override {
    check_range(offset, n, bytes);
    CUDA_CHECK(cudaMemcpy(static_cast<char*>(data) + offset, src, n, cudaMemcpyHostToDevice));
  }
  void read(std::size_t offset, void* dst, std::size_t n) const override {
    check_range(offset, n, bytes);
    CUDA_CHECK(cudaMemcpy(dst, static_cast<const char*>(data) + offset, n, cudaMemcpyDeviceToHost));
  }
  void fill(std::size_t offset, std::size_t n, unsigned char value) override {
    check_range(offset, n, bytes);
    CUDA_CHECK(cudaMemset(static_cast<char*>(data) + offset, value, n));
    CUDA_CHECK(cudaDeviceSynchronize());
  }
};

} // namespace

SharedArray::SharedArray() = default;
SharedArray::SharedArray(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
SharedArray::SharedArray(SharedArray&&) noexcept = default;
SharedArray& SharedArray::operator=(SharedArray&&) noexcept = default;
SharedArray::~SharedArray() = default;

SharedArray SharedArray::create(MemoryKind kind, std::size_t bytes) {
  if (bytes == 0) bytes = 1;
  if (kind == MemoryKind::kHost)
    return SharedArray(std::make_unique<HostImpl>(SharedMemory::create(bytes, "judge-array")));
  const Driver& d = driver();
  const CUmemAllocationProp prop = allocation_prop();
  std::size_t granularity = 0;
  cu_check(d.granularity(&granularity, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM),
           "cuMemGetAllocationGranularity");
  const std::size_t size = (bytes + granularity - 1) / granularity * granularity;
  CUmemGenericAllocationHandle handle = 0;
  cu_check(d.create(&handle, size, &prop, 0), "cuMemCreate");
  int fd = -1;
  const CUresult exported =
      d.export_handle(&fd, handle, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
  if (exported != CUDA_SUCCESS) d.release(handle);
  cu_check(exported, "cuMemExportToShareableHandle");
  return SharedArray(std::make_unique<DeviceImpl>(handle, size, fd));
}

SharedArray SharedArray::attach(MemoryKind kind, int fd, std::size_t bytes) {
  if (kind == MemoryKind::kHost)
    return SharedArray(std::make_unique<HostImpl>(SharedMemory::attach(fd, bytes)));
  const Driver& d = driver();
  CUmemGenericAllocationHandle handle = 0;
  cu_check(d.import_handle(&handle, reinterpret_cast<void*>(static_cast<std::intptr_t>(fd)),
                           CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR),
           "cuMemImportFromShareableHandle");
  return SharedArray(std::make_unique<DeviceImpl>(handle, bytes, fd));
}

MemoryKind SharedArray::kind() const noexcept {
  return impl_->kind;
}
void* SharedArray::data() const noexcept {
  return impl_ ? impl_->data : nullptr;
}
std::size_t SharedArray::bytes() const noexcept {
  return impl_ ? impl_->bytes : 0;
}
int SharedArray::fd() const noexcept {
  return impl_ ? impl_->fd : -1;
}
void SharedArray::write(std::size_t offset, const void* src, std::size_t n) {
  impl_->write(offset, src, n);
}
void SharedArray::read(std::size_t offset, void* dst, std::size_t n) const {
  impl_->read(offset, dst, n);
}
void SharedArray::fill(unsigned char value) {
  impl_->fill(0, impl_->bytes, value);
}
void SharedArray::fill(std::size_t offset, std::size_t n, unsigned char value) {
  impl_->fill(offset, n, value);
}

} // namespace judge
