// The built-in phantom: deterministic per seed, with its features where the config puts them.
#include <QtTest>

#include <cmath>
#include <cstring>
#include <set>

#include "ultrasound/phantom.hpp"

using namespace cineflow::ultrasound;

namespace {

bool sameScatterers(const Phantom& a, const Phantom& b) {
  const auto x = a.scatterers();
  const auto y = b.scatterers();
  return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size_bytes()) == 0;
}

// A smaller medium than the default keeps the test quick; the features keep their places.
PhantomConfig smallConfig() {
  PhantomConfig c;
  c.yMinM = -3e-3;
  c.yMaxM = 3e-3;
  return c;
}

}  // namespace

class TestPhantom : public QObject {
  Q_OBJECT

 private slots:
  void sameSeedGivesIdenticalScatterers() {
    const Phantom a(smallConfig(), 7);
    const Phantom b(smallConfig(), 7);
    QVERIFY(sameScatterers(a, b));
  }

  void differentSeedGivesDifferentScatterers() {
    const Phantom a(smallConfig(), 7);
    const Phantom b(smallConfig(), 8);
    QVERIFY(!sameScatterers(a, b));
  }

  void countIsPlausible() {
    const PhantomConfig c = smallConfig();
    const Phantom p(c, 1);
    const double volume = (c.xMaxM - c.xMinM) * (c.yMaxM - c.yMinM) * (c.zMaxM - c.zMinM);
    const double expected = volume / c.resolutionCellM3 * c.scatterersPerResolutionCell;
    const auto count = static_cast<double>(p.scatterers().size());
    // The anechoic cyst removes its volume's share (well under 1 %); point targets add 12.
    QVERIFY2(count > 0.98 * expected && count < expected + 100,
             qPrintable(QString("%1 scatterers, expected about %2").arg(count).arg(expected)));
    for (const Scatterer& s : p.scatterers()) {
      QVERIFY(s.x >= c.xMinM - 1e-6 && s.x <= c.xMaxM + 1e-6);
      QVERIFY(s.y >= c.yMinM - 1e-6 && s.y <= c.yMaxM + 1e-6);
      QVERIFY(s.z >= c.zMinM - 1e-6 && s.z <= c.zMaxM + 1e-6);
      QVERIFY(std::isfinite(s.amplitude));
    }
  }

  void speckleAmplitudesAreGaussian() {
    PhantomConfig c = smallConfig();
    c.cysts = false;
    c.vessel = false;
    c.pointTargets = false;
    const Phantom p(c, 3);
    double sum = 0, sumSquares = 0;
    for (const Scatterer& s : p.scatterers()) {
      sum += s.amplitude;
      sumSquares += static_cast<double>(s.amplitude) * s.amplitude;
    }
    const auto n = static_cast<double>(p.scatterers().size());
    // Mean 0 and standard deviation 1 within 5 standard errors.
    QVERIFY(std::abs(sum / n) < 5 / std::sqrt(n));
    QVERIFY(std::abs(std::sqrt(sumSquares / n) - 1.0) < 5 / std::sqrt(2 * n));
  }

  void pointTargetsSitAtTheConfiguredPositions() {
    const PhantomConfig c = smallConfig();
    const Phantom p(c, 1);
    const auto targets = p.pointTargets();
    QCOMPARE(targets.size(), c.pointTargetXM.size() * c.pointTargetZM.size());
    for (const Point3& t : targets) {
      QVERIFY(std::find(c.pointTargetXM.begin(), c.pointTargetXM.end(), t.x) !=
              c.pointTargetXM.end());
      QVERIFY(std::find(c.pointTargetZM.begin(), c.pointTargetZM.end(), t.z) !=
              c.pointTargetZM.end());
      QCOMPARE(t.y, c.pointTargetYM);
      // Each target is a scatterer of the configured amplitude at that place (tolerance 10 nm:
      // positions are stored as float).
      bool found = false;
      for (const Scatterer& s : p.scatterers()) {
        if (std::abs(s.x - t.x) < 1e-8 && std::abs(s.y - t.y) < 1e-8 &&
            std::abs(s.z - t.z) < 1e-8 &&
            s.amplitude == static_cast<float>(c.pointTargetAmplitude)) {
          found = true;
          break;
        }
      }
      QVERIFY2(found, qPrintable(QString("no target at x %1 z %2").arg(t.x).arg(t.z)));
    }
    PhantomConfig none = c;
    none.pointTargets = false;
    QVERIFY(Phantom(none, 1).pointTargets().empty());
  }

  void anechoicCystIsEmpty() {
    const PhantomConfig c = smallConfig();
    const Phantom p(c, 1);
    int inside = 0, nearby = 0;
    const Sphere& cyst = c.anechoicCyst;
    for (const Scatterer& s : p.scatterers()) {
      if (cyst.contains(s.x, s.y, s.z)) {
        ++inside;
      }
      const double dx = s.x - cyst.centre.x, dy = s.y - cyst.centre.y, dz = s.z - cyst.centre.z;
      const double r = std::sqrt(dx * dx + dy * dy + dz * dz);
      if (r >= cyst.radiusM && r < 1.5 * cyst.radiusM) {
        ++nearby;
      }
    }
    QCOMPARE(inside, 0);
    QVERIFY(nearby > 1000);  // speckle right up to the wall
  }

  void hyperechoicCystIsBrighter() {
    const PhantomConfig c = smallConfig();
    const Phantom p(c, 1);
    double insideSquares = 0, outsideSquares = 0;
    int inside = 0, outside = 0;
    for (const Scatterer& s : p.scatterers()) {
      const double a2 = static_cast<double>(s.amplitude) * s.amplitude;
      if (c.hyperechoicCyst.contains(s.x, s.y, s.z)) {
        insideSquares += a2;
        ++inside;
      } else if (!p.insideVessel(s.x, s.y, s.z) && std::abs(s.amplitude) < 10) {
        outsideSquares += a2;
        ++outside;
      }
    }
    QVERIFY(inside > 1000);
    const double ratio = std::sqrt((insideSquares / inside) / (outsideSquares / outside));
    // Amplitude gain 3 within 10 % (a few thousand Gaussian samples).
    QVERIFY2(std::abs(ratio - c.hyperechoicGain) < 0.3, qPrintable(QString::number(ratio)));
  }

  void vesselWindsThroughElevation() {
    const PhantomConfig c = smallConfig();
    const Phantom p(c, 1);
    std::set<int> elevationBins;  // 0.5 mm bins of y holding vessel scatterers
    std::set<int> lateralBins;    // 1 mm bins of x
    int vessel = 0;
    for (const Scatterer& s : p.scatterers()) {
      if (p.insideVessel(s.x, s.y, s.z)) {
        ++vessel;
        elevationBins.insert(static_cast<int>(std::floor(s.y / 0.5e-3)));
        lateralBins.insert(static_cast<int>(std::floor(s.x / 1e-3)));
        const Point3 centre = p.vesselCentre(s.y);
        QVERIFY(std::hypot(s.x - centre.x, s.z - centre.z) < c.vesselRadiusM);
      }
    }
    QVERIFY(vessel > 1000);
    QVERIFY(elevationBins.size() >= 10);  // present across the 6 mm of elevation
    QVERIFY(lateralBins.size() >= 8);     // and moving sideways as it winds
    // The centre line is where the config says.
    const Point3 atZero = p.vesselCentre(0);
    QCOMPARE(atZero.x, c.vesselXM);
    QCOMPARE(atZero.z, c.vesselZM + c.vesselZAmplitudeM);
  }

  void explicitScatterersAreKept() {
    const std::vector<Scatterer> list = {{1e-3f, 0.0f, 10e-3f, 1.0f},
                                         {-2e-3f, 0.5e-3f, 20e-3f, -0.5f}};
    const Phantom p = Phantom::fromScatterers(list);
    QCOMPARE(p.scatterers().size(), list.size());
    QVERIFY(std::memcmp(p.scatterers().data(), list.data(), sizeof(Scatterer) * list.size()) == 0);
    QVERIFY(p.pointTargets().empty());
  }

  void invalidConfigIsRejected() {
    PhantomConfig c;
    c.zMaxM = c.zMinM;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Phantom(c, 1));
    PhantomConfig huge;
    huge.xMinM = -1;  // metres, not millimetres: billions of scatterers
    huge.xMaxM = 1;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Phantom(huge, 1));
  }
};

QTEST_APPLESS_MAIN(TestPhantom)
#include "test_phantom.moc"
