// Envelope detector, every CPU variant (FFTW, and the direct convolution with the Hilbert
// kernel's taps): against a direct O(N^2) DFT analytic signal, a pure cosine, in-place use;
// the taps against their defining sum; boundary checks.

#include <QtTest>

#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

#include "compute/backend.hpp"
#include "compute/buffer.hpp"
#include "support/reference_stages.hpp"
#include "support/test_random.hpp"
#include "ultrasound/envelope.hpp"
#include "ultrasound/hilbert_taps.hpp"

using namespace cineflow;

namespace {

// The CPU variants' names, in index order.
std::vector<std::string> variants() {
  auto backend = compute::createBackend(compute::BackendRequest::Cpu);
  ultrasound::EnvelopeDetector detector;
  detector.configure(*backend, test::makeImageGeometry(8, 1));
  return detector.variants();
}

std::vector<float> detect(const process::ImageGeometry& geometry, const std::vector<float>& rf,
                          std::size_t variant, bool inPlace = false) {
  auto backend = compute::createBackend(compute::BackendRequest::Cpu);
  auto stream = backend->createStream("test");
  ultrasound::EnvelopeDetector detector;
  detector.configure(*backend, geometry);
  detector.selectVariant(variant);
  compute::DeviceBuffer<float> input(*backend, rf.size());
  std::copy(rf.begin(), rf.end(), input.data());  // CPU backend: device memory is host memory
  compute::DeviceBuffer<float> output(*backend, rf.size());
  std::fill(output.data(), output.data() + output.size(), std::nanf(""));
  const auto& target = inPlace ? input : output;
  detector.enqueue(*stream, input.view(), target.view());
  stream->synchronize();
  return std::vector<float>(target.data(), target.data() + target.size());
}

}  // namespace

class TestEnvelope : public QObject {
  Q_OBJECT

 private slots:
  void matchesDirectAnalyticSignal_data() {
    QTest::addColumn<int>("nz");
    QTest::addColumn<int>("nx");
    QTest::newRow("even length") << 128 << 17;
    QTest::newRow("odd length") << 101 << 9;
    QTest::newRow("one column") << 64 << 1;
    QTest::newRow("more columns than threads, prime length") << 97 << 33;
  }
  void matchesDirectAnalyticSignal() {
    QFETCH(int, nz);
    QFETCH(int, nx);
    const auto geometry = test::makeImageGeometry(nz, nx);
    const auto rf = test::randomFloats(geometry.pixels(), 31 + std::uint64_t(nz));
    const auto expected =
        test::referenceEnvelope(test::toDoubles(std::span<const float>(rf)), nz, nx);
    const auto names = variants();
    QCOMPARE(names, (std::vector<std::string>{"fft", "direct"}));
    for (std::size_t v = 0; v < names.size(); ++v) {
      const auto envelope = detect(geometry, rf, v);
      // Tolerance: float32 FFTs of length <= 128, or float sums of <= 128 taps, against a double
      // DFT: rel L2 < 1e-4.
      const double error = test::relativeL2Error(envelope, expected);
      qInfo("%s: relative L2 error %.3g", names[v].c_str(), error);
      QVERIFY2(error < 1e-4, qPrintable(QString("%1: relative L2 error %2 >= 1e-4")
                                            .arg(QString::fromStdString(names[v]))
                                            .arg(error)));
    }
  }

  void inPlaceGivesTheSameResult() {
    const auto geometry = test::makeImageGeometry(90, 20);
    const auto rf = test::randomFloats(geometry.pixels(), 32);
    for (std::size_t v = 0; v < variants().size(); ++v) {
      QCOMPARE(detect(geometry, rf, v, true), detect(geometry, rf, v, false));
    }
  }

  // The direct variant's taps against h[m] = (2/N) sum_{k=1}^{M} sin(2 pi k m / N) summed term
  // by term in double, for an even and an odd length: the closed form and the dropped taps.
  void hilbertTapsMatchTheirSum() {
    for (const std::size_t n : {std::size_t(64), std::size_t(101)}) {
      const auto taps = ultrasound::hilbertTaps(n);
      std::vector<double> dense(n, 0.0);
      for (std::size_t t = 0; t < taps.offsets.size(); ++t) {
        dense[std::size_t(taps.offsets[t])] = taps.weights[t];
      }
      const std::size_t half = (n - 1) / 2;
      for (std::size_t m = 0; m < n; ++m) {
        double h = 0;
        for (std::size_t k = 1; k <= half; ++k) {
          h += std::sin(2 * std::numbers::pi * double(k * m) / double(n));
        }
        h *= 2.0 / double(n);
        // Tolerance: float weights, 1e-7 relative, of taps at most 2/pi.
        QVERIFY2(
            std::abs(dense[m] - h) < 1e-7,
            qPrintable(QString("n %1, m %2: %3 against %4").arg(n).arg(m).arg(dense[m]).arg(h)));
      }
      QCOMPARE(taps.offsets.size(), n % 2 == 0 ? n / 2 : n - 1);
    }
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ultrasound::hilbertTaps(0));
  }

  void cosineHasAFlatEnvelope() {
    for (std::size_t v = 0; v < variants().size(); ++v) {
      cosineIsFlatWith(v);
    }
  }

  void rejectsWrongBuffers() {
    auto backend = compute::createBackend(compute::BackendRequest::Cpu);
    auto stream = backend->createStream("test");
    ultrasound::EnvelopeDetector detector;
    compute::DeviceBuffer<float> rf(*backend, 64 * 8);
    compute::DeviceBuffer<float> out(*backend, 64 * 8);
    QVERIFY_THROWS_EXCEPTION(std::logic_error, detector.enqueue(*stream, rf.view(), out.view()));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             detector.configure(*backend, test::makeImageGeometry(0, 8)));
    detector.configure(*backend, test::makeImageGeometry(64, 8));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             detector.enqueue(*stream, rf.view().subspan(0, 63 * 8), out.view()));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             detector.enqueue(*stream, rf.view(), out.view().subspan(8, 63 * 8)));
    QVERIFY_THROWS_EXCEPTION(
        std::invalid_argument,
        detector.enqueue(*stream, rf.view(), compute::DeviceSpan<float>(nullptr, 64 * 8)));
  }

 private:
  void cosineIsFlatWith(std::size_t variant) {
    const int nz = 512, nx = 4;
    const auto geometry = test::makeImageGeometry(nz, nx);
    const double amplitude = 3.0;
    std::vector<float> periodic(geometry.pixels()), truncated(geometry.pixels());
    for (int z = 0; z < nz; ++z) {
      for (int x = 0; x < nx; ++x) {
        // 40 whole periods: the circular DFT sees a pure tone; 40.37 periods: it sees a jump.
        const double phase = 0.3 * x;
        periodic[std::size_t(z * nx + x)] =
            float(amplitude * std::cos(2 * std::numbers::pi * 40.0 * z / nz + phase));
        truncated[std::size_t(z * nx + x)] =
            float(amplitude * std::cos(2 * std::numbers::pi * 40.37 * z / nz + phase));
      }
    }
    const auto flat = detect(geometry, periodic, variant);
    const auto away = detect(geometry, truncated, variant);
    double worstPeriodic = 0, worstTruncated = 0;
    for (int z = 0; z < nz; ++z) {
      for (int x = 0; x < nx; ++x) {
        const double v = flat[std::size_t(z * nx + x)];
        worstPeriodic = std::max(worstPeriodic, std::abs(v - amplitude) / amplitude);
        if (z >= nz / 4 && z < 3 * nz / 4) {  // away from the edges the jump wraps around to
          const double w = away[std::size_t(z * nx + x)];
          worstTruncated = std::max(worstTruncated, std::abs(w - amplitude) / amplitude);
        }
      }
    }
    // Tolerances: whole periods are flat to float rounding (1e-4 relative); a truncated tone
    // ripples from its edges, by under 2 % in the middle half.
    QVERIFY2(worstPeriodic < 1e-4, qPrintable(QString::number(worstPeriodic)));
    QVERIFY2(worstTruncated < 0.02, qPrintable(QString::number(worstTruncated)));
  }
};

QTEST_APPLESS_MAIN(TestEnvelope)
#include "test_envelope.moc"
