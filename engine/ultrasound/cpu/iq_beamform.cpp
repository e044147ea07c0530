#include "ultrasound/cpu/iq_beamform.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "compute/cpu/isa.hpp"
#include "compute/cpu/parallel_for.hpp"
#include "ultrasound/cpu/beamform_fused.hpp"
#include "ultrasound/cpu/iq_beamform_fused.hpp"
#include "ultrasound/cpu/iq_row.hpp"

namespace cineflow::ultrasound::cpu {
namespace {

constexpr std::size_t kBlock = kIqBlock;
constexpr std::size_t kTransmitGroup = kIqTransmitGroup;

// One image row: the loops every variant compiles (inlined into each instruction set's function
// below).
[[gnu::always_inline]] inline void beamformRow(const DasGeometry& g_, double cyclesPerSample_,
                                               std::size_t row, const float* iq, float* envelope,
                                               float* beamformed) {
  const std::size_t nx = g_.pixelX.size();
  const auto [out, z, halfAperture] = startIqRow(g_, row, envelope, beamformed);
  if (!(halfAperture > 0)) {
    return;  // no receive aperture at the surface
  }
  const double inverseHalfAperture = 1.0 / halfAperture;
  const double z2 = z * z;
  const double lastSample = static_cast<double>(g_.samples - 1);
  const auto lastPair = static_cast<std::int32_t>(g_.samples) - 2;
  const std::size_t transmitStride = g_.elements * g_.samples * 2;

  // The carrier's phase over the path, 2 pi f0 tau, splits into a transmit part (pixel and
  // transmit) and a receive part (pixel and element): exp(j 2 pi f0 tau) = T(x, z, t) R(x, z, e).
  // Per block of pixels and group of transmits, T once (loop T); per element the receive path and
  // R once (loop A); per transmit the sample positions and the product T R (loop B1, no loads
  // from the traces, vectorised), then the gather, interpolation and rotation (loop B2).
  // Positions outside [0, S-1] read a valid pair with zero weight, so no loops branch.
  float sumRe[kBlock];
  float sumIm[kBlock];
  double receive[kBlock];  // receive path in samples
  float weight[kBlock];
  float turn[kBlock];  // a phase in turns, reduced to [-1/2, 1/2]
  float receiveCos[kBlock], receiveSin[kBlock];
  float transmitCos[kTransmitGroup][kBlock], transmitSin[kTransmitGroup][kBlock];
  std::int32_t index[kBlock];
  float fraction[kBlock], gain[kBlock], cosine[kBlock], sine[kBlock];
  for (std::size_t blockBegin = 0; blockBegin < nx; blockBegin += kBlock) {
    const std::size_t blockEnd = std::min(nx, blockBegin + kBlock);
    const std::size_t blockCount = blockEnd - blockBegin;
    std::fill(sumRe, sumRe + kBlock, 0.0f);
    std::fill(sumIm, sumIm + kBlock, 0.0f);
    for (std::size_t groupBegin = 0; groupBegin < g_.transmits; groupBegin += kTransmitGroup) {
      const std::size_t groupEnd = std::min(g_.transmits, groupBegin + kTransmitGroup);
      transmitPhasors(g_, z, cyclesPerSample_, blockBegin, blockCount, groupBegin, groupEnd,
                      transmitCos, transmitSin);  // T
      for (std::size_t e = 0; e < g_.elements; ++e) {
        const double xe = g_.elementX[e];
        auto [begin, end] = g_.apertureRun(xe, halfAperture);
        begin = std::max(begin, blockBegin);
        end = std::min(end, blockEnd);
        if (begin >= end) {
          continue;
        }
        const std::size_t count = end - begin;
        const std::size_t offset = begin - blockBegin;
        const double* x = g_.pixelX.data() + begin;
        float* re = sumRe + offset;
        float* im = sumIm + offset;
        if (g_.rectangular) {
          std::fill(weight, weight + count, 1.0f);
        } else {
          for (std::size_t j = 0; j < count; ++j) {
            weight[j] = static_cast<float>(hannWeight((x[j] - xe) * inverseHalfAperture));
          }
        }
        for (std::size_t j = 0; j < count; ++j) {  // A
          const double lateral = x[j] - xe;
          receive[j] = std::sqrt(lateral * lateral + z2) * g_.samplesPerMetre;
          turn[j] = reducedTurn(receive[j] * cyclesPerSample_);
        }
        for (std::size_t j = 0; j < count; ++j) {
          sinCosOfTurn(turn[j], receiveSin[j], receiveCos[j]);
        }
        for (std::size_t t = groupBegin; t < groupEnd; ++t) {
          const double transmitDepth = z * g_.cosSamples[t];
          const double transmitLateral = g_.sinSamples[t];
          const float* tc = transmitCos[t - groupBegin] + offset;
          const float* ts = transmitSin[t - groupBegin] + offset;
          for (std::size_t j = 0; j < count; ++j) {  // B1
            const double path = receive[j] + transmitDepth + x[j] * transmitLateral;
            const double s = path - g_.firstSample;
            const double atLeastZero = s > 0.0 ? s : 0.0;
            const double clamped = atLeastZero < lastSample ? atLeastZero : lastSample;
            const auto truncated = static_cast<std::int32_t>(clamped);
            const std::int32_t i = truncated < lastPair ? truncated : lastPair;
            index[j] = i;
            fraction[j] = static_cast<float>(clamped - static_cast<double>(i));
            gain[j] = static_cast<float>(s == clamped) * weight[j];
            cosine[j] = tc[j] * receiveCos[j] - ts[j] * receiveSin[j];
            sine[j] = ts[j] * receiveCos[j] + tc[j] * receiveSin[j];
          }
          const float* trace = iq + t * transmitStride + e * g_.samples * 2;
          for (std::size_t j = 0; j < count; ++j) {  // B2
            const float* pair = trace + 2 * static_cast<std::size_t>(index[j]);
            const float i0 = pair[0] + fraction[j] * (pair[2] - pair[0]);
            const float q0 = pair[1] + fraction[j] * (pair[3] - pair[1]);
            re[j] += gain[j] * (i0 * cosine[j] - q0 * sine[j]);
            im[j] += gain[j] * (i0 * sine[j] + q0 * cosine[j]);
          }
        }
      }
    }
    finishIqBlock(g_, row, blockBegin, blockCount, sumRe, sumIm, out, beamformed);
  }
}

using RowFunction = void (*)(const DasGeometry&, double, std::size_t, const float*, float*, float*);

CINEFLOW_ISA_AVX512 void rowAvx512(const DasGeometry& g, double cycles, std::size_t row,
                                   const float* iq, float* envelope, float* beamformed) {
  beamformRow(g, cycles, row, iq, envelope, beamformed);
}
CINEFLOW_ISA_AVX2 void rowAvx2(const DasGeometry& g, double cycles, std::size_t row,
                               const float* iq, float* envelope, float* beamformed) {
  beamformRow(g, cycles, row, iq, envelope, beamformed);
}
void rowPortable(const DasGeometry& g, double cycles, std::size_t row, const float* iq,
                 float* envelope, float* beamformed) {
  beamformRow(g, cycles, row, iq, envelope, beamformed);
}

const std::vector<compute::cpu::NamedVariant<RowFunction>>& rowVariants() {
  static const auto variants = compute::cpu::isaVariants<RowFunction>(
      fusedRowAvailable() ? iqBeamformRowFused : nullptr, rowAvx512, rowAvx2, rowPortable);
  return variants;
}

}  // namespace

std::vector<std::string> IqDasKernel::variantNames() {
  std::vector<std::string> names;
  for (const auto& variant : rowVariants()) {
    names.push_back(variant.name);
  }
  return names;
}

IqDasKernel::IqDasKernel(const acquire::AcquisitionParams& acq, const ImagingParams& imaging,
                         std::size_t iqSamples)
    : g_(acq, imaging, acq.samplingFrequencyHz / imaging.iqDecimation, iqSamples),
      cyclesPerSample_(acq.centerFrequencyHz * imaging.iqDecimation / acq.samplingFrequencyHz) {}

void IqDasKernel::enqueue(compute::Stream& stream, const float* iq, float* envelope,
                          float* beamformed) const {
  stream.enqueueHost([this, iq, envelope, beamformed] { run(iq, envelope, beamformed); });
}

void IqDasKernel::run(const float* iq, float* envelope, float* beamformed) const {
  const RowFunction row = rowVariants()[variant_].function;
  g_.forEachRow([&](std::size_t r) { row(g_, cyclesPerSample_, r, iq, envelope, beamformed); });
}

void IqDasKernel::selectVariant(std::size_t index) {
  if (index >= rowVariants().size()) {
    throw std::invalid_argument("I/Q beamform: no CPU variant " + std::to_string(index));
  }
  variant_ = index;
}

}  // namespace cineflow::ultrasound::cpu
