#include "support/image_analysis.hpp"

#include <cmath>
#include <stdexcept>

#include "compute/buffer.hpp"
#include "process/bmode_processor.hpp"

namespace cineflow::test {

std::vector<float> bmodeOfFrame(compute::Backend& backend, acquire::FrameSource& source,
                                std::uint64_t index, const process::ImagingParams& imaging) {
  process::BmodeProcessor processor;
  processor.configure(backend, source.params(), source.sampleType(), imaging);
  compute::PinnedBuffer<std::byte> host(backend, source.frameBytes());
  acquire::SliceInfo slice;
  source.readFrame(index, host.host(), slice);
  compute::DeviceBuffer<std::byte> raw(backend, host.size());
  compute::DeviceBuffer<float> image(backend, processor.geometry().pixels());
  std::vector<float> result(image.size());
  auto stream = backend.createStream("test");
  stream->copyAsync(raw.data(), host.data(), host.bytes());
  processor.enqueue(*stream, raw.view(), image.view(), {});
  stream->copyAsync(result.data(), image.data(), image.bytes());
  stream->synchronize();
  const std::string error = stream->takeError();
  if (!error.empty()) {
    throw std::runtime_error(error);
  }
  return result;
}

Peak findPeak(const std::vector<float>& image, const process::ImageGeometry& g, double xM,
              double zM, double halfWindowM) {
  Peak best;
  best.value = -INFINITY;
  for (int iz = 0; iz < g.nz; ++iz) {
    const double z = g.z0 + iz * g.dz;
    if (std::abs(z - zM) > halfWindowM)
      continue;
    for (int ix = 0; ix < g.nx; ++ix) {
      const double x = g.x0 + ix * g.dx;
      if (std::abs(x - xM) > halfWindowM)
        continue;
      const float v = image[static_cast<std::size_t>(iz) * g.nx + ix];
      if (v > best.value)
        best = {x, z, v};
    }
  }
  return best;
}

double meanInDisc(const std::vector<float>& image, const process::ImageGeometry& g, double xM,
                  double zM, double radiusM) {
  double sum = 0;
  int count = 0;
  for (int iz = 0; iz < g.nz; ++iz) {
    for (int ix = 0; ix < g.nx; ++ix) {
      const double dx = g.x0 + ix * g.dx - xM;
      const double dz = g.z0 + iz * g.dz - zM;
      if (dx * dx + dz * dz <= radiusM * radiusM) {
        sum += image[static_cast<std::size_t>(iz) * g.nx + ix];
        ++count;
      }
    }
  }
  return count > 0 ? sum / count : NAN;
}

}  // namespace cineflow::test
