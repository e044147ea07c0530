#pragma once
// 64-byte aligned host memory: the CPU backend's device and pinned memory, and every backend's
// MemorySpace::Host. One implementation for all backends.

#include <cstddef>

#include "compute/backend.hpp"

namespace cineflow::compute {

// Throws std::runtime_error naming the size and `space` when the allocation fails. A zero-byte
// request returns a valid (minimal) allocation.
void* allocateAlignedHost(std::size_t bytes, MemorySpace space);
void freeAlignedHost(void* ptr) noexcept;

}  // namespace cineflow::compute
