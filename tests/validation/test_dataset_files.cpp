// The real recordings in data/ (see its README) open through RfFileSource with the
// shapes and parameters the README states.
#include <QtTest>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <numbers>
#include <vector>

#include "support/test_paths.hpp"
#include "ultrasound/rf_file_source.hpp"

using namespace cineflow::acquire;
using namespace cineflow::ultrasound;

namespace {

std::string requireFile(const char* name) {
  return cineflow::test::datasetFile(name);
}

// Largest |sample| of a frame: real RF is never all zeros.
int peakOf(const std::vector<std::int16_t>& frame) {
  int peak = 0;
  for (std::int16_t s : frame) {
    peak = std::max(peak, std::abs(static_cast<int>(s)));
  }
  return peak;
}

}  // namespace

class TestDatasetFiles : public QObject {
  Q_OBJECT

 private slots:
  void field2PointPhantom() {
    const std::string path = requireFile("field2_pw3_points.h5");
    if (path.empty()) {
      QFAIL("data/field2_pw3_points.h5 is missing from this clone (data/README.md)");
    }
    RfFileSource source(path);
    const AcquisitionParams& p = source.params();
    QCOMPARE(source.frameCount(), std::uint64_t(1));
    QCOMPARE(p.transmits(), 3);
    QCOMPARE(p.elements(), 192);
    QCOMPARE(p.samples, 2313);
    QCOMPARE(source.sampleType(), SampleType::Int16);
    QCOMPARE(p.samplingFrequencyHz, 20e6);
    QVERIFY(std::abs(p.centerFrequencyHz - 5.2083e6) < 1);
    QCOMPARE(p.soundSpeedMPerS, 1540.0);
    // -12, 0, +12 degrees (tolerance 1e-4 rad: the file stores 5 significant digits' worth).
    const double twelve = 12 * std::numbers::pi / 180;
    QVERIFY(std::abs(p.anglesRad[0] + twelve) < 1e-4);
    QVERIFY(std::abs(p.anglesRad[1]) < 1e-12);
    QVERIFY(std::abs(p.anglesRad[2] - twelve) < 1e-4);
    // Pitch 0.23 mm (tolerance 1 um), array centred on x = 0 (tolerance 1 um).
    QVERIFY(std::abs((p.elementXM.back() - p.elementXM.front()) / 191 - 0.23e-3) < 1e-6);
    QVERIFY(std::abs(p.elementXM.front() + p.elementXM.back()) < 1e-6);
    QVERIFY(p.t0S < 0);  // the README: Field II start time minus the pulse centre

    std::vector<std::int16_t> frame(p.samplesPerFrame());
    SliceInfo slice;
    source.readFrame(0, std::as_writable_bytes(std::span(frame)), slice);
    QVERIFY(peakOf(frame) > 100);
  }

  void verasonicsRotatingDisk() {
    const std::string path = requireFile("verasonics_rotating_disk.h5");
    if (path.empty()) {
      QFAIL("data/verasonics_rotating_disk.h5 is missing from this clone (data/README.md)");
    }
    RfFileSource source(path);
    const AcquisitionParams& p = source.params();
    QCOMPARE(source.frameCount(), std::uint64_t(32));
    QCOMPARE(p.transmits(), 1);
    QCOMPARE(p.elements(), 128);
    QCOMPARE(p.samples, 334);
    QCOMPARE(source.sampleType(), SampleType::Int16);
    QVERIFY(std::abs(p.samplingFrequencyHz - 20e6 / 3) < 10);  // "6.67 MHz"
    QCOMPARE(p.centerFrequencyHz, 5e6);
    QCOMPARE(p.soundSpeedMPerS, 1480.0);
    QVERIFY(std::abs(p.t0S - 9.95e-6) < 1e-12);
    QCOMPARE(p.fractionalBandwidth, 0.15);
    QCOMPARE(p.anglesRad[0], 0.0);
    QVERIFY(std::abs((p.elementXM.back() - p.elementXM.front()) / 127 - 0.298e-3) < 1e-6);

    // Every frame reads (the file is chunked and deflated, one frame per chunk), and frames
    // differ: the disk rotates.
    std::vector<std::int16_t> first(p.samplesPerFrame()), frame(p.samplesPerFrame());
    SliceInfo slice;
    source.readFrame(0, std::as_writable_bytes(std::span(first)), slice);
    QVERIFY(peakOf(first) > 100);
    for (std::uint64_t k = 1; k < source.frameCount(); ++k) {
      source.readFrame(k, std::as_writable_bytes(std::span(frame)), slice);
      QVERIFY(peakOf(frame) > 100);
    }
    QVERIFY(frame != first);
  }
};

QTEST_APPLESS_MAIN(TestDatasetFiles)
#include "test_dataset_files.moc"
