#pragma once
// Fills device memory with a host-computed pattern (bench's buffers, tune's MIP volume), so that
// timed kernels read real contents (a CPU backend would otherwise read the zero page).

#include <algorithm>
#include <cstddef>

#include "compute/backend.hpp"
#include "compute/buffer.hpp"

namespace cineflow::app {

// Fills `count` elements of device memory with pattern(i % chunk), through a pinned buffer of
// `chunk` elements, and waits for the copies.
template <class T, class Pattern>
void fillWithPattern(compute::Backend& backend, compute::Stream& stream, T* device,
                     std::size_t count, std::size_t chunk, Pattern pattern) {
  chunk = std::min(count, chunk);
  compute::PinnedBuffer<T> host(backend, chunk);
  for (std::size_t i = 0; i < chunk; ++i) {
    host.data()[i] = pattern(i);
  }
  for (std::size_t offset = 0; offset < count; offset += chunk) {
    stream.copyAsync(device + offset, host.data(), std::min(chunk, count - offset) * sizeof(T));
  }
  stream.synchronize();
}

// The pattern of the MIP volumes bench and tune time: dB values over -60..0.
inline float mipVolumePattern(std::size_t i) {
  return -60.0f + static_cast<float>((i * 131) % 600) * 0.1f;
}

}  // namespace cineflow::app
