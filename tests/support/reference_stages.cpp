#include "support/reference_stages.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace cineflow::test {

acquire::AcquisitionParams makePlaneWaveAcquisition(int elements, int transmits, int samples,
                                                    double pitchM, double maxAngleRad, double t0S) {
  acquire::AcquisitionParams acq;
  acq.samplingFrequencyHz = 20e6;
  acq.centerFrequencyHz = 5e6;
  acq.soundSpeedMPerS = 1540;
  acq.t0S = t0S;
  acq.samples = samples;
  acq.fractionalBandwidth = 0.6;
  for (int e = 0; e < elements; ++e) {
    acq.elementXM.push_back((e - (elements - 1) / 2.0) * pitchM);
  }
  for (int t = 0; t < transmits; ++t) {
    acq.anglesRad.push_back(transmits == 1 ? 0.0
                                           : -maxAngleRad + 2 * maxAngleRad * t / (transmits - 1));
  }
  return acq;
}

std::vector<double> referenceBandpass(std::span<const float> taps, std::span<const double> input,
                                      std::size_t rows, std::size_t samples) {
  const auto length = static_cast<std::ptrdiff_t>(taps.size());
  const std::ptrdiff_t half = (length - 1) / 2;
  const auto count = static_cast<std::ptrdiff_t>(samples);
  std::vector<double> output(rows * samples, 0.0);
  for (std::size_t row = 0; row < rows; ++row) {
    const double* x = input.data() + row * samples;
    double* y = output.data() + row * samples;
    for (std::ptrdiff_t n = 0; n < count; ++n) {
      double sum = 0;
      for (std::ptrdiff_t k = 0; k < length; ++k) {
        const std::ptrdiff_t m = n + k - half;
        if (m >= 0 && m < count) {
          sum += static_cast<double>(taps[static_cast<std::size_t>(k)]) * x[m];
        }
      }
      y[n] = sum;
    }
  }
  return output;
}

std::vector<double> referenceDelayAndSum(const acquire::AcquisitionParams& acq,
                                         const process::ImagingParams& imaging,
                                         std::span<const double> rf) {
  const process::ImageGeometry g = imaging.geometry();
  const int transmits = acq.transmits();
  const int elements = acq.elements();
  const int samples = acq.samples;
  const double c = acq.soundSpeedMPerS;
  const double fs = acq.samplingFrequencyHz;
  std::vector<double> image(g.pixels(), 0.0);
  for (int iz = 0; iz < g.nz; ++iz) {
    const double z = g.z0 + iz * g.dz;
    const double halfAperture = z / (2 * imaging.fNumber);
    for (int ix = 0; ix < g.nx; ++ix) {
      const double x = g.x0 + ix * g.dx;
      double sum = 0;
      for (int t = 0; t < transmits; ++t) {
        const double angle = acq.anglesRad[static_cast<std::size_t>(t)];
        for (int e = 0; e < elements; ++e) {
          const double xe = acq.elementXM[static_cast<std::size_t>(e)];
          if (!(std::abs(x - xe) < halfAperture)) {
            continue;
          }
          const double weight = 0.5 * (1 + std::cos(std::numbers::pi * (x - xe) / halfAperture));
          const double tau =
              (z * std::cos(angle) + x * std::sin(angle) + std::hypot(x - xe, z)) / c;
          const double s = (tau - acq.t0S) * fs;
          if (s < 0 || s > samples - 1) {
            continue;
          }
          const int i = std::min(static_cast<int>(std::floor(s)), samples - 2);
          const double* trace =
              rf.data() + (static_cast<std::size_t>(t) * static_cast<std::size_t>(elements) +
                           static_cast<std::size_t>(e)) *
                              static_cast<std::size_t>(samples);
          sum += weight * (trace[i] + (s - i) * (trace[i + 1] - trace[i]));
        }
      }
      image[static_cast<std::size_t>(iz) * static_cast<std::size_t>(g.nx) +
            static_cast<std::size_t>(ix)] = sum / transmits;
    }
  }
  return image;
}

std::vector<double> referenceEnvelope(std::span<const double> image, int nz, int nx) {
  const auto n = static_cast<std::size_t>(nz);
  const auto columns = static_cast<std::size_t>(nx);
  // Twiddles indexed by (k * m) mod N: exact angles, no accumulated rotation error.
  std::vector<double> cosTable(n), sinTable(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double angle = 2 * std::numbers::pi * static_cast<double>(i) / static_cast<double>(n);
    cosTable[i] = std::cos(angle);
    sinTable[i] = std::sin(angle);
  }
  std::vector<double> envelope(image.size());
  std::vector<double> re(n), im(n);
  for (std::size_t x = 0; x < columns; ++x) {
    for (std::size_t k = 0; k < n; ++k) {  // X[k] = sum_m x[m] exp(-2 pi i k m / N), times H[k]
      double sumRe = 0, sumIm = 0;
      for (std::size_t m = 0; m < n; ++m) {
        const double v = image[m * columns + x];
        const std::size_t index = (k * m) % n;
        sumRe += v * cosTable[index];
        sumIm -= v * sinTable[index];
      }
      double h = 0;
      if (k == 0 || (n % 2 == 0 && k == n / 2)) {
        h = 1;
      } else if (k < (n + 1) / 2) {
        h = 2;
      }
      re[k] = sumRe * h;
      im[k] = sumIm * h;
    }
    for (std::size_t m = 0; m < n; ++m) {  // inverse DFT, normalised by 1/N
      double sumRe = 0, sumIm = 0;
      for (std::size_t k = 0; k < n; ++k) {
        const std::size_t index = (k * m) % n;
        sumRe += re[k] * cosTable[index] - im[k] * sinTable[index];
        sumIm += re[k] * sinTable[index] + im[k] * cosTable[index];
      }
      envelope[m * columns + x] = std::hypot(sumRe, sumIm) / static_cast<double>(n);
    }
  }
  return envelope;
}

std::vector<double> referenceLogCompress(std::span<const double> envelope) {
  std::vector<double> db(envelope.size());
  std::transform(envelope.begin(), envelope.end(), db.begin(),
                 [](double v) { return 20 * std::log10(std::max(v, 1e-10)); });
  return db;
}

double relativeL2Error(std::span<const float> actual, std::span<const double> expected) {
  if (actual.size() != expected.size()) {
    throw std::invalid_argument("relativeL2Error: sizes differ");
  }
  double error = 0, norm = 0;
  for (std::size_t i = 0; i < actual.size(); ++i) {
    const double d = static_cast<double>(actual[i]) - expected[i];
    error += d * d;
    norm += expected[i] * expected[i];
  }
  return std::sqrt(error / norm);
}

double maxAbsError(std::span<const float> actual, std::span<const double> expected) {
  if (actual.size() != expected.size()) {
    throw std::invalid_argument("maxAbsError: sizes differ");
  }
  double worst = 0;
  for (std::size_t i = 0; i < actual.size(); ++i) {
    worst = std::max(worst, std::abs(static_cast<double>(actual[i]) - expected[i]));
  }
  return worst;
}

}  // namespace cineflow::test
