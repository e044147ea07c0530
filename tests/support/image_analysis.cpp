#include "support/image_analysis.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "compute/buffer.hpp"
#include "ultrasound/bmode_processor.hpp"
#include "ultrasound/ultrasound_modality.hpp"

namespace cineflow::test {

std::vector<float> bmodeOfFrame(compute::Backend& backend, acquire::FrameSource& source,
                                std::uint64_t index, const ultrasound::ImagingParams& imaging) {
  std::vector<std::byte> frame(source.frameBytes());
  acquire::SliceInfo slice;
  source.readFrame(index, frame, slice);
  const ultrasound::UltrasoundSource& ultrasound = ultrasound::requireUltrasound(source);
  return bmodeOfRaw(backend, ultrasound.params(), ultrasound.sampleType(), frame, imaging);
}

std::vector<float> bmodeOfRaw(compute::Backend& backend, const acquire::AcquisitionParams& acq,
                              acquire::SampleType type, std::span<const std::byte> frame,
                              const ultrasound::ImagingParams& imaging) {
  ultrasound::BmodeProcessor processor;
  processor.configure(backend, acq, type, imaging);
  compute::PinnedBuffer<std::byte> host(backend, frame.size());
  std::copy(frame.begin(), frame.end(), host.data());
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

Peak findSubPixelPeak(const std::vector<float>& image, const process::ImageGeometry& g, double xM,
                      double zM, double halfWindowM) {
  Peak peak = findPeak(image, g, xM, zM, halfWindowM);
  const int ix = static_cast<int>(std::lround((peak.xM - g.x0) / g.dx));
  const int iz = static_cast<int>(std::lround((peak.zM - g.z0) / g.dz));
  const auto at = [&](int x, int z) {
    return double(image[static_cast<std::size_t>(z) * g.nx + x]);
  };
  // The vertex of the parabola through (-1, a), (0, b), (1, c): (a - c) / (2 (a - 2 b + c)).
  const auto vertex = [](double a, double b, double c) {
    const double curvature = a - 2 * b + c;
    return curvature < 0 ? 0.5 * (a - c) / curvature : 0.0;
  };
  if (ix > 0 && ix + 1 < g.nx) {
    peak.xM += g.dx * vertex(at(ix - 1, iz), at(ix, iz), at(ix + 1, iz));
  }
  if (iz > 0 && iz + 1 < g.nz) {
    peak.zM += g.dz * vertex(at(ix, iz - 1), at(ix, iz), at(ix, iz + 1));
  }
  return peak;
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
