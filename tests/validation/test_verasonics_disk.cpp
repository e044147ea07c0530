// Real scanner data (../shared/data/verasonics_rotating_disk.h5, a Verasonics Vantage with an
// L7-4 probe, RF sampled at 6.67 MHz for a 5 MHz carrier): Cineflow picks I/Q mode by itself, and
// with f-number 1 on the reference's grid the 30 dB uint8 B-mode of every frame correlates with
// PyMUST's (/reference/bmode_u8) at 0.95 or better (Pearson). As PyMUST's dasmtx does, the
// receive aperture is rectangular (no apodisation window); with the default Hann window the
// correlation is lower (0.925 measured), the images differing in their side lobes.
#include <hdf5.h>

#include <QImage>
#include <QPainter>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <mutex>
#include <vector>

#include "acquire/source_factory.hpp"
#include "pipeline/engine.hpp"
#include "support/plain_hdf5.hpp"
#include "support/test_paths.hpp"

using namespace cineflow;

namespace {

constexpr double kDynamicRangeDb = 30.0;
constexpr double kRequiredCorrelation = 0.95;

std::vector<double> readDoubleArrayAttribute(hid_t object, const char* name) {
  const hid_t attribute = H5Aopen(object, name, H5P_DEFAULT);
  const hid_t space = H5Aget_space(attribute);
  std::vector<double> values(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)));
  H5Aread(attribute, H5T_NATIVE_DOUBLE, values.data());
  H5Sclose(space);
  H5Aclose(attribute);
  return values;
}

// PyMUST's bmode(): 20 log10(|IQ| / max) + DR, scaled to 255 / DR and saturated to uint8.
std::vector<double> toUint8(const std::vector<float>& db) {
  const float peak = *std::max_element(db.begin(), db.end());
  std::vector<double> out(db.size());
  for (std::size_t i = 0; i < db.size(); ++i) {
    const double scaled = 255.0 * (db[i] - peak + kDynamicRangeDb) / kDynamicRangeDb;
    out[i] = std::clamp(std::round(scaled), 0.0, 255.0);
  }
  return out;
}

double pearson(const std::vector<double>& a, const std::uint8_t* b, std::size_t n) {
  double meanA = 0, meanB = 0;
  for (std::size_t i = 0; i < n; ++i) {
    meanA += a[i];
    meanB += b[i];
  }
  meanA /= static_cast<double>(n);
  meanB /= static_cast<double>(n);
  double ab = 0, aa = 0, bb = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double da = a[i] - meanA, db = b[i] - meanB;
    ab += da * db;
    aa += da * da;
    bb += db * db;
  }
  return ab / std::sqrt(aa * bb);
}

}  // namespace

class TestVerasonicsDisk : public QObject {
  Q_OBJECT

 private slots:
  void everyFrameCorrelatesWithPyMust() {
    const std::string path = test::sharedDataFile("verasonics_rotating_disk.h5");
    if (path.empty()) {
      QSKIP("../shared/data/verasonics_rotating_disk.h5 is absent: Verasonics validation skipped");
    }
    // Read before the engine opens the file (HDF5 refuses a second open with other properties).
    std::vector<std::uint8_t> reference;
    std::vector<double> xs, zs;
    {
      const test::PlainFile file(path);
      QVERIFY(file.id >= 0);
      reference = test::readAll<std::uint8_t>(file.id, "/reference/bmode_u8", H5T_NATIVE_UINT8);
      const hid_t dataset = H5Dopen2(file.id, "/reference/bmode_u8", H5P_DEFAULT);
      xs = readDoubleArrayAttribute(dataset, "x_m");
      zs = readDoubleArrayAttribute(dataset, "z_m");
      H5Dclose(dataset);
    }
    QCOMPARE(xs.size(), std::size_t{251});
    QCOMPARE(zs.size(), std::size_t{251});
    QCOMPARE(reference.size(), std::size_t{32 * 251 * 251});

    auto source = acquire::openSource(path);
    const acquire::AcquisitionParams acq = source->params();
    process::ImagingParams imaging = process::ImagingParams::defaultsFor(acq);
    QCOMPARE(imaging.mode, process::ImagingMode::Iq);  // sampled below 2 f0
    qInfo("%s; I/Q bandwidth %.0f %% of f0", process::bandpassSamplingNotice(acq).c_str(),
          imaging.iqBandwidthFor(acq) * 100);
    imaging.fNumber = 1.0;
    imaging.apodisation = process::Apodisation::Rectangular;
    imaging.grid.x0 = xs.front();
    imaging.grid.x1 = xs.back();
    imaging.grid.dx = (xs.back() - xs.front()) / 250;
    imaging.grid.z0 = zs.front();
    imaging.grid.z1 = zs.back();
    imaging.grid.dz = (zs.back() - zs.front()) / 250;
    QCOMPARE(imaging.geometry().nx, 251);
    QCOMPARE(imaging.geometry().nz, 251);

    auto backend = compute::createBackend(compute::BackendRequest::Cpu);
    pipeline::EngineConfig config;
    config.pace = false;
    config.maxFrames = 32;
    pipeline::Engine engine(*backend, config);
    engine.setSource(std::move(source));
    engine.setImagingParams(imaging);
    std::vector<std::vector<float>> frames(32);
    std::mutex mutex;
    engine.setFrameObserver([&](const pipeline::CompletedFrame& frame) {
      std::lock_guard lock(mutex);
      frames[frame.header.sourceIndex].assign(frame.image.begin(), frame.image.end());
    });
    engine.start();
    QCOMPARE(engine.waitUntilFinished(), pipeline::EngineState::Finished);
    engine.stop();

    const std::size_t pixels = 251 * 251;
    double worst = 1, sum = 0;
    for (std::size_t f = 0; f < frames.size(); ++f) {
      QCOMPARE(frames[f].size(), pixels);
      const double r = pearson(toUint8(frames[f]), reference.data() + f * pixels, pixels);
      worst = std::min(worst, r);
      sum += r;
    }
    qInfo("Pearson correlation with PyMUST's B-mode over 32 frames: worst %.4f, mean %.4f", worst,
          sum / 32);

    // Frame 0 beside the reference, 2 pixels per 0.1 mm, for the README.
    QImage figure(2 * 251 * 2 + 8, 251 * 2, QImage::Format_Grayscale8);
    figure.fill(0);
    const std::vector<double> ours = toUint8(frames[0]);
    for (int z = 0; z < 251 * 2; ++z) {
      uchar* line = figure.scanLine(z);
      for (int x = 0; x < 251 * 2; ++x) {
        const std::size_t pixel = static_cast<std::size_t>(z / 2) * 251 + x / 2;
        line[x] = static_cast<uchar>(ours[pixel]);
        line[251 * 2 + 8 + x] = reference[pixel];
      }
    }
    const QString figurePath = QString::fromStdString(test::artefactPath("verasonics_disk.png"));
    QVERIFY2(figure.save(figurePath), qPrintable(figurePath));
    QVERIFY2(worst >= kRequiredCorrelation, qPrintable(QString("worst frame %1").arg(worst)));
  }
};

QTEST_GUILESS_MAIN(TestVerasonicsDisk)
#include "test_verasonics_disk.moc"
