// Envelope detector: the FFTW-based CPU stage against a direct O(N^2) DFT analytic signal, a pure
// cosine, in-place use, boundary checks and the time per frame on the default grid.

#include <QtTest>

#include <cmath>
#include <numbers>
#include <stdexcept>

#include "compute/backend.hpp"
#include "compute/buffer.hpp"
#include "support/reference_stages.hpp"
#include "support/test_random.hpp"
#include "ultrasound/envelope.hpp"

using namespace cineflow;

namespace {

std::vector<float> detect(const process::ImageGeometry& geometry, const std::vector<float>& rf,
                          bool inPlace = false) {
  auto backend = compute::createBackend(compute::BackendRequest::Cpu);
  auto stream = backend->createStream("test");
  process::EnvelopeDetector detector;
  detector.configure(*backend, geometry);
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
    const auto envelope = detect(geometry, rf);
    const auto expected =
        test::referenceEnvelope(test::toDoubles(std::span<const float>(rf)), nz, nx);
    // Tolerance: float32 FFTs of length <= 128 against a double DFT: rel L2 < 1e-4.
    const double error = test::relativeL2Error(envelope, expected);
    QVERIFY2(error < 1e-4, qPrintable(QString("relative L2 error %1 >= 1e-4").arg(error)));
  }

  void inPlaceGivesTheSameResult() {
    const auto geometry = test::makeImageGeometry(90, 20);
    const auto rf = test::randomFloats(geometry.pixels(), 32);
    QCOMPARE(detect(geometry, rf, true), detect(geometry, rf, false));
  }

  void cosineHasAFlatEnvelope() {
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
    const auto flat = detect(geometry, periodic);
    const auto away = detect(geometry, truncated);
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

  void rejectsWrongBuffers() {
    auto backend = compute::createBackend(compute::BackendRequest::Cpu);
    auto stream = backend->createStream("test");
    process::EnvelopeDetector detector;
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
};

QTEST_APPLESS_MAIN(TestEnvelope)
#include "test_envelope.moc"
