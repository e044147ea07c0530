#pragma once
// Typed RAII owners of backend memory (house style rule 2, docs/development.md): one owner per
// allocation, copies deleted, moves allowed, noexcept destructors. DeviceBuffer memory is only
// touched by stream work (kernels, copies); PinnedBuffer and HostBuffer memory is host-accessible.

#include <cstddef>
#include <span>
#include <utility>

#include "compute/backend.hpp"

namespace cineflow::compute {

// A typed view of device memory. It has no element access on purpose: device memory is read
// and written only by work running on a stream (a CPU-backend stage may use data() there).
template <class T>
class DeviceSpan {
 public:
  DeviceSpan() = default;
  DeviceSpan(T* data, std::size_t size) : data_(data), size_(size) {}
  template <class U, class = std::enable_if_t<std::is_convertible_v<U (*)[], T (*)[]>>>
  DeviceSpan(DeviceSpan<U> other) : data_(other.data()), size_(other.size()) {}  // NOLINT
  T* data() const { return data_; }
  std::size_t size() const { return size_; }
  std::size_t bytes() const { return size_ * sizeof(T); }
  DeviceSpan subspan(std::size_t offset, std::size_t count) const {
    return DeviceSpan(data_ + offset, count);
  }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

template <class T, MemorySpace Space>
class Buffer {
 public:
  Buffer() = default;
  Buffer(Backend& backend, std::size_t count)
      : backend_(&backend),
        data_(count == 0 ? nullptr : static_cast<T*>(backend.allocate(Space, count * sizeof(T)))),
        size_(count) {}
  Buffer(Buffer&& other) noexcept
      : backend_(std::exchange(other.backend_, nullptr)),
        data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)) {}
  Buffer& operator=(Buffer&& other) noexcept {
    if (this != &other) {
      release();
      backend_ = std::exchange(other.backend_, nullptr);
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer() { release(); }

  static constexpr MemorySpace space() { return Space; }
  T* data() const { return data_; }
  std::size_t size() const { return size_; }
  std::size_t bytes() const { return size_ * sizeof(T); }
  bool empty() const { return size_ == 0; }

  DeviceSpan<T> view() const { return DeviceSpan<T>(data_, size_); }
  // Host access, only for host-accessible spaces.
  std::span<T> host() const requires(Space != MemorySpace::Device) {
    return std::span<T>(data_, size_);
  }

 private:
  void release() noexcept {
    if (data_ != nullptr) {
      backend_->deallocate(Space, data_);
    }
    data_ = nullptr;
    size_ = 0;
  }

  Backend* backend_ = nullptr;
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

template <class T>
using DeviceBuffer = Buffer<T, MemorySpace::Device>;
template <class T>
using PinnedBuffer = Buffer<T, MemorySpace::Pinned>;
template <class T>
using HostBuffer = Buffer<T, MemorySpace::Host>;

}  // namespace cineflow::compute
