// Log compression: the CPU stage against 20 log10 in double, known values, in-place use and
// boundary checks.

#include <QtTest>

#include <cmath>
#include <stdexcept>

#include "compute/backend.hpp"
#include "compute/buffer.hpp"
#include "process/log_compress.hpp"
#include "support/reference_stages.hpp"
#include "support/test_random.hpp"

using namespace cineflow;

namespace {

std::vector<float> compress(const std::vector<float>& values, int nz, int nx, bool inPlace) {
  auto backend = compute::createBackend(compute::BackendRequest::Cpu);
  auto stream = backend->createStream("test");
  process::LogCompressor log;
  log.configure(*backend, test::makeImageGeometry(nz, nx));
  compute::DeviceBuffer<float> input(*backend, values.size());
  std::copy(values.begin(), values.end(), input.data());  // CPU backend: device = host memory
  compute::DeviceBuffer<float> output(*backend, values.size());
  const auto& target = inPlace ? input : output;
  log.enqueue(*stream, input.view(), target.view());
  stream->synchronize();
  return std::vector<float>(target.data(), target.data() + target.size());
}

}  // namespace

class TestLogCompress : public QObject {
  Q_OBJECT

 private slots:
  void matchesDoubleLog10_data() {
    QTest::addColumn<bool>("inPlace");
    QTest::newRow("out of place") << false;
    QTest::newRow("in place") << true;
  }
  void matchesDoubleLog10() {
    QFETCH(bool, inPlace);
    const int nz = 300, nx = 211;  // several parallel chunks and a ragged last one
    // Amplitudes spread over 10^-13 .. 10^4, so the 1e-10 floor is hit too, plus exact zeros.
    test::SeededRandom random(41);
    std::vector<float> values(std::size_t(nz * nx));
    for (float& v : values) {
      v = static_cast<float>(std::pow(10.0, random.uniform(-13, 4)));
    }
    values[0] = 0.0f;
    values[17] = 0.0f;
    const auto db = compress(values, nz, nx, inPlace);
    const auto expected =
        test::referenceLogCompress(test::toDoubles(std::span<const float>(values)));
    // Tolerance: float log10 of float inputs against double: max abs error < 1e-3 dB.
    const double error = test::maxAbsError(db, expected);
    QVERIFY2(error < 1e-3, qPrintable(QString("max abs error %1 dB >= 1e-3").arg(error)));
  }

  void knownValues() {
    const std::vector<float> values = {1.0f, 10.0f, 0.1f, 1000.0f, 0.0f, -5.0f, 1e-12f, 1e-10f};
    const auto db = compress(values, 2, 4, false);
    const std::vector<double> expected = {0, 20, -20, 60, -200, -200, -200, -200};
    QVERIFY2(test::maxAbsError(db, expected) < 1e-4, "exact decades within 1e-4 dB");
  }

  void rejectsWrongBuffers() {
    auto backend = compute::createBackend(compute::BackendRequest::Cpu);
    auto stream = backend->createStream("test");
    process::LogCompressor log;
    compute::DeviceBuffer<float> in(*backend, 6);
    compute::DeviceBuffer<float> out(*backend, 6);
    QVERIFY_THROWS_EXCEPTION(std::logic_error, log.enqueue(*stream, in.view(), out.view()));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             log.configure(*backend, test::makeImageGeometry(3, 0)));
    log.configure(*backend, test::makeImageGeometry(3, 2));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             log.enqueue(*stream, in.view().subspan(0, 5), out.view()));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             log.enqueue(*stream, in.view(), out.view().subspan(1, 5)));
  }
};

QTEST_APPLESS_MAIN(TestLogCompress)
#include "test_log_compress.moc"
