// BmodeProcessor: the whole RF chain on seeded random int16 and float32 frames against the
// chained double-precision references, the stage marks, and boundary checks.

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "compute/backend.hpp"
#include "compute/buffer.hpp"
#include "support/reference_stages.hpp"
#include "support/test_random.hpp"
#include "ultrasound/bmode_processor.hpp"

using namespace cineflow;

namespace {

// 24 elements, 3 transmits, 360 samples; a 41 x 64 grid down to 13 mm.
struct SmallProblem {
  acquire::AcquisitionParams acq = test::makePlaneWaveAcquisition(24, 3, 360, 0.3e-3, 0.12);
  ultrasound::ImagingParams imaging = [] {
    ultrasound::ImagingParams params;
    params.grid = ultrasound::ImagingGrid::parseMillimetres("-3:3:0.15,5:12.56:0.12");
    params.firTaps = 31;
    return params;
  }();
};

struct Marks {
  explicit Marks(compute::Backend& backend, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
      events.push_back(backend.createEvent());
    }
  }
  std::vector<std::unique_ptr<compute::Event>> events;
};

}  // namespace

class TestBmodeProcessor : public QObject {
  Q_OBJECT

 private slots:
  void matchesChainedReferences_data() {
    QTest::addColumn<bool>("int16");
    QTest::newRow("int16") << true;
    QTest::newRow("float32") << false;
  }
  void matchesChainedReferences() {
    QFETCH(bool, int16);
    const SmallProblem problem;
    const auto& acq = problem.acq;
    auto backend = compute::createBackend(compute::BackendRequest::Cpu);
    auto stream = backend->createStream("test");
    ultrasound::BmodeProcessor processor;
    const auto type = int16 ? acquire::SampleType::Int16 : acquire::SampleType::Float32;
    processor.configure(*backend, acq, type, problem.imaging);
    const auto geometry = processor.geometry();
    QCOMPARE(geometry, problem.imaging.geometry());
    QCOMPARE(geometry.nz, 64);

    std::vector<double> rawValues;
    compute::DeviceBuffer<std::byte> raw(*backend,
                                         acq.samplesPerFrame() * acquire::sampleBytes(type));
    if (int16) {
      const auto values = test::randomInt16(acq.samplesPerFrame(), 51);
      std::copy_n(reinterpret_cast<const std::byte*>(values.data()), raw.size(), raw.data());
      rawValues = test::toDoubles(std::span<const std::int16_t>(values));
    } else {
      const auto values = test::randomFloats(acq.samplesPerFrame(), 52);
      std::copy_n(reinterpret_cast<const std::byte*>(values.data()), raw.size(), raw.data());
      rawValues = test::toDoubles(std::span<const float>(values));
    }
    compute::DeviceBuffer<float> image(*backend, geometry.pixels());
    Marks marks(*backend, processor.stageNames().size() + 1);
    processor.enqueue(*stream, raw.view(), image.view(), marks.events);
    stream->synchronize();

    // The bandpass interpolates by U: the beamformer then sees an acquisition at U fs.
    const int factor = processor.bandpass().upsampling();
    QCOMPARE(factor, problem.imaging.rfUpsamplingFor(acq));
    QVERIFY(factor > 1);
    const auto filtered = test::referenceBandpass(processor.bandpass().taps(), rawValues,
                                                  std::size_t(acq.transmits() * acq.elements()),
                                                  std::size_t(acq.samples), factor);
    acquire::AcquisitionParams interpolated = acq;
    interpolated.samplingFrequencyHz *= factor;
    interpolated.samples *= factor;
    const auto beamformed = test::referenceDelayAndSum(interpolated, problem.imaging, filtered);
    const auto envelope = test::referenceEnvelope(beamformed, geometry.nz, geometry.nx);
    const auto expectedDb = test::referenceLogCompress(envelope);

    // Tolerances: the envelope domain (10^(dB/20)) within rel L2 1e-3 of the chained references,
    // and dB within 0.05 wherever the reference envelope exceeds 1 % of its maximum.
    std::vector<float> amplitude(image.size());
    std::transform(image.data(), image.data() + image.size(), amplitude.begin(),
                   [](float db) { return static_cast<float>(std::pow(10.0, db / 20.0)); });
    const double envelopeError = test::relativeL2Error(amplitude, envelope);
    QVERIFY2(envelopeError < 1e-3,
             qPrintable(QString("envelope rel L2 error %1 >= 1e-3").arg(envelopeError)));
    const double peak = *std::max_element(envelope.begin(), envelope.end());
    double worstDb = 0;
    for (std::size_t i = 0; i < envelope.size(); ++i) {
      if (envelope[i] > 0.01 * peak) {
        worstDb = std::max(worstDb, std::abs(double(image.data()[i]) - expectedDb[i]));
      }
    }
    QVERIFY2(worstDb < 0.05, qPrintable(QString("max dB error %1 >= 0.05").arg(worstDb)));

    for (std::size_t i = 0; i < marks.events.size(); ++i) {
      QVERIFY2(marks.events[i]->query(), qPrintable(QString("mark %1 not complete").arg(i)));
      if (i > 0) {
        QVERIFY(marks.events[i]->elapsedMsSince(*marks.events[i - 1]) >= 0.0);
      }
    }
  }

  void namesItsStages() {
    ultrasound::BmodeProcessor processor;
    const auto names = processor.stageNames();
    QCOMPARE(names.size(), std::size_t{4});
    QCOMPARE(QString(names[0]), QString("bandpass"));
    QCOMPARE(QString(names[1]), QString("beamform"));
    QCOMPARE(QString(names[2]), QString("envelope"));
    QCOMPARE(QString(names[3]), QString("log"));
  }

  void rejectsBadParametersAndBuffers() {
    const SmallProblem problem;
    auto backend = compute::createBackend(compute::BackendRequest::Cpu);
    auto stream = backend->createStream("test");
    ultrasound::BmodeProcessor processor;
    const auto& acq = problem.acq;
    compute::DeviceBuffer<std::byte> raw(*backend, acq.samplesPerFrame() * 2);
    compute::DeviceBuffer<float> image(*backend, problem.imaging.geometry().pixels());
    Marks marks(*backend, 5);
    QVERIFY_THROWS_EXCEPTION(std::logic_error,
                             processor.enqueue(*stream, raw.view(), image.view(), marks.events));
    auto bad = problem.imaging;
    bad.firTaps = 30;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             processor.configure(*backend, acq, acquire::SampleType::Int16, bad));
    auto badAcq = acq;
    badAcq.samplingFrequencyHz = 0;
    QVERIFY_THROWS_EXCEPTION(
        std::invalid_argument,
        processor.configure(*backend, badAcq, acquire::SampleType::Int16, problem.imaging));
    processor.configure(*backend, acq, acquire::SampleType::Int16, problem.imaging);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             processor.enqueue(*stream, raw.view().subspan(0, raw.size() - 2),
                                               image.view(), marks.events));
    QVERIFY_THROWS_EXCEPTION(
        std::invalid_argument,
        processor.enqueue(*stream, raw.view(), image.view().subspan(0, image.size() - 1),
                          marks.events));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             processor.enqueue(*stream, raw.view(), image.view(),
                                               process::StageMarks(marks.events).subspan(0, 4)));
    // Nothing was enqueued by the failed calls; no marks is allowed (no timing).
    test::fillUniform(
        std::span<std::int16_t>(reinterpret_cast<std::int16_t*>(raw.data()), acq.samplesPerFrame()),
        53);
    processor.enqueue(*stream, raw.view(), image.view(), {});
    stream->synchronize();
    QVERIFY(std::all_of(image.data(), image.data() + image.size(),
                        [](float db) { return std::isfinite(db); }));
  }
};

QTEST_APPLESS_MAIN(TestBmodeProcessor)
#include "test_bmode_processor.moc"
