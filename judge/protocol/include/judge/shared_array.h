// An array both the judge and the worker address: host memory (a memfd) or
// device memory (a CUDA virtual-memory allocation exported as a file
// descriptor). Either way the worker inherits a descriptor, so sharing needs
// no name the worker could guess and works across the sandbox's namespaces.
// The judge writes inputs and reads outputs through write() and read(); the
// worker hands data() to the code it runs.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

namespace judge {

enum class MemoryKind { kHost, kDevice };

const char* memory_name(MemoryKind kind);

class SharedArray {
public:
  SharedArray(); // none: data() null, bytes() 0, fd() -1
  // The judge's side: a new array of at least `bytes` (device: rounded up to
  // the allocation granularity; bytes() says how many there are).
  static SharedArray create(MemoryKind kind, std::size_t bytes);
  // The worker's side: the array behind an inherited descriptor.
  static SharedArray attach(MemoryKind kind, int fd, std::size_t bytes);
  SharedArray(SharedArray&&) noexcept;
  SharedArray& operator=(SharedArray&&) noexcept;
  ~SharedArray();

  MemoryKind kind() const noexcept;
  // An address in this process: host memory, or device memory for kernels.
  void* data() const noexcept;
  std::size_t bytes() const noexcept;
  int fd() const noexcept;

  // Copies between the array and host memory; each returns when done.
  void write(std::size_t offset, const void* src, std::size_t bytes);
  void read(std::size_t offset, void* dst, std::size_t bytes) const;
  void fill(unsigned char value);
  void fill(std::size_t offset, std::size_t n, unsigned char value);

  struct Impl;

private:
  explicit SharedArray(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Device memory the worker's kernels may still be writing: a launch of an
// empty kernel on the judge's own context and a copy each way through the
// copy engines, timed to their completion, in ms. (The GPU runs one
// process's context at a time, so a worker that answered before its
// kernels or copies ended shows here as a late probe.)
double probe_device_ms();

// GPU work seen running after an answer: the judge's probe beyond what it
// costs after an honest worker (`switch_ms`), charged to the call, or, when
// that is more than 1 ms plus a tenth of the call's `call_ms` in two probes
// one after the other, why the row is rejected (one slow probe alone can
// be the machine's noise; work still running slows the second too).
// Nothing for host memory.
struct LateWork {
  double charged_ms = 0;
  std::string reason; // empty unless rejected
};
LateWork probe_late_work(MemoryKind memory, double switch_ms, const std::string& what,
                         double call_ms);
// The same judgement on the times `probe` gives (probe_late_work's is
// probe_device_ms), host code the tests can give any times.
LateWork judge_late_work(double switch_ms, const std::string& what, double call_ms,
                         const std::function<double()>& probe);

// Whether the GPU is idle while every worker is held still (before a call's
// input is written, and again before its clock starts): empty, or why not.
// Nothing the held workers do can start work then, so work seen running is
// work they left, which would compute off the clock (a resident kernel
// that watches for the input). Judged as probe_late_work on a call of 0 ms;
// nothing for host memory.
std::string probe_held_idle(MemoryKind memory, double switch_ms, const std::string& when);
std::string judge_held_idle(double switch_ms, const std::string& when,
                            const std::function<double()>& probe);

} // namespace judge
