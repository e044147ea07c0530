// The measurements' arithmetic (ui/measure/measure_regions.hpp) against values known independently
// of it: closed forms for areas and perimeters, and the simulator's phantom
// (ultrasound/phantom.hpp) for what the image shows: the distance between two point targets the
// phantom placed 10 mm apart, the hyperechoic cyst whose scatterers are 3 times as strong as the
// speckle around it, the anechoic cyst that holds none, and the statistics of fully developed
// speckle (Rayleigh amplitudes: 5.57 dB standard deviation after log compression, amplitude std /
// mean = 0.523).
#include <QtTest>

#include <cmath>
#include <numbers>

#include "compute/backend.hpp"
#include "measure/measure_regions.hpp"
#include "support/image_analysis.hpp"
#include "ultrasound/simulator.hpp"

using namespace cineflow;
using ui::PhysicalPoint;
using ui::Region;

namespace {

// The Rayleigh distribution's overlap with one of `ratio` times its scale: the gCNR of two speckle
// regions whose amplitudes differ by `ratio` (crossing point of the densities, then the two
// tails' probabilities).
double rayleighGcnr(double ratio) {
  const double k2 = ratio * ratio;
  const double crossing2 = 2.0 * std::log(k2) * k2 / (k2 - 1.0);  // in units of sigma_1^2
  const double overlap = std::exp(-0.5 * crossing2) + 1.0 - std::exp(-0.5 * crossing2 / k2);
  return 1.0 - overlap;
}

}  // namespace

class TestMeasureRegions : public QObject {
  Q_OBJECT

  std::unique_ptr<compute::Backend> backend_;
  std::unique_ptr<ultrasound::Simulator> sim_;
  process::ImageGeometry geometry_;
  std::vector<float> image_;  // the slice nearest the phantom's plane y = 0

 private slots:
  void initTestCase() {
    backend_ = compute::createBackend(compute::BackendRequest::Cpu);
    sim_ = std::make_unique<ultrasound::Simulator>(ultrasound::SimulatorConfig{});
    const ultrasound::ImagingParams imaging =
        ultrasound::ImagingParams::defaultsFor(sim_->params());
    geometry_ = imaging.geometry();
    int slice = 0;
    for (int k = 1; k < static_cast<int>(sim_->frameCount()); ++k) {
      if (std::abs(sim_->elevationM(k)) < std::abs(sim_->elevationM(slice))) {
        slice = k;
      }
    }
    image_ = test::bmodeOfFrame(*backend_, *sim_, static_cast<std::uint64_t>(slice), imaging);
  }

  void areasAndPerimetersFollowTheirClosedForms() {
    const Region circle = Region::ellipse({1e-3, 20e-3}, 2.5e-3, 2.5e-3);
    QVERIFY(std::abs(circle.areaM2() - std::numbers::pi * 6.25e-6) < 1e-15);
    QVERIFY(std::abs(circle.perimeterM() - 2 * std::numbers::pi * 2.5e-3) < 1e-12);
    // Ellipse a = 3, b = 1: the perimeter's series value 13.3648932206 mm, which Ramanujan's
    // second approximation gives to 3.3e-8.
    const Region ellipse = Region::ellipseInBox({-3e-3, 9e-3}, {3e-3, 11e-3});
    QVERIFY(std::abs(ellipse.perimeterM() - 13.364893220555258e-3) < 1e-7 * 13.4e-3);
    QVERIFY(std::abs(ellipse.areaM2() - std::numbers::pi * 3e-6) < 1e-15);
    // A regular 64-gon inscribed in a circle of 2 mm: (n / 2) r^2 sin(2 pi / n), 2 n r sin(pi / n).
    constexpr int n = 64;
    constexpr double r = 2e-3;
    std::vector<PhysicalPoint> vertices;
    for (int i = 0; i < n; ++i) {
      const double angle = 2 * std::numbers::pi * i / n;
      vertices.push_back({r * std::cos(angle), 20e-3 + r * std::sin(angle)});
    }
    const Region polygon = Region::polygon(vertices);
    QVERIFY(std::abs(polygon.areaM2() - 0.5 * n * r * r * std::sin(2 * std::numbers::pi / n)) <
            1e-15);
    QVERIFY(std::abs(polygon.perimeterM() - 2 * n * r * std::sin(std::numbers::pi / n)) < 1e-12);
    QVERIFY(polygon.contains({0, 20e-3}));
    QVERIFY(!polygon.contains({2.1e-3, 20e-3}));
    QVERIFY(Region::polygon({{0, 0}, {1e-3, 0}}).empty());
    QVERIFY(Region::ellipse({0, 0}, 1e-3, 0).empty());
  }

  void regionPixelsCoverTheRegionsArea() {
    // The pixel centres inside a disc number its area over the pixel's, within the pixels its
    // outline cuts (perimeter / the smaller pitch).
    const Region disc = Region::ellipse({0.3e-3, 20e-3}, 2.5e-3, 2.5e-3);
    const double count = static_cast<double>(ui::regionValues(image_, geometry_, disc).size());
    const double expected = disc.areaM2() / (geometry_.dx * geometry_.dz);
    const double outline = disc.perimeterM() / std::min(geometry_.dx, geometry_.dz);
    QVERIFY2(std::abs(count - expected) < outline,
             qPrintable(QString("%1 pixels, area says %2").arg(count).arg(expected)));
    QVERIFY(ui::regionValues(image_, geometry_, Region::ellipse({0, -1}, 1e-3, 1e-3)).empty());
  }

  void caliperBetweenPointTargetsReadsTheirSpacing() {
    // The phantom's targets at x = 0, z = 18 and 28 mm; the caliper's ends at the image's peaks.
    const test::Peak upper = test::findSubPixelPeak(image_, geometry_, 0.0, 18e-3, 1e-3);
    const test::Peak lower = test::findSubPixelPeak(image_, geometry_, 0.0, 28e-3, 1e-3);
    const double d = ui::distanceM({upper.xM, upper.zM}, {lower.xM, lower.zM});
    // Each target lands within 0.2 mm of where the phantom put it (test_simulator_imaging), and
    // both move alike with depth, so the spacing is within 0.2 mm of 10 mm.
    QVERIFY2(std::abs(d - 10e-3) < 0.2e-3, qPrintable(QString("%1 mm").arg(d * 1e3)));
  }

  void speckleStatisticsAreRayleigh() {
    // Background speckle at the cysts' depth, between them and clear of the point targets.
    const auto values =
        ui::regionValues(image_, geometry_, Region::ellipse({0.0, 23e-3}, 2.0e-3, 2.0e-3));
    const ui::RegionStats stats = ui::statsOf(values);
    qInfo("background: %zu pixels, %.2f dB mean, %.2f dB std, amplitude std/mean %.3f",
          stats.pixels, stats.meanDb, stats.stdDb, stats.stdAmplitude / stats.meanAmplitude);
    // About 120 resolution cells: the standard deviation is known to about 10 %.
    QVERIFY2(std::abs(stats.stdDb - 5.57) < 1.0, qPrintable(QString::number(stats.stdDb)));
    QVERIFY(std::abs(stats.stdAmplitude / stats.meanAmplitude - 0.523) < 0.1);
  }

  void contrastOfTheCystsFollowsThePhantom() {
    const ultrasound::PhantomConfig& pc = sim_->phantom().config();
    const Region background = Region::ellipse({0.0, 23e-3}, 2.0e-3, 2.0e-3);
    // Hyperechoic: scatterers hyperechoicGain (3) times as strong: 20 log10(3) = 9.54 dB, CNR of
    // two Rayleigh regions (k - 1) / (0.523 sqrt(k^2 + 1)) = 1.21, and their gCNR.
    const double k = pc.hyperechoicGain;
    const Region bright =
        Region::ellipse({pc.hyperechoicCyst.centre.x, pc.hyperechoicCyst.centre.z}, 1.5e-3, 1.5e-3);
    const ui::ContrastResult hyper = ui::contrastOf(image_, geometry_, bright, background);
    const double rayleighSpread = std::sqrt(4.0 / std::numbers::pi - 1.0);
    const double expectedCnr = (k - 1.0) / (rayleighSpread * std::sqrt(k * k + 1.0));
    qInfo("hyperechoic: contrast %.2f dB (expected %.2f), CNR %.3f (%.3f), gCNR %.3f (%.3f)",
          hyper.contrastDb, 20 * std::log10(k), hyper.cnr, expectedCnr, hyper.gcnr,
          rayleighGcnr(k));
    // About 70 and 120 independent cells: each mean amplitude to about 6 % and 5 % (0.5 and
    // 0.4 dB), so 2 dB is three standard errors; CNR and gCNR likewise.
    QVERIFY(std::abs(hyper.contrastDb - 20 * std::log10(k)) < 2.0);
    QVERIFY(std::abs(hyper.cnr - expectedCnr) < 0.3);
    QVERIFY(std::abs(hyper.gcnr - rayleighGcnr(k)) < 0.15);
    // Anechoic: no scatterers, only side lobes of the speckle around: far below, well separated.
    const Region empty =
        Region::ellipse({pc.anechoicCyst.centre.x, pc.anechoicCyst.centre.z}, 1.5e-3, 1.5e-3);
    const ui::ContrastResult an = ui::contrastOf(image_, geometry_, empty, background);
    qInfo("anechoic: contrast %.2f dB, CNR %.3f, gCNR %.3f", an.contrastDb, an.cnr, an.gcnr);
    QVERIFY(an.contrastDb < -10.0);
    QVERIFY(an.gcnr > 0.8);
    // The same region against itself: no contrast at all.
    const ui::ContrastResult same = ui::contrastOf(image_, geometry_, background, background);
    QCOMPARE(same.contrastDb, 0.0);
    QCOMPARE(same.gcnr, 0.0);
  }
};

QTEST_APPLESS_MAIN(TestMeasureRegions)
#include "test_measure_regions.moc"
