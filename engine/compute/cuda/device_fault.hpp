#pragma once
// Faults that a kernel detects itself: a broken invariant that would otherwise hang its stream or
// corrupt results without a word. __trap() would report one too, but it destroys the CUDA context
// and with it every buffer of the run. Instead the kernel stores a fault code into the fault word
// of the stream it runs on: pinned host memory mapped into the device, so the report is one store
// from the device, with no copy to enqueue and nothing on the healthy path. The stream's
// takeError(), which the engine polls every frame and after draining, then names the fault.
//
// Launchers get the word from CudaStream::faultWord() and register their fault's message once:
//   static const unsigned code = registerDeviceFault("the MIP kernel gave up ...");

#include <string>

namespace cineflow::compute::cuda {

// Process-wide and thread-safe: returns the code (never 0) under which kernels report `message`.
unsigned registerDeviceFault(std::string message);
// The message registered under `code`, or one that says the code is unknown.
std::string deviceFaultMessage(unsigned code);

// One mapped pinned word: the owner of a stream's fault reports (house style rule 2,
// docs/development.md).
class DeviceFaultWord {
 public:
  DeviceFaultWord();  // throws CudaError
  ~DeviceFaultWord();
  DeviceFaultWord(const DeviceFaultWord&) = delete;
  DeviceFaultWord& operator=(const DeviceFaultWord&) = delete;

  // The word as kernels address it.
  unsigned* device() const { return device_; }
  // The code stored since the last take (0: none), cleared.
  unsigned take() noexcept;

 private:
  unsigned* host_ = nullptr;
  unsigned* device_ = nullptr;
};

#ifdef __CUDACC__
// Device side. Every thread that finds the fault stores the same code, so no atomic is needed
// (nor wanted: atomics on host memory across PCIe are not supported everywhere).
__device__ __forceinline__ void reportDeviceFault(unsigned* word, unsigned code) {
  *static_cast<volatile unsigned*>(word) = code;
  __threadfence_system();
}
#endif

}  // namespace cineflow::compute::cuda
