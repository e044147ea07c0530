#include "compute/cuda/cuda_backend.hpp"

#include <cstdlib>
#include <iostream>

#include "compute/cuda/cuda_check.hpp"
#include "compute/cuda/cuda_event.hpp"
#include "compute/cuda/cuda_stream.hpp"
#include "compute/host_memory.hpp"

namespace cineflow::compute::cuda {

CudaBackend::CudaBackend(int device) : device_(device) {
  check(cudaSetDevice(device), "cudaSetDevice");
  check(cudaFree(nullptr), "creating the CUDA context");
  cudaDeviceProp props{};
  check(cudaGetDeviceProperties(&props, device), "cudaGetDeviceProperties");
  name_ = std::string(props.name) + " (sm_" + std::to_string(props.major) +
          std::to_string(props.minor) + ")";
}

std::string CudaBackend::hardwareIdentity() const {
  int version = 0;
  if (cudaDriverGetVersion(&version) != cudaSuccess) {
    return "unknown NVIDIA driver";
  }
  return "NVIDIA driver for CUDA " + std::to_string(version / 1000) + "." +
         std::to_string(version % 1000 / 10);
}

std::unique_ptr<Stream> CudaBackend::createStream(const std::string& name) {
  return std::make_unique<CudaStream>(name);
}

std::unique_ptr<Event> CudaBackend::createEvent() {
  return std::make_unique<CudaEvent>(true);
}

std::unique_ptr<Event> CudaBackend::createSyncEvent() {
  return std::make_unique<CudaEvent>(false);
}

void* CudaBackend::allocateMemory(MemorySpace space, std::size_t bytes) {
  void* ptr = nullptr;
  switch (space) {
    case MemorySpace::Device:
      check(cudaMalloc(&ptr, bytes), "cudaMalloc", bytes);
      break;
    case MemorySpace::Pinned:
      check(cudaHostAlloc(&ptr, bytes, cudaHostAllocDefault), "cudaHostAlloc", bytes);
      break;
    case MemorySpace::Host:
      ptr = allocateAlignedHost(bytes, space);
      break;
  }
  return ptr;
}

void CudaBackend::deallocateMemory(MemorySpace space, void* ptr) noexcept {
  cudaError_t status = cudaSuccess;
  switch (space) {
    case MemorySpace::Device:
      status = cudaFree(ptr);
      break;
    case MemorySpace::Pinned:
      status = cudaFreeHost(ptr);
      break;
    case MemorySpace::Host:
      freeAlignedHost(ptr);
      break;
  }
  if (status != cudaSuccess) {
    std::cerr << "cineflow: freeing " << toString(space)
              << " memory: " << cudaGetErrorString(status) << '\n';
  }
}

void CudaBackend::copyBlocking(void* dst, const void* src, std::size_t bytes) const {
  check(cudaMemcpy(dst, src, bytes, cudaMemcpyDefault), "cudaMemcpy", bytes);
}

void CudaBackend::zeroBlocking(void* dst, std::size_t bytes) const {
  check(cudaMemset(dst, 0, bytes), "cudaMemset", bytes);
}

void CudaBackend::synchronizeExternalStream(std::uintptr_t stream) const {
  cudaStream_t handle = reinterpret_cast<cudaStream_t>(stream);
  if (stream == 1) {
    handle = cudaStreamLegacy;
  } else if (stream == 2) {
    handle = cudaStreamPerThread;
  }
  check(cudaSetDevice(device_), "cudaSetDevice");
  check(cudaStreamSynchronize(handle), "cudaStreamSynchronize");
}

CudaBackend::PointerPlace CudaBackend::placeOfPointer(const void* pointer) const noexcept {
  cudaPointerAttributes attributes{};
  PointerPlace place;
  if (cudaPointerGetAttributes(&attributes, pointer) != cudaSuccess) {
    cudaGetLastError();  // the error is not sticky: clear it so the next call does not see it
    return place;
  }
  if (attributes.type == cudaMemoryTypeDevice || attributes.type == cudaMemoryTypeManaged) {
    place.kind = PointerPlace::Kind::Device;
  } else if (attributes.type == cudaMemoryTypeHost) {
    place.kind = PointerPlace::Kind::PinnedHost;
  }
  place.device = attributes.device;
  return place;
}

DeviceMemoryInfo CudaBackend::memoryInfo() const {
  DeviceMemoryInfo info;
  check(cudaMemGetInfo(&info.freeBytes, &info.totalBytes), "cudaMemGetInfo");
  return info;
}

}  // namespace cineflow::compute::cuda
