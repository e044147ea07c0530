#include "bench_source.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numbers>
#include <stdexcept>
#include <utility>
#include <vector>

#include "ultrasound/simulator.hpp"

namespace cineflow::app {
namespace {

constexpr double kDegrees = std::numbers::pi / 180.0;

// `elements` positions `pitch` apart, centred on x = 0.
std::vector<double> linearArray(int elements, double pitch) {
  std::vector<double> x(static_cast<std::size_t>(elements));
  for (int e = 0; e < elements; ++e) {
    x[static_cast<std::size_t>(e)] = (e - (elements - 1) / 2.0) * pitch;
  }
  return x;
}

BenchWorkload defaultWorkload() {
  const ultrasound::SimulatorConfig simulator;
  BenchWorkload workload;
  workload.preset = "default";
  workload.acq = simulator.acquisitionParams();
  workload.sampleType = simulator.sampleType;
  workload.imaging = ultrasound::ImagingParams::defaultsFor(workload.acq);
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
  acq.elementXM = linearArray(128, 0.298e-3);
  acq.samples = 8183;
  workload.sampleType = acquire::SampleType::Float32;

  ultrasound::ImagingGrid& grid = workload.imaging.grid;
  grid.x0 = -15e-3;
  grid.x1 = 15e-3;
  grid.dx = 30e-3 / 127;
  grid.z0 = 20e-3;
  grid.z1 = 50e-3;
  grid.dz = 30e-3 / 127;
  workload.description = "published short-course workload (fs 100 MHz, f0 5 MHz, pitch 0.298 mm)";
  return workload;
}

// The Verasonics rotating-disk recording's acquisition (data/: an L7-4 at 5 MHz, RF
// sampled at 6.67 MHz, one plane wave per frame at a PRF of 10 kHz) on PyMUST's grid, in colour
// Doppler with PyMUST's choices (no wall filter, f-number 1.125, 15 % I/Q bandwidth) and a
// 32-frame sliding ensemble: the live colour Doppler of the disk.
BenchWorkload diskWorkload() {
  BenchWorkload workload;
  workload.preset = "disk";
  acquire::AcquisitionParams& acq = workload.acq;
  acq.samplingFrequencyHz = 20e6 / 3;
  acq.centerFrequencyHz = 5e6;
  acq.soundSpeedMPerS = 1480;
  acq.t0S = 9.95e-6;
  acq.anglesRad = {0.0};
  acq.elementXM = linearArray(128, 0.298e-3);
  acq.samples = 334;
  acq.fractionalBandwidth = 0.15;
  acq.pulseRepetitionFrequencyHz = 10e3;
  workload.sampleType = acquire::SampleType::Int16;
  ultrasound::ImagingParams& imaging = workload.imaging;
  imaging = ultrasound::ImagingParams::defaultsFor(acq);
  imaging.grid = ultrasound::ImagingGrid::parseMillimetres("-12.5:12.5:0.1,10:35:0.1");
  imaging.mode = ultrasound::ImagingMode::ColourDoppler;
  imaging.fNumber = 1.125;
  imaging.apodisation = ultrasound::Apodisation::Rectangular;
  imaging.iqBandwidthRel = 0.15;
  imaging.doppler.ensemble = 32;
  imaging.doppler.wallFilter = ultrasound::WallFilter::None;
  workload.description = "the Verasonics rotating disk's acquisition on PyMUST's 251 x 251 grid";
  return workload;
}

}  // namespace

BenchWorkload benchWorkload(const std::string& preset) {
  BenchWorkload workload;
  if (preset == "default") {
    workload = defaultWorkload();
  } else if (preset == "course") {
    workload = courseWorkload();
  } else if (preset == "disk") {
    workload = diskWorkload();
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
