#include "process/cpu/log_compress.hpp"

#include <algorithm>
#include <cmath>

#include "compute/cpu/parallel_for.hpp"
#include "process/log_compress.hpp"

namespace cineflow::process::cpu {

void enqueueLogCompress(compute::Stream& stream, const float* in, float* out, std::size_t count) {
  stream.enqueueHost([in, out, count] { logCompress(in, out, count); });
}

void logCompress(const float* in, float* out, std::size_t count) {
  auto body = [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      out[i] = 20.0f * std::log10(std::max(in[i], kLogCompressFloor));
    }
  };
  // Chunks of 16 Ki pixels: large enough that scheduling costs nothing next to log10.
  compute::cpu::parallelFor(count, 16384, body);
}

}  // namespace cineflow::process::cpu
