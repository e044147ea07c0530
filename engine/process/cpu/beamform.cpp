#include "process/cpu/beamform.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>

#include "compute/cpu/parallel_for.hpp"

namespace cineflow::process::cpu {
namespace {

// Pixels handled together: the per-pixel receive terms live in stack arrays of this length, so
// the stage needs no scratch memory and the arrays stay in L1.
constexpr std::size_t kBlock = 64;
// Transmits interpolated together: their sum is added to the image row once per group.
constexpr std::size_t kTransmitGroup = 4;

// Hann weight 0.5 (1 + cos(pi u)) = cos^2(pi u / 2) for |u| < 1. A Taylor polynomial of cos on
// [-pi/2, pi/2] (error < 1e-8) instead of std::cos keeps the pixel loop vectorisable; the weight
// is evaluated for every pixel-element pair, where std::cos was the largest cost.
inline double hannWeight(double u) {
  const double y = u * (std::numbers::pi / 2);
  const double y2 = y * y;
  const double c =
      1.0 + y2 * (-1.0 / 2 +
                  y2 * (1.0 / 24 +
                        y2 * (-1.0 / 720 + y2 * (1.0 / 40320 +
                                                 y2 * (-1.0 / 3628800 + y2 * (1.0 / 479001600))))));
  return c * c;
}

}  // namespace

DasKernel::DasKernel(const acquire::AcquisitionParams& acq, const ImagingParams& imaging)
    : transmits_(static_cast<std::size_t>(acq.transmits())),
      elements_(static_cast<std::size_t>(acq.elements())),
      samples_(static_cast<std::size_t>(acq.samples)),
      x0_(imaging.grid.x0),
      dx_(imaging.grid.dx),
      samplesPerMetre_(acq.samplingFrequencyHz / acq.soundSpeedMPerS),
      firstSample_(acq.t0S * acq.samplingFrequencyHz),
      halfApertureScale_(1.0 / (2.0 * imaging.fNumber)),
      elementX_(acq.elementXM) {
  const ImageGeometry geometry = imaging.geometry();
  pixelX_.resize(static_cast<std::size_t>(geometry.nx));
  for (std::size_t i = 0; i < pixelX_.size(); ++i) {
    pixelX_[i] = geometry.x0 + static_cast<double>(i) * geometry.dx;
  }
  pixelZ_.resize(static_cast<std::size_t>(geometry.nz));
  for (std::size_t i = 0; i < pixelZ_.size(); ++i) {
    pixelZ_[i] = geometry.z0 + static_cast<double>(i) * geometry.dz;
  }
  for (double angle : acq.anglesRad) {
    cosSamples_.push_back(std::cos(angle) * samplesPerMetre_);
    sinSamples_.push_back(std::sin(angle) * samplesPerMetre_);
  }
}

void DasKernel::enqueue(compute::Stream& stream, const float* rf, float* image) const {
  stream.enqueueHost([this, rf, image] { run(rf, image); });
}

void DasKernel::run(const float* rf, float* image) const {
  auto body = [&](std::size_t begin, std::size_t end) {
    for (std::size_t row = begin; row < end; ++row) {
      beamformRow(row, rf, image);
    }
  };
  // Deep rows see a wider aperture and cost more: small chunks keep the threads balanced.
  const std::size_t grain =
      std::max<std::size_t>(1, pixelZ_.size() / (16 * compute::cpu::parallelism()));
  compute::cpu::parallelFor(pixelZ_.size(), grain, body);
}

// Compiled twice: for AVX2 + FMA (picked at load time on CPUs that have them, about 1.5x faster)
// and for the baseline, so the binary still runs on any x86-64.
#if defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
__attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
void DasKernel::beamformRow(std::size_t row, const float* rf, float* image) const {
  const std::size_t nx = pixelX_.size();
  float* out = image + row * nx;
  std::fill(out, out + nx, 0.0f);
  const double z = pixelZ_[row];
  const double halfAperture = z * halfApertureScale_;
  if (!(halfAperture > 0)) {
    return;  // no receive aperture at the surface
  }
  const double inverseHalfAperture = 1.0 / halfAperture;
  const double z2 = z * z;
  const double lastSample = static_cast<double>(samples_ - 1);
  const auto lastPair = static_cast<std::int32_t>(samples_) - 2;

  // Per block of pixels: the receive path once (loop A); then, for a group of transmits, the
  // sample positions (loop B1) and the interpolation (loop B2). A and B1 carry no loads from the
  // traces and vectorise; B2 is the gather, branch-free (positions outside [0, S-1] read a valid
  // pair with zero weight) and sums the group before touching the image row once.
  double receive[kBlock];  // receive path in samples, minus t0 * fs
  float apodisation[kBlock];
  std::int32_t index[kTransmitGroup][kBlock];
  float fraction[kTransmitGroup][kBlock];
  float inside[kTransmitGroup][kBlock];  // 1 where the position lies within [0, S-1], else 0
  for (std::size_t e = 0; e < elements_; ++e) {
    const double xe = elementX_[e];
    // The pixels with |x - xe| < h, exactly: a contiguous run, found from an estimate two
    // pixels too wide on each side. Keeping the test out of the pixel loops lets them vectorise.
    const double first = std::floor((xe - halfAperture - x0_) / dx_) - 2;
    const double last = std::ceil((xe + halfAperture - x0_) / dx_) + 2;
    auto begin = static_cast<std::size_t>(std::clamp(first, 0.0, static_cast<double>(nx)));
    auto end = static_cast<std::size_t>(std::clamp(last + 1, 0.0, static_cast<double>(nx)));
    const auto inAperture = [&](std::size_t i) { return std::abs(pixelX_[i] - xe) < halfAperture; };
    while (begin < end && !inAperture(begin)) {
      ++begin;
    }
    while (end > begin && !inAperture(end - 1)) {
      --end;
    }
    for (std::size_t blockBegin = begin; blockBegin < end; blockBegin += kBlock) {
      const std::size_t count = std::min(kBlock, end - blockBegin);
      const double* x = pixelX_.data() + blockBegin;
      float* target = out + blockBegin;
      // A: std::sqrt vectorises here only where errno is not set by math (-fno-math-errno).
      for (std::size_t j = 0; j < count; ++j) {
        const double lateral = x[j] - xe;
        receive[j] = std::sqrt(lateral * lateral + z2) * samplesPerMetre_ - firstSample_;
        apodisation[j] = static_cast<float>(hannWeight(lateral * inverseHalfAperture));
      }
      for (std::size_t group = 0; group < transmits_; group += kTransmitGroup) {
        const std::size_t groupSize = std::min(kTransmitGroup, transmits_ - group);
        for (std::size_t g = 0; g < groupSize; ++g) {
          const double transmitDepth = z * cosSamples_[group + g];
          const double transmitLateral = sinSamples_[group + g];
          // B1: min / max and an equality test rather than branches or && so that it
          // vectorises; s == clamped exactly when s lies within [0, S-1].
          for (std::size_t j = 0; j < count; ++j) {
            const double s = receive[j] + transmitDepth + x[j] * transmitLateral;
            const double atLeastZero = s > 0.0 ? s : 0.0;
            const double clamped = atLeastZero < lastSample ? atLeastZero : lastSample;
            const auto truncated = static_cast<std::int32_t>(clamped);
            const std::int32_t i = truncated < lastPair ? truncated : lastPair;
            index[g][j] = i;
            fraction[g][j] = static_cast<float>(clamped - static_cast<double>(i));
            inside[g][j] = static_cast<float>(s == clamped);
          }
        }
        const float* traces[kTransmitGroup];
        for (std::size_t g = 0; g < groupSize; ++g) {
          traces[g] = rf + ((group + g) * elements_ + e) * samples_;
        }
        for (std::size_t j = 0; j < count; ++j) {  // B2: the gather
          float sum = 0.0f;
          for (std::size_t g = 0; g < groupSize; ++g) {
            const float a = traces[g][index[g][j]];
            const float b = traces[g][index[g][j] + 1];
            sum += inside[g][j] * (a + fraction[g][j] * (b - a));
          }
          target[j] += apodisation[j] * sum;
        }
      }
    }
  }
  const float scale = 1.0f / static_cast<float>(transmits_);
  for (std::size_t i = 0; i < nx; ++i) {
    out[i] *= scale;
  }
}

}  // namespace cineflow::process::cpu
