#include "support/mip_reference.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "compute/buffer.hpp"
#include "support/test_random.hpp"

namespace cineflow::test {

Mips referenceMips(std::span<const float> volume, const process::VolumeShape& shape) {
  // Starting from NaN, maximumNumber yields the largest non-NaN value of a line (+0 above -0), and
  // NaN for an all-NaN line: the contract exactly. Written out here, apart from the engine's.
  const auto maximumNumber = [](float a, float b) {
    if (std::isnan(a)) {
      return b;
    }
    if (std::isnan(b) || a > b) {
      return a;
    }
    if (a == b) {
      return std::signbit(a) ? b : a;  // equal and nonzero: the same value; zeros: +0 wins
    }
    return b;
  };
  const float none = std::numeric_limits<float>::quiet_NaN();
  Mips mips{std::vector<float>(shape.alongY(), none), std::vector<float>(shape.alongZ(), none),
            std::vector<float>(shape.alongX(), none)};
  for (int y = 0; y < shape.ny; ++y) {
    for (int z = 0; z < shape.nz; ++z) {
      for (int x = 0; x < shape.nx; ++x) {
        const float v =
            volume[(static_cast<std::size_t>(y) * shape.nz + static_cast<std::size_t>(z)) *
                       shape.nx +
                   static_cast<std::size_t>(x)];
        float& py = mips.alongY[static_cast<std::size_t>(z) * shape.nx + x];
        float& pz = mips.alongZ[static_cast<std::size_t>(y) * shape.nx + x];
        float& px = mips.alongX[static_cast<std::size_t>(y) * shape.nz + z];
        py = maximumNumber(py, v);
        pz = maximumNumber(pz, v);
        px = maximumNumber(px, v);
      }
    }
  }
  return mips;
}

Mips runMips(compute::Backend& backend, const std::vector<float>& volume,
             const process::VolumeShape& shape, std::size_t variant) {
  process::MipProjector projector;
  projector.configure(backend, shape);
  projector.selectVariant(variant);
  compute::DeviceBuffer<float> in(backend, volume.size());
  compute::DeviceBuffer<float> y(backend, shape.alongY()), z(backend, shape.alongZ()),
      x(backend, shape.alongX());
  constexpr float kPoison = -12345.0f;
  Mips mips{std::vector<float>(shape.alongY(), kPoison),
            std::vector<float>(shape.alongZ(), kPoison),
            std::vector<float>(shape.alongX(), kPoison)};
  auto stream = backend.createStream("mip-test");
  // A brighter decoy goes through the same projector first: whatever it leaves behind in the
  // projector's scratch would show in the real volume's projections.
  std::vector<float> decoy(volume);
  for (float& v : decoy) {
    v += 100.0f;
  }
  stream->copyAsync(in.data(), decoy.data(), in.bytes());
  projector.enqueue(*stream, compute::DeviceSpan<const float>(in.data(), in.size()), y.view(),
                    z.view(), x.view());
  stream->copyAsync(in.data(), volume.data(), in.bytes());
  stream->copyAsync(y.data(), mips.alongY.data(), y.bytes());
  stream->copyAsync(z.data(), mips.alongZ.data(), z.bytes());
  stream->copyAsync(x.data(), mips.alongX.data(), x.bytes());
  projector.enqueue(*stream, compute::DeviceSpan<const float>(in.data(), in.size()), y.view(),
                    z.view(), x.view());
  stream->copyAsync(mips.alongY.data(), y.data(), y.bytes());
  stream->copyAsync(mips.alongZ.data(), z.data(), z.bytes());
  stream->copyAsync(mips.alongX.data(), x.data(), x.bytes());
  stream->synchronize();
  const std::string error = stream->takeError();
  if (!error.empty()) {
    throw std::runtime_error(error);
  }
  return mips;
}

bool identical(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) {
    return false;
  }
  for (std::size_t i = 0; i < a.size(); ++i) {
    const bool same = a[i] == b[i] && std::signbit(a[i]) == std::signbit(b[i]);
    if (!(same || (std::isnan(a[i]) && std::isnan(b[i])))) {
      return false;
    }
  }
  return true;
}

std::vector<float> randomVolume(const process::VolumeShape& shape, std::uint64_t seed) {
  std::vector<float> volume(shape.voxels());
  fillUniform(volume, seed, -80.0, 0.0);
  SeededRandom random(seed + 1);
  for (int i = 0; i < 16 && !volume.empty(); ++i) {
    volume[static_cast<std::size_t>(
        random.integer(0, static_cast<std::int64_t>(volume.size()) - 1))] =
        static_cast<float>(random.uniform(1.0, 20.0));
  }
  return volume;
}

process::VolumeInfo someVolumeInfo(const process::VolumeShape& shape, std::uint64_t number) {
  process::VolumeInfo info;
  info.number = number;
  info.shape = shape;
  info.slice = {shape.nx, shape.nz, -2e-3, 1e-4, 5e-3, 5e-5};
  for (int y = 0; y < shape.ny; ++y) {
    info.elevationM.push_back(-1e-3 + 5e-4 * y);
    info.sequence.push_back(1000 + static_cast<std::uint64_t>(y));
    info.timestampNs.push_back(5'000'000'000 + 50'000'000LL * y);
  }
  return info;
}

}  // namespace cineflow::test
