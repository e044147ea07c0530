// Real scanner data (data/verasonics_rotating_disk.h5, a Verasonics Vantage with an
// L7-4 probe, RF sampled at 6.67 MHz for a 5 MHz carrier): Cineflow picks I/Q mode by itself, and
// with f-number 1 on the reference's grid the 30 dB uint8 B-mode of every frame correlates with
// PyMUST's (/reference/bmode_u8) at 0.95 or better (Pearson). As PyMUST's dasmtx does, the
// receive aperture is rectangular (no apodisation window); with the default Hann window the
// correlation is lower (0.925 measured), the images differing in their side lobes.
#include <QImage>
#include <QPainter>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <vector>

#include "pipeline/engine.hpp"
#include "registry/source_factory.hpp"
#include "support/real_datasets.hpp"
#include "support/test_paths.hpp"
#include "ultrasound/ultrasound_modality.hpp"

using namespace cineflow;

namespace {

constexpr double kRequiredCorrelation = 0.95;

}  // namespace

class TestVerasonicsDisk : public QObject {
  Q_OBJECT

 private slots:
  void everyFrameCorrelatesWithPyMust() {
    const std::string path = test::datasetFile("verasonics_rotating_disk.h5");
    if (path.empty()) {
      QFAIL("data/verasonics_rotating_disk.h5 is missing from this clone (data/README.md)");
    }
    const test::DiskReference ref = test::readDiskReference(path);
    QCOMPARE(ref.xM.size(), std::size_t{251});
    QCOMPARE(ref.zM.size(), std::size_t{251});
    QCOMPARE(ref.frames(), std::size_t{32});
    const std::vector<std::uint8_t>& reference = ref.bmode;

    const acquire::AcquisitionParams acq =
        ultrasound::requireUltrasound(*acquire::openSource(path)).params();
    ultrasound::ImagingParams imaging = ultrasound::ImagingParams::defaultsFor(acq);
    QCOMPARE(imaging.mode, ultrasound::ImagingMode::Iq);  // sampled below 2 f0
    qInfo("%s; I/Q bandwidth %.0f %% of f0", ultrasound::bandpassSamplingNotice(acq).c_str(),
          imaging.iqBandwidthFor(acq) * 100);
    imaging.fNumber = 1.0;
    imaging.apodisation = ultrasound::Apodisation::Rectangular;
    imaging.grid = ref.grid();
    QCOMPARE(imaging.geometry().nx, 251);
    QCOMPARE(imaging.geometry().nz, 251);

    const std::vector<std::vector<float>> frames = test::imageRecording(path, imaging, 32);

    const std::size_t pixels = 251 * 251;
    double worst = 1, sum = 0;
    for (std::size_t f = 0; f < frames.size(); ++f) {
      QCOMPARE(frames[f].size(), pixels);
      const double r = test::pearson(test::bmodeUint8(frames[f], test::kDiskDynamicRangeDb),
                                     reference.data() + f * pixels, pixels);
      worst = std::min(worst, r);
      sum += r;
    }
    qInfo("Pearson correlation with PyMUST's B-mode over 32 frames: worst %.4f, mean %.4f", worst,
          sum / 32);

    // Frame 0 beside the reference, 2 pixels per 0.1 mm, for the manual.
    QImage figure(2 * 251 * 2 + 8, 251 * 2, QImage::Format_Grayscale8);
    figure.fill(0);
    const std::vector<double> ours = test::bmodeUint8(frames[0], test::kDiskDynamicRangeDb);
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
