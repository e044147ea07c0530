#include "ultrasound/echo_band.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <mutex>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

#include "process/cpu/fftw_handles.hpp"

namespace cineflow::ultrasound {
namespace {

// Rows whose spectra are averaged: enough for a stable mean, few enough to keep an open quick.
constexpr std::size_t kMaxRows = 256;
// The first samples of each trace that are analysed: 16384 cover 25 cm of depth at 50 MHz, and
// a damaged recording's stated length (10^6 samples) costs no more than a real one.
constexpr std::size_t kMaxSamples = 16384;

std::size_t nextPowerOfTwo(std::size_t n) {
  std::size_t p = 1;
  while (p < n) {
    p *= 2;
  }
  return p;
}

}  // namespace

EchoBand measureEchoBand(std::span<const std::byte> frame, acquire::SampleType type,
                         const acquire::AcquisitionParams& acq) {
  const std::size_t samples = static_cast<std::size_t>(acq.samples);
  const std::size_t rows =
      static_cast<std::size_t>(acq.transmits()) * static_cast<std::size_t>(acq.elements());
  if (samples < 8 || rows == 0 || frame.size() != rows * samples * acquire::sampleBytes(type)) {
    throw std::invalid_argument("echo band: the frame holds " + std::to_string(frame.size()) +
                                " bytes, expected " + std::to_string(rows) + " rows of " +
                                std::to_string(samples) + " " + acquire::toString(type) +
                                " samples (at least 8)");
  }
  const std::size_t used = std::min(samples, kMaxSamples);
  const std::size_t size = nextPowerOfTwo(used);
  const std::size_t bins = size / 2 + 1;
  process::cpu::FftwArray<float> in(size);
  process::cpu::FftwArray<fftwf_complex> out(bins);
  process::cpu::FftwPlan plan;
  {
    std::lock_guard lock(process::cpu::fftwPlannerMutex());
    plan = process::cpu::FftwPlan(
        fftwf_plan_dft_r2c_1d(static_cast<int>(size), in.data(), out.data(), FFTW_ESTIMATE));
  }
  std::vector<double> window(used);
  for (std::size_t n = 0; n < used; ++n) {
    window[n] = 0.5 - 0.5 * std::cos(2 * std::numbers::pi * static_cast<double>(n) /
                                     static_cast<double>(used - 1));
  }
  std::vector<double> power(bins, 0.0);
  const std::size_t step = std::max<std::size_t>(1, rows / kMaxRows);
  std::vector<double> row(used);
  for (std::size_t r = 0; r < rows; r += step) {
    for (std::size_t n = 0; n < used; ++n) {
      const std::size_t i = r * samples + n;
      row[n] = type == acquire::SampleType::Int16
                   ? reinterpret_cast<const std::int16_t*>(frame.data())[i]
                   : static_cast<double>(reinterpret_cast<const float*>(frame.data())[i]);
    }
    double mean = 0;
    for (double v : row) {
      mean += v;
    }
    mean /= static_cast<double>(used);
    std::fill(in.data(), in.data() + size, 0.0f);
    for (std::size_t n = 0; n < used; ++n) {
      const double v = (row[n] - mean) * window[n];
      in.data()[n] = std::isfinite(v) ? static_cast<float>(v) : 0.0f;
    }
    fftwf_execute_dft_r2c(plan.get(), in.data(), out.data());
    for (std::size_t k = 0; k < bins; ++k) {
      power[k] += static_cast<double>(out.data()[k][0]) * out.data()[k][0] +
                  static_cast<double>(out.data()[k][1]) * out.data()[k][1];
    }
  }
  // Smooth over +-1 % of fs: the spectrum of a short window is noisy bin to bin.
  const double binHz = acq.samplingFrequencyHz / static_cast<double>(size);
  const auto radius =
      static_cast<std::ptrdiff_t>(std::ceil(0.01 * acq.samplingFrequencyHz / binHz));
  // Running sums: linear in the bins whatever the radius (a long trace has ~10^5 of each).
  std::vector<double> prefix(bins + 1, 0.0);
  for (std::size_t k = 0; k < bins; ++k) {
    prefix[k + 1] = prefix[k] + power[k];
  }
  std::vector<double> smooth(bins, 0.0);
  for (std::ptrdiff_t k = 0; k < static_cast<std::ptrdiff_t>(bins); ++k) {
    const std::ptrdiff_t a = std::max<std::ptrdiff_t>(0, k - radius);
    const std::ptrdiff_t b =
        std::min<std::ptrdiff_t>(static_cast<std::ptrdiff_t>(bins) - 1, k + radius);
    smooth[static_cast<std::size_t>(k)] =
        (prefix[static_cast<std::size_t>(b) + 1] - prefix[static_cast<std::size_t>(a)]) /
        static_cast<double>(b - a + 1);
  }
  const auto firstBin = static_cast<std::size_t>(std::ceil(0.02 * acq.samplingFrequencyHz / binHz));
  EchoBand band;
  if (firstBin + 2 >= bins) {
    return band;
  }
  const auto peak = static_cast<std::size_t>(
      std::max_element(smooth.begin() + static_cast<std::ptrdiff_t>(firstBin), smooth.end()) -
      smooth.begin());
  const double half = smooth[peak] / 4;  // -6 dB in power
  if (!(smooth[peak] > 0)) {
    return band;
  }
  std::size_t low = peak;
  while (low > 0 && smooth[low - 1] >= half) {
    --low;
  }
  std::size_t high = peak;
  while (high + 1 < bins && smooth[high + 1] >= half) {
    ++high;
  }
  // Interpolate the crossings between bins; a band that runs into DC or Nyquist is not a band.
  if (low == 0 || high + 1 == bins) {
    return band;
  }
  const auto crossing = [&](std::size_t inside, std::size_t outside) {
    const double a = smooth[inside], b = smooth[outside];
    const double t = (a - half) / (a - b);
    return (static_cast<double>(inside) +
            t * (static_cast<double>(outside) - static_cast<double>(inside))) *
           binHz;
  };
  band.lowHz = crossing(low, low - 1);
  band.highHz = crossing(high, high + 1);
  band.peakHz = static_cast<double>(peak) * binHz;
  band.found = band.highHz > band.lowHz;
  return band;
}

void measureBandwidthIfUnknown(acquire::AcquisitionParams& acq, std::span<const std::byte> frame,
                               acquire::SampleType type) {
  if (acq.fractionalBandwidth > 0 || acq.samples < 8) {
    return;  // stated, or rows too short for a spectrum: the chains keep their defaults
  }
  const EchoBand band = measureEchoBand(frame, type, acq);
  if (band.found) {
    acq.fractionalBandwidth = (band.highHz - band.lowHz) / acq.centerFrequencyHz;
    acq.bandwidthMeasured = true;
  }
}

}  // namespace cineflow::ultrasound
