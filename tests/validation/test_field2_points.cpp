// Field II simulation with known scatterers (data/field2_pw3_points.h5): the engine,
// run as `cineflow --headless` runs it (f-number 1.5, the band measured from the echoes, since the
// file does not state it) on a 0.01 mm grid over the isolated points, puts every one of them
// within 0.03 mm of its true position in I/Q mode and within 0.05 mm in RF mode.
#include <QtTest>

#include <cmath>
#include <mutex>

#include "pipeline/engine.hpp"
#include "registry/source_factory.hpp"
#include "registry/ultrasound_engine.hpp"
#include "support/real_datasets.hpp"
#include "support/test_paths.hpp"
#include "ultrasound/ultrasound_modality.hpp"

using namespace cineflow;

class TestField2Points : public QObject {
  Q_OBJECT

 private slots:
  void isolatedPointsWhereTheyAre_data() {
    QTest::addColumn<QString>("mode");
    QTest::addColumn<double>("limitM");
    QTest::newRow("rf") << "rf" << 0.05e-3;
    QTest::newRow("iq") << "iq" << 0.03e-3;
  }
  void isolatedPointsWhereTheyAre() {
    QFETCH(QString, mode);
    QFETCH(double, limitM);
    const std::string path = test::datasetFile("field2_pw3_points.h5");
    if (path.empty()) {
      QFAIL("data/field2_pw3_points.h5 is missing from this clone (data/README.md)");
    }
    // Read before the engine opens the file: HDF5 refuses a second open with other file-close
    // properties in the same process.
    const auto scatterers = test::readScatterers(path);
    QCOMPARE(scatterers.size(), std::size_t(2748));
    auto backend = compute::createBackend(compute::BackendRequest::Cpu);
    pipeline::EngineConfig config;
    config.pace = false;
    config.maxFrames = 1;
    pipeline::Engine engine(*backend, config);
    auto source = acquire::openSource(path);
    ultrasound::ImagingParams imaging =
        ultrasound::ImagingParams::defaultsFor(ultrasound::requireUltrasound(*source).params());
    imaging.mode = ultrasound::parseImagingMode(mode.toStdString());
    // The isolated points lie on the axis at 10.35 to 45.83 mm: a narrow 0.01 mm grid over them.
    imaging.grid = ultrasound::ImagingGrid::parseMillimetres("-0.4:0.4:0.01,9.9:46.3:0.01");
    engine.setSource(std::move(source));
    ultrasound::setImaging(engine, imaging);
    std::vector<float> image;
    process::ImageGeometry geometry;
    std::mutex mutex;
    engine.setFrameObserver([&](const pipeline::CompletedFrame& frame) {
      std::lock_guard lock(mutex);
      image.assign(frame.image.begin(), frame.image.end());
      geometry = frame.geometry;
    });
    engine.start();
    QCOMPARE(engine.waitUntilFinished(), pipeline::EngineState::Finished);
    engine.stop();
    QVERIFY(!image.empty());

    const std::vector<double> errors = test::isolatedPointErrors(image, geometry, scatterers);
    QCOMPARE(errors.size(), std::size_t{4});
    for (const double error : errors) {
      QVERIFY2(error <= limitM,
               qPrintable(QString("error %1 mm, limit %2 mm").arg(error * 1e3).arg(limitM * 1e3)));
    }
  }
};

QTEST_GUILESS_MAIN(TestField2Points)
#include "test_field2_points.moc"
