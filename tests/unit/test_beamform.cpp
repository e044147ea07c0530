// DAS beamformer: the CPU stage (each instruction set's variant) against the direct
// double-precision formula, a point target focused on its pixel, and the boundary checks.

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

#include "compute/backend.hpp"
#include "compute/buffer.hpp"
#include "support/reference_stages.hpp"
#include "support/test_random.hpp"
#include "ultrasound/beamform.hpp"

using namespace cineflow;

namespace {

// Beamforms `rf` with variant `variant` (DasBeamformer::variants(): the CPU's instruction sets);
// `variants` gets their names.
std::vector<float> beamform(const acquire::AcquisitionParams& acq,
                            const ultrasound::ImagingParams& imaging, const std::vector<float>& rf,
                            std::size_t variant = 0, std::vector<std::string>* variants = nullptr) {
  auto backend = compute::createBackend(compute::BackendRequest::Cpu);
  auto stream = backend->createStream("test");
  ultrasound::DasBeamformer beamformer;
  beamformer.configure(*backend, acq, imaging, acq.samplingFrequencyHz,
                       static_cast<std::size_t>(acq.samples));
  beamformer.selectVariant(variant);
  if (variants != nullptr) {
    *variants = beamformer.variants();
  }
  compute::DeviceBuffer<float> input(*backend, rf.size());
  std::copy(rf.begin(), rf.end(), input.data());  // CPU backend: device memory is host memory
  compute::DeviceBuffer<float> image(*backend, beamformer.geometry().pixels());
  std::fill(image.data(), image.data() + image.size(), std::nanf(""));
  beamformer.enqueue(*stream, input.view(), image.view());
  stream->synchronize();
  return std::vector<float>(image.data(), image.data() + image.size());
}

// A small problem: 32 elements, 3 steered transmits, a 49 x 71 grid; 400 samples end before the
// deepest delays, and t0 > 0 puts the shallowest ones before the first sample, so both "outside
// [0, S-1]" cases are exercised.
struct SmallProblem {
  acquire::AcquisitionParams acq = test::makePlaneWaveAcquisition(32, 3, 400, 0.3e-3, 0.15, 1e-6);
  ultrasound::ImagingParams imaging = [] {
    ultrasound::ImagingParams params;
    params.grid = ultrasound::ImagingGrid::parseMillimetres("-4.8:4.8:0.2,4:11:0.1");
    params.fNumber = 1.2;
    return params;
  }();
};

}  // namespace

class TestBeamform : public QObject {
  Q_OBJECT

 private slots:
  void matchesDirectDelayAndSum_data() {
    QTest::addColumn<int>("transmits");
    QTest::addColumn<double>("fNumber");
    QTest::addColumn<bool>("rectangular");
    QTest::addColumn<int>("oversampling");  // times the sampling rate and the samples
    QTest::newRow("3 transmits, f/1.2") << 3 << 1.2 << false << 1;
    QTest::newRow("1 transmit, f/0.5") << 1 << 0.5 << false << 1;
    QTest::newRow("6 transmits, f/3") << 6 << 3.0 << false << 1;  // more than one group of 4
    QTest::newRow("3 transmits, f/1, rectangular apodisation") << 3 << 1.0 << true << 1;
    // Sample positions near 3000, where a float position alone would be good to only 2e-4
    // samples: the float kernels' split delays (das_geometry.hpp) must keep the same accuracy.
    QTest::newRow("3 transmits, f/1.2, 4000-sample traces") << 3 << 1.2 << false << 10;
  }
  void matchesDirectDelayAndSum() {
    QFETCH(int, transmits);
    QFETCH(double, fNumber);
    QFETCH(bool, rectangular);
    QFETCH(int, oversampling);
    SmallProblem problem;
    problem.acq =
        test::makePlaneWaveAcquisition(32, transmits, 400 * oversampling, 0.3e-3, 0.15, 1e-6);
    problem.acq.samplingFrequencyHz *= oversampling;
    problem.imaging.fNumber = fNumber;
    problem.imaging.apodisation =
        rectangular ? ultrasound::Apodisation::Rectangular : ultrasound::Apodisation::Hann;
    const auto rf = test::randomFloats(problem.acq.samplesPerFrame(), 21);
    const auto expected = test::referenceDelayAndSum(problem.acq, problem.imaging,
                                                     test::toDoubles(std::span<const float>(rf)));
    // Every variant this CPU has (instruction sets), not only the one the tuner would choose.
    std::vector<std::string> variants;
    beamform(problem.acq, problem.imaging, rf, 0, &variants);
    QVERIFY(!variants.empty() && variants.back() == "portable");
    for (std::size_t v = 0; v < variants.size(); ++v) {
      const auto image = beamform(problem.acq, problem.imaging, rf, v);
      // Tolerance: float32 samples and sums, delays good to ~1e-5 samples (double, or float
      // split into an integer base and a small remainder): rel L2 < 1e-4 against the double
      // formula. White-noise traces are the worst case: a delay error d moves a value by
      // d |rf(s + 1) - rf(s)|: whole-float positions gave 1.6e-5 at 400 samples and grow with s.
      const double error = test::relativeL2Error(image, expected);
      qInfo("%s: relative L2 error %.3g", variants[v].c_str(), error);
      QVERIFY2(error < 1e-4, qPrintable(QString("%1: relative L2 error %2 >= 1e-4")
                                            .arg(QString::fromStdString(variants[v]))
                                            .arg(error)));
    }
  }

  void pointTargetFocusesOnItsPixel() {
    SmallProblem problem;
    problem.acq.t0S = 0;
    problem.acq.samples = 512;
    problem.imaging.grid = ultrasound::ImagingGrid::parseMillimetres("-3:3:0.1,6:10:0.05");
    const double pointX = 1.0e-3, pointZ = 8.0e-3;  // on grid pixel (40, 40)
    const auto& acq = problem.acq;
    // RF of one point echo, straight from the delay formula: a Gaussian-windowed 5 MHz pulse.
    std::vector<float> rf(acq.samplesPerFrame());
    const double sigma = 1.0 / (std::numbers::pi * 0.6 * acq.centerFrequencyHz);
    for (int t = 0; t < acq.transmits(); ++t) {
      const double a = acq.anglesRad[std::size_t(t)];
      for (int e = 0; e < acq.elements(); ++e) {
        const double xe = acq.elementXM[std::size_t(e)];
        const double tau =
            (pointZ * std::cos(a) + pointX * std::sin(a) + std::hypot(pointX - xe, pointZ)) /
            acq.soundSpeedMPerS;
        for (int n = 0; n < acq.samples; ++n) {
          const double dt = acq.t0S + n / acq.samplingFrequencyHz - tau;
          rf[(std::size_t(t) * std::size_t(acq.elements()) + std::size_t(e)) *
                 std::size_t(acq.samples) +
             std::size_t(n)] =
              static_cast<float>(std::exp(-dt * dt / (2 * sigma * sigma)) *
                                 std::cos(2 * std::numbers::pi * acq.centerFrequencyHz * dt));
        }
      }
    }
    const auto image = beamform(acq, problem.imaging, rf);
    const auto geometry = problem.imaging.geometry();
    const auto peak = static_cast<int>(
        std::max_element(image.begin(), image.end(),
                         [](float a, float b) { return std::abs(a) < std::abs(b); }) -
        image.begin());
    const double peakX = geometry.x0 + (peak % geometry.nx) * geometry.dx;
    const double peakZ = geometry.z0 + (peak / geometry.nx) * geometry.dz;
    // Tolerance: within one grid step of the point in each direction.
    QVERIFY2(
        std::abs(peakX - pointX) <= geometry.dx * 1.001 &&
            std::abs(peakZ - pointZ) <= geometry.dz * 1.001,
        qPrintable(
            QString("peak at (%1, %2) mm, point at (1, 8) mm").arg(peakX * 1e3).arg(peakZ * 1e3)));
  }

  void rejectsWrongBuffersAndParameters() {
    const SmallProblem problem;
    auto backend = compute::createBackend(compute::BackendRequest::Cpu);
    auto stream = backend->createStream("test");
    ultrasound::DasBeamformer beamformer;
    compute::DeviceBuffer<float> rf(*backend, problem.acq.samplesPerFrame());
    compute::DeviceBuffer<float> image(*backend, problem.imaging.geometry().pixels());
    QVERIFY_THROWS_EXCEPTION(std::logic_error,
                             beamformer.enqueue(*stream, rf.view(), image.view()));
    auto bad = problem.imaging;
    bad.grid.dx = -0.1e-3;
    QVERIFY_THROWS_EXCEPTION(
        std::invalid_argument,
        beamformer.configure(*backend, problem.acq, bad, problem.acq.samplingFrequencyHz, 400));
    bad = problem.imaging;
    bad.fNumber = 0;
    QVERIFY_THROWS_EXCEPTION(
        std::invalid_argument,
        beamformer.configure(*backend, problem.acq, bad, problem.acq.samplingFrequencyHz, 400));
    beamformer.configure(*backend, problem.acq, problem.imaging, problem.acq.samplingFrequencyHz,
                         400);
    QVERIFY_THROWS_EXCEPTION(
        std::invalid_argument,
        beamformer.enqueue(*stream, rf.view().subspan(1, rf.size() - 1), image.view()));
    QVERIFY_THROWS_EXCEPTION(
        std::invalid_argument,
        beamformer.enqueue(*stream, rf.view(), image.view().subspan(0, image.size() - 1)));
  }
};

QTEST_APPLESS_MAIN(TestBeamform)
#include "test_beamform.moc"
