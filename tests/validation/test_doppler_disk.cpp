// Colour Doppler of real scanner data (data/verasonics_rotating_disk.h5: a rotating disk
// acquired at a 10 kHz PRF) against PyMUST's (verasonics_disk_doppler_reference.h5, made by
// rf2iq with a 15 % bandwidth, dasmtx with f-number 1.125 and no apodisation window, iq2doppler
// over the 32-frame ensemble at lag 1 with no wall filter). With the same choices, Cineflow's
// velocity correlates with PyMUST's at 0.99 or better inside the disk (where PyMUST's mean 30 dB
// B-mode exceeds 64 of 255, as the data README masks it), the PRF is read from the recording, the
// aliasing velocity is c PRF / (4 f0) = 0.74 m/s, and the sign is PyMUST's (the disk's left side
// comes towards the probe). PyMUST interpolates the I/Q to the nearest sample where Cineflow
// interpolates linearly; an independent implementation with linear interpolation measured 0.9989.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <vector>

#include "pipeline/engine.hpp"
#include "registry/source_factory.hpp"
#include "support/plain_hdf5.hpp"
#include "support/real_datasets.hpp"
#include "support/test_paths.hpp"
#include "ultrasound/ultrasound_modality.hpp"

using namespace cineflow;

namespace {

constexpr double kRequiredCorrelation = 0.99;
constexpr double kMaskLevel = 64;  // of PyMUST's mean uint8 B-mode: inside the disk

double pearson(const std::vector<double>& a, const std::vector<double>& b) {
  const auto n = static_cast<double>(a.size());
  double ma = 0, mb = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    ma += a[i] / n;
    mb += b[i] / n;
  }
  double sab = 0, saa = 0, sbb = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    sab += (a[i] - ma) * (b[i] - mb);
    saa += (a[i] - ma) * (a[i] - ma);
    sbb += (b[i] - mb) * (b[i] - mb);
  }
  return sab / std::sqrt(saa * sbb);
}

}  // namespace

class TestDopplerDisk : public QObject {
  Q_OBJECT

 private slots:
  void velocityCorrelatesWithPyMust() {
    const std::string path = test::datasetFile("verasonics_rotating_disk.h5");
    const std::string referencePath = test::datasetFile("verasonics_disk_doppler_reference.h5");
    if (path.empty() || referencePath.empty()) {
      QFAIL(
          "data/verasonics_rotating_disk.h5 or its Doppler reference is missing from this clone "
          "(data/README.md)");
    }
    const test::DiskReference disk = test::readDiskReference(path);
    std::vector<float> referenceVelocity;
    double referenceNyquist = 0;
    {
      const test::PlainFile file(referencePath);
      QVERIFY(file.id >= 0);
      referenceVelocity = test::readAll<float>(file.id, "/velocity_m_s", H5T_NATIVE_FLOAT);
      referenceNyquist = test::readDouble(file.id, "nyquist_velocity_m_s");
    }
    const std::size_t pixels = disk.pixels();
    QCOMPARE(referenceVelocity.size(), pixels);

    const acquire::AcquisitionParams acq =
        ultrasound::requireUltrasound(*acquire::openSource(path)).params();
    QCOMPARE(acq.pulseRepetitionFrequencyHz, 10000.0);
    ultrasound::ImagingParams imaging = ultrasound::ImagingParams::defaultsFor(acq);
    imaging.mode = ultrasound::ImagingMode::ColourDoppler;
    imaging.grid = disk.grid();
    imaging.fNumber = 1.125;
    imaging.apodisation = ultrasound::Apodisation::Rectangular;
    imaging.iqBandwidthRel = 0.15;
    imaging.doppler.ensemble = 32;
    imaging.doppler.ensembleMode = ultrasound::EnsembleMode::Block;
    imaging.doppler.wallFilter = ultrasound::WallFilter::None;
    const process::ImageGeometry geometry = imaging.imageGeometry(acq);
    QCOMPARE(geometry.layers, process::kFlowImageLayers);
    QVERIFY2(std::abs(geometry.aliasingVelocity - referenceNyquist) < 1e-3 * referenceNyquist,
             qPrintable(QString("aliasing velocity %1, PyMUST's %2")
                            .arg(geometry.aliasingVelocity)
                            .arg(referenceNyquist)));

    const std::vector<std::vector<float>> frames = test::imageRecording(path, imaging, 32);

    // Before the ensemble is full there is no estimate; the 32nd frame completes it.
    QCOMPARE(frames[30].size(), 4 * pixels);
    QVERIFY(std::isnan(frames[30][pixels + pixels / 2]));
    const std::vector<float>& last = frames[31];
    QCOMPARE(last.size(), 4 * pixels);

    std::vector<double> ours, theirs;
    double leftSum = 0, rightSum = 0;
    int leftCount = 0, rightCount = 0;
    const std::size_t nx = disk.xM.size();
    for (std::size_t p = 0; p < pixels; ++p) {
      double mean = 0;
      for (std::size_t f = 0; f < disk.frames(); ++f) {
        mean += disk.bmode[f * pixels + p];
      }
      mean /= static_cast<double>(disk.frames());
      if (mean <= kMaskLevel) {
        continue;
      }
      const float v = last[pixels + p];
      QVERIFY2(std::isfinite(v), "no velocity inside the disk");
      ours.push_back(v);
      theirs.push_back(referenceVelocity[p]);
      const double x = disk.xM[p % nx];
      if (x < -5e-3) {
        leftSum += v;
        ++leftCount;
      } else if (x > 5e-3) {
        rightSum += v;
        ++rightCount;
      }
    }
    const double r = pearson(ours, theirs);
    qInfo(
        "inside the disk (%zu pixels): Pearson correlation with PyMUST's velocity %.5f; mean "
        "velocity left of x = -5 mm %+.3f m/s, right of +5 mm %+.3f m/s",
        ours.size(), r, leftSum / leftCount, rightSum / rightCount);
    QVERIFY(ours.size() > pixels / 10);
    QVERIFY2(leftSum / leftCount > 0.1 && rightSum / rightCount < -0.1,
             "the disk's left side comes towards the probe: positive there");
    QVERIFY2(r >= kRequiredCorrelation, qPrintable(QString("correlation %1").arg(r)));
  }
};

QTEST_GUILESS_MAIN(TestDopplerDisk)
#include "test_doppler_disk.moc"
