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
                                      std::size_t rows, std::size_t samples, int factor) {
  const auto length = static_cast<std::ptrdiff_t>(taps.size());
  const std::ptrdiff_t half = (length - 1) / 2;
  const auto count = static_cast<std::ptrdiff_t>(samples) * factor;  // the upsampled row
  std::vector<double> output(rows * static_cast<std::size_t>(count), 0.0);
  for (std::size_t row = 0; row < rows; ++row) {
    const double* x = input.data() + row * samples;
    double* y = output.data() + row * static_cast<std::size_t>(count);
    for (std::ptrdiff_t n = 0; n < count; ++n) {
      double sum = 0;
      for (std::ptrdiff_t k = 0; k < length; ++k) {
        const std::ptrdiff_t m = n + k - half;  // an index of the upsampled row: x[m / U] or 0
        if (m >= 0 && m < count && m % factor == 0) {
          sum += static_cast<double>(taps[static_cast<std::size_t>(k)]) * x[m / factor];
        }
      }
      y[n] = sum;
    }
  }
  return output;
}

std::vector<std::complex<double>> referenceDemodulate(const acquire::AcquisitionParams& acq,
                                                      std::span<const float> taps,
                                                      std::span<const double> raw, int decimation) {
  const auto samples = static_cast<std::ptrdiff_t>(acq.samples);
  const auto rows = raw.size() / static_cast<std::size_t>(samples);
  const std::ptrdiff_t iqSamples = (samples + decimation - 1) / decimation;
  const auto length = static_cast<std::ptrdiff_t>(taps.size());
  const std::ptrdiff_t half = (length - 1) / 2;
  std::vector<std::complex<double>> iq(rows * static_cast<std::size_t>(iqSamples));
  for (std::size_t row = 0; row < rows; ++row) {
    const double* x = raw.data() + row * static_cast<std::size_t>(samples);
    for (std::ptrdiff_t k = 0; k < iqSamples; ++k) {
      std::complex<double> sum;
      for (std::ptrdiff_t j = 0; j < length; ++j) {
        const std::ptrdiff_t m = k * decimation + j - half;
        if (m < 0 || m >= samples) {
          continue;
        }
        const double t = acq.t0S + static_cast<double>(m) / acq.samplingFrequencyHz;
        sum += static_cast<double>(taps[static_cast<std::size_t>(j)]) * x[m] *
               std::polar(1.0, -2 * std::numbers::pi * acq.centerFrequencyHz * t);
      }
      iq[row * static_cast<std::size_t>(iqSamples) + static_cast<std::size_t>(k)] = 2.0 * sum;
    }
  }
  return iq;
}

namespace {

// Delay-and-sum's terms as process/beamform.hpp states them: for every pixel, transmit and element
// in the receive aperture, calls term(pixel, trace, weight, tau, s) with the trace index t * E + e,
// the receive weight, the delay tau and the sample position s = (tau - t0) * rate, when s lies in
// [0, samples - 1].
template <class Term>
void forEachDelayTerm(const acquire::AcquisitionParams& acq,
                      const ultrasound::ImagingParams& imaging, double rate, int samples,
                      Term term) {
  const process::ImageGeometry g = imaging.geometry();
  const int elements = acq.elements();
  for (int iz = 0; iz < g.nz; ++iz) {
    const double z = g.z0 + iz * g.dz;
    const double halfAperture = z / (2 * imaging.fNumber);
    for (int ix = 0; ix < g.nx; ++ix) {
      const double x = g.x0 + ix * g.dx;
      const std::size_t pixel = static_cast<std::size_t>(iz) * g.nx + ix;
      for (int t = 0; t < acq.transmits(); ++t) {
        const double angle = acq.anglesRad[static_cast<std::size_t>(t)];
        for (int e = 0; e < elements; ++e) {
          const double xe = acq.elementXM[static_cast<std::size_t>(e)];
          if (!(std::abs(x - xe) < halfAperture)) {
            continue;
          }
          const double weight =
              imaging.apodisation == ultrasound::Apodisation::Rectangular
                  ? 1.0
                  : 0.5 * (1 + std::cos(std::numbers::pi * (x - xe) / halfAperture));
          const double tau = (z * std::cos(angle) + x * std::sin(angle) + std::hypot(x - xe, z)) /
                             acq.soundSpeedMPerS;
          const double s = (tau - acq.t0S) * rate;
          if (s < 0 || s > samples - 1) {
            continue;
          }
          term(pixel, static_cast<std::size_t>(t) * elements + e, weight, tau, s);
        }
      }
    }
  }
}

// Linear interpolation of `trace` at s in [0, samples - 1].
template <class T>
T interpolate(const T* trace, double s, int samples) {
  const int i = std::min(static_cast<int>(std::floor(s)), samples - 2);
  return trace[i] + (s - i) * (trace[i + 1] - trace[i]);
}

}  // namespace

std::vector<double> referenceIqDelayAndSum(const acquire::AcquisitionParams& acq,
                                           const ultrasound::ImagingParams& imaging,
                                           std::span<const std::complex<double>> iq) {
  const auto traces = static_cast<std::size_t>(acq.transmits() * acq.elements());
  const auto samples = static_cast<int>(iq.size() / traces);
  std::vector<std::complex<double>> sums(imaging.geometry().pixels());
  forEachDelayTerm(acq, imaging, acq.samplingFrequencyHz / imaging.iqDecimation, samples,
                   [&](std::size_t pixel, std::size_t trace, double weight, double tau, double s) {
                     sums[pixel] +=
                         weight * interpolate(iq.data() + trace * samples, s, samples) *
                         std::polar(1.0, 2 * std::numbers::pi * acq.centerFrequencyHz * tau);
                   });
  std::vector<double> image(sums.size());
  for (std::size_t i = 0; i < sums.size(); ++i) {
    image[i] = std::abs(sums[i]) / acq.transmits();
  }
  return image;
}

std::vector<double> referenceDelayAndSum(const acquire::AcquisitionParams& acq,
                                         const ultrasound::ImagingParams& imaging,
                                         std::span<const double> rf) {
  std::vector<double> image(imaging.geometry().pixels(), 0.0);
  forEachDelayTerm(acq, imaging, acq.samplingFrequencyHz, acq.samples,
                   [&](std::size_t pixel, std::size_t trace, double weight, double, double s) {
                     image[pixel] +=
                         weight * interpolate(rf.data() + trace * acq.samples, s, acq.samples);
                   });
  for (double& value : image) {
    value /= acq.transmits();
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
