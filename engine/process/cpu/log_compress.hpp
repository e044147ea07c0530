#pragma once
// CPU backend of LogCompressor (process/log_compress.hpp holds the contract).

#include <cstddef>

#include "compute/backend.hpp"

namespace cineflow::process::cpu {

// Enqueues out[i] = 20 log10(max(in[i], 1e-10)) for i < count on `stream` (host-accessible
// backend memory; in == out allowed); the task runs parallelFor on the stream's thread.
void enqueueLogCompress(compute::Stream& stream, const float* in, float* out, std::size_t count);
// The body of that task, synchronous on the calling thread (and the pool).
void logCompress(const float* in, float* out, std::size_t count);

}  // namespace cineflow::process::cpu
