#include "bench_source.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numbers>
#include <stdexcept>
#include <utility>

#include "ultrasound/simulator.hpp"

namespace cineflow::app {
namespace {

constexpr double kDegrees = std::numbers::pi / 180.0;

BenchWorkload defaultWorkload() {
  const acquire::SimulatorConfig simulator;
  BenchWorkload workload;
  workload.preset = "default";
  workload.acq = simulator.acquisitionParams();
  workload.sampleType = simulator.sampleType;
  workload.imaging = process::ImagingParams::defaultsFor(workload.acq);
  workload.description = "simulator default acquisition, the live GUI's grid";
  return workload;
}

BenchWorkload courseWorkload() {
  BenchWorkload workload;
  workload.preset = "course";
  acquire::AcquisitionParams& acq = workload.acq;
  acq.samplingFrequencyHz = 100e6;
  acq.centerFrequencyHz = 5e6;
  acq.soundSpeedMPerS = 1540;
  acq.t0S = 0;
  acq.anglesRad = {-10.0 * kDegrees, 0.0, 10.0 * kDegrees};
  constexpr int kElements = 128;
  constexpr double kPitchM = 0.298e-3;
  acq.elementXM.resize(kElements);
  for (int e = 0; e < kElements; ++e) {
    acq.elementXM[static_cast<std::size_t>(e)] = (e - (kElements - 1) / 2.0) * kPitchM;
  }
  acq.samples = 8183;
  workload.sampleType = acquire::SampleType::Float32;

  process::ImagingGrid& grid = workload.imaging.grid;
  grid.x0 = -15e-3;
  grid.x1 = 15e-3;
  grid.dx = 30e-3 / 127;
  grid.z0 = 20e-3;
  grid.z1 = 50e-3;
  grid.dz = 30e-3 / 127;
  workload.description = "published short-course workload (fs 100 MHz, f0 5 MHz, pitch 0.298 mm)";
  return workload;
}

}  // namespace

BenchWorkload benchWorkload(const std::string& preset) {
  BenchWorkload workload;
  if (preset == "default") {
    workload = defaultWorkload();
  } else if (preset == "course") {
    workload = courseWorkload();
  } else {
    throw std::invalid_argument("unknown preset '" + preset + "': expected " + kBenchPresets);
  }
  workload.imaging.validate(workload.acq);
  return workload;
}

BenchSource::BenchSource(acquire::AcquisitionParams params, acquire::SampleType sampleType,
                         std::uint64_t seed)
    : params_(std::move(params)), sampleType_(sampleType), rng_(seed) {
  params_.validate();
}

void BenchSource::readFrame(std::uint64_t /*index*/, std::span<std::byte> dst,
                            acquire::SliceInfo& slice) {
  if (dst.size() != frameBytes()) {
    throw acquire::SourceError("benchmark source: destination holds " + std::to_string(dst.size()) +
                               " bytes, a frame needs " + std::to_string(frameBytes()));
  }
  slice = {};
  if (filled_.filledBefore(dst.data())) {
    fillRandom(dst.first(std::min(kStampBytes, dst.size())));
  } else {
    fillRandom(dst);  // as the DMA engine's first transfer into this slot
  }
}

std::string BenchSource::describe() const {
  return std::string("benchmark source (") + acquire::toString(sampleType_) +
         ", DMA-style: each slot filled once, then 4 KiB stamped per frame)";
}

bool FilledSlots::filledBefore(const std::byte* slot) {
  const auto end = slots_.begin() + static_cast<std::ptrdiff_t>(count_);
  if (std::find(slots_.begin(), end, slot) != end) {
    return true;
  }
  if (count_ < slots_.size()) {
    slots_[count_++] = slot;
  }
  return false;
}

void BenchSource::fillRandom(std::span<std::byte> bytes) {
  if (sampleType_ == acquire::SampleType::Int16) {
    const std::size_t count = bytes.size() / sizeof(std::int16_t);
    for (std::size_t i = 0; i < count; i += 4) {
      std::uint64_t bits = rng_();
      for (std::size_t k = i; k < std::min(count, i + 4); ++k, bits >>= 16) {
        const auto value = static_cast<std::int16_t>(static_cast<int>((bits & 0xffff) % 4001) -
                                                     2000);  // [-2000, 2000]
        std::memcpy(bytes.data() + k * sizeof value, &value, sizeof value);
      }
    }
  } else {
    const std::size_t count = bytes.size() / sizeof(float);
    for (std::size_t i = 0; i < count; i += 2) {
      std::uint64_t bits = rng_();
      for (std::size_t k = i; k < std::min(count, i + 2); ++k, bits >>= 32) {
        // 24 random bits -> [0, 1) -> [-1, 1)
        const float value = static_cast<float>((bits & 0xffffffffu) >> 8) * 0x1.0p-23f - 1.0f;
        std::memcpy(bytes.data() + k * sizeof value, &value, sizeof value);
      }
    }
  }
}

}  // namespace cineflow::app
