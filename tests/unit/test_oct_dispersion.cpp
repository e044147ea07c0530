// Dispersion compensation against phantoms made here, independently of the chain: seeded random
// layered samples whose spectra are synthesised in double precision from a dispersion stated
// about the phantom's own centre wavelength (phi(k) = a2 u^2 + a3 u^3, u = (k - k0) / (N dk),
// k0 = 2 pi / centre wavelength, the unit oct_params.hpp documents), on a spectrometer whose
// span is not centred on that wavelength (so the centre of the k grid is not k0).
//   - The chain told the phantom's a2 and a3 puts every reflector within 0.5 px of its true depth
//     (sub-pixel peak by a parabola through the log amplitudes), and its -6 dB width within 2 % of
//     the same phantom's without dispersion (1 %: the compensation is exact, so only float
//     rounding and the resampling's interpolation of the chirped fringes differ, 0.2 % here).
//   - Dispersion stated about another wavelength (the operator's) images as the same dispersion
//     restated about the recording's centre wavelength.
//   - The phase table adds no group delay at the centre wavenumber (the correction never moves a
//     reflector there), and the CPU and CUDA chains apply the one table the host makes.
//   - Dispersion values beyond what the phase table can mean (physical units typed into the
//     radian fields) are refused by name; so is a centre wavelength outside the spectrometer.
//   - A recording that states its dispersion without the wavelength it is stated about (written
//     before that attribute existed) is read as stated about the middle of its k grid, and
//     restated about its centre wavelength.

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

#include <QTemporaryDir>

#include "oct/cpu/oct_stages.hpp"
#include "oct/oct_file_source.hpp"
#include "oct/oct_params.hpp"
#include "support/axial_peaks.hpp"
#include "support/oct_file_fixture.hpp"
#include "support/test_random.hpp"

using namespace cineflow;

namespace {

constexpr double kDarkCounts = 500.0;
constexpr double kReferenceCounts = 24000.0;  // at the source spectrum's peak (16-bit counts)

struct Reflector {
  double amplitude;
  double depthPx;  // the truth: optical path / axialPixelInAirM()
};

// A seeded random layered phantom: the spectrometer, the source, the dispersion (about the
// source's centre wavelength) and a few reflectors per A-scan.
struct Phantom {
  oct::OctAcquisition acquisition;
  double a2 = 0, a3 = 0;
  std::vector<std::vector<Reflector>> ascans;
};

Phantom randomPhantom(std::uint64_t seed) {
  test::SeededRandom random(seed);
  Phantom phantom;
  oct::OctAcquisition& acq = phantom.acquisition;
  acq.samples = random.integer(0, 1) == 0 ? 1024 : 2048;
  acq.ascans = 4;
  acq.bitDepth = 16;
  acq.centreWavelengthM = random.uniform(800e-9, 1310e-9);
  const double span = acq.centreWavelengthM * random.uniform(0.08, 0.15);
  // The span sits off the centre wavelength: its first 40 to 60 % below it.
  const double first = acq.centreWavelengthM - span * random.uniform(0.40, 0.60);
  acq.wavelengthM = oct::linearWavelengths(acq.samples, first, first + span);
  acq.bandwidthM = span * random.uniform(0.30, 0.45);
  acq.lateralStepM = 10e-6;
  phantom.a2 = (random.integer(0, 1) == 0 ? -1 : 1) * random.uniform(30, 150);
  phantom.a3 = random.uniform(-60, 60);
  const int n = acq.samples;
  for (int a = 0; a < acq.ascans; ++a) {
    // Four reflectors at least 60 px apart, between 40 px and 0.4 N.
    std::vector<Reflector> reflectors;
    while (reflectors.size() < 4) {
      const double depth = random.uniform(40, 0.4 * n);
      if (std::none_of(reflectors.begin(), reflectors.end(),
                       [&](const Reflector& r) { return std::abs(r.depthPx - depth) < 60; })) {
        reflectors.push_back({random.uniform(0.02, 0.08), depth});
      }
    }
    phantom.ascans.push_back(reflectors);
  }
  return phantom;
}

// The source's power at wavenumber k (Gaussian, FWHM bandwidthM in wavelength).
double sourcePower(const oct::OctAcquisition& acq, double k) {
  const double k0 = 2 * std::numbers::pi / acq.centreWavelengthM;
  const double fwhmK =
      2 * std::numbers::pi * acq.bandwidthM / (acq.centreWavelengthM * acq.centreWavelengthM);
  const double x = (k - k0) / fwhmK;
  return std::exp(-4 * std::numbers::ln2 * x * x);
}

// The phantom's spectra, counts [ascans][samples]: dark + R S(k) (1 + 2 sum A cos(2 k z + phi)),
// phi = a2 u^2 + a3 u^3 with u = (k - k0) / (N dk) (zero dispersion when `dispersed` is false).
std::vector<std::uint16_t> spectra(const Phantom& phantom, bool dispersed) {
  const oct::OctAcquisition& acq = phantom.acquisition;
  const int n = acq.samples;
  const double kSpan = n * (acq.kMax() - acq.kMin()) / (n - 1);  // N dk
  const double k0 = 2 * std::numbers::pi / acq.centreWavelengthM;
  const double pixel = acq.axialPixelInAirM();
  std::vector<std::uint16_t> raw(acq.samplesPerFrame());
  for (int a = 0; a < acq.ascans; ++a) {
    for (int i = 0; i < n; ++i) {
      const double k = 2 * std::numbers::pi / acq.wavelengthM[static_cast<std::size_t>(i)];
      const double u = (k - k0) / kSpan;
      const double phi = dispersed ? u * u * (phantom.a2 + phantom.a3 * u) : 0.0;
      double fringes = 0;
      for (const Reflector& r : phantom.ascans[static_cast<std::size_t>(a)]) {
        fringes += r.amplitude * std::cos(2 * k * r.depthPx * pixel + phi);
      }
      const double counts =
          kDarkCounts + kReferenceCounts * sourcePower(acq, k) * (1 + 2 * fringes);
      raw[static_cast<std::size_t>(a * n + i)] = static_cast<std::uint16_t>(std::lround(counts));
    }
  }
  return raw;
}

// The reference arm alone (what an operator captures with the sample arm blocked).
std::vector<float> referenceSpectrum(const oct::OctAcquisition& acq) {
  std::vector<float> reference(static_cast<std::size_t>(acq.samples));
  for (int i = 0; i < acq.samples; ++i) {
    const double k = 2 * std::numbers::pi / acq.wavelengthM[static_cast<std::size_t>(i)];
    reference[static_cast<std::size_t>(i)] =
        static_cast<float>(kDarkCounts + kReferenceCounts * sourcePower(acq, k));
  }
  return reference;
}

oct::OctParams chainParams(const Phantom& phantom, double a2, double a3) {
  oct::OctParams params;
  params.background = oct::Background::Reference;
  params.reference = referenceSpectrum(phantom.acquisition);
  params.a2 = a2;
  params.a3 = a3;
  return params;
}

// dB image [z][x] of `raw` through the CPU chain.
std::vector<float> image(const oct::OctAcquisition& acq, const oct::OctParams& params,
                         const std::vector<std::uint16_t>& raw) {
  params.validate(acq);
  oct::cpu::OctCpuChain chain;
  chain.configure(acq, params);
  std::vector<float> out(params.geometry(acq).pixels());
  chain.transform(raw.data(), params.reference.data(), out.data(), false);
  return out;
}

struct PeakStats {
  double worstOffsetPx = 0;  // |found - truth|
  double worstWidthRatio = 0;  // |width / dispersion-free width - 1|
};

// Every reflector of `phantom` imaged with `params` against its truth and against the widths of
// the dispersion-free phantom through the same chain.
PeakStats measure(const Phantom& phantom, const oct::OctParams& params) {
  const oct::OctAcquisition& acq = phantom.acquisition;
  const std::vector<float> corrected = image(acq, params, spectra(phantom, true));
  const std::vector<float> clean =
      image(acq, chainParams(phantom, 0, 0), spectra(phantom, false));
  const int nx = acq.imagedAscans();
  PeakStats stats;
  for (int x = 0; x < nx; ++x) {
    const auto column = test::amplitudeColumn(corrected, nx, x);
    const auto cleanColumn = test::amplitudeColumn(clean, nx, x);
    for (const Reflector& r : phantom.ascans[static_cast<std::size_t>(x)]) {
      const double found = test::peakNear(column, r.depthPx, 6);
      const double width = test::widthAtHalf(column, static_cast<int>(std::lround(found)));
      const double cleanWidth = test::widthAtHalf(
          cleanColumn, static_cast<int>(std::lround(test::peakNear(cleanColumn, r.depthPx, 3))));
      stats.worstOffsetPx = std::max(stats.worstOffsetPx, std::abs(found - r.depthPx));
      stats.worstWidthRatio = std::max(stats.worstWidthRatio, std::abs(width / cleanWidth - 1));
    }
  }
  return stats;
}

}  // namespace

class TestOctDispersion : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;

 private slots:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void compensatedReflectorsStayAtTheirDepths_data() {
    QTest::addColumn<quint64>("seed");
    for (const quint64 seed : {11u, 12u, 13u, 14u, 15u, 16u}) {
      QTest::newRow(qPrintable(QStringLiteral("seed %1").arg(seed))) << seed;
    }
  }
  void compensatedReflectorsStayAtTheirDepths() {
    QFETCH(quint64, seed);
    const Phantom phantom = randomPhantom(seed);
    const PeakStats stats = measure(phantom, chainParams(phantom, phantom.a2, phantom.a3));
    qInfo("%d samples, centre %.1f nm, a2 %.1f a3 %.1f rad: worst offset %.3f px, worst width "
          "%.2f %% from the dispersion-free width",
          phantom.acquisition.samples, phantom.acquisition.centreWavelengthM * 1e9, phantom.a2,
          phantom.a3, stats.worstOffsetPx, 100 * stats.worstWidthRatio);
    QVERIFY2(stats.worstOffsetPx <= 0.5, qPrintable(QString::number(stats.worstOffsetPx)));
    QVERIFY2(stats.worstWidthRatio <= 0.01, qPrintable(QString::number(stats.worstWidthRatio)));
  }

  void dispersionStatedAboutAnotherWavelength() {
    // The phantom's dispersion restated about lambda1 (the quadratic coefficient about k1 is
    // a2 + 3 a3 e, e = (k1 - k0) / (N dk)); about k1 the phantom's phase keeps a linear part
    // (2 a2 e + 3 a3 e^2) u: its group delay at k1, where the compensated reflectors then lie.
    const Phantom phantom = randomPhantom(21);
    const oct::OctAcquisition& acq = phantom.acquisition;
    const int n = acq.samples;
    const double kSpan = n * (acq.kMax() - acq.kMin()) / (n - 1);
    const double lambda1 = acq.centreWavelengthM * 1.02;  // inside the band: >= 3.2 % above
    const double e = (2 * std::numbers::pi / lambda1 - 2 * std::numbers::pi /
                      acq.centreWavelengthM) / kSpan;
    oct::OctParams params = chainParams(phantom, phantom.a2 + 3 * phantom.a3 * e, phantom.a3);
    params.dispersionCentreM = lambda1;
    const double delayPx = (2 * phantom.a2 * e + 3 * phantom.a3 * e * e) / (2 * std::numbers::pi);
    Phantom delayed = phantom;
    for (auto& reflectors : delayed.ascans) {
      for (Reflector& r : reflectors) {
        r.depthPx += delayPx;
      }
    }
    const std::vector<float> db = image(acq, params, spectra(phantom, true));
    double worst = 0;
    for (int x = 0; x < acq.imagedAscans(); ++x) {
      const auto column = test::amplitudeColumn(db, acq.imagedAscans(), x);
      for (const Reflector& r : delayed.ascans[static_cast<std::size_t>(x)]) {
        worst = std::max(worst, std::abs(test::peakNear(column, r.depthPx, 6) - r.depthPx));
      }
    }
    qInfo("stated about %.1f nm (centre %.1f nm): group delay %.2f px, worst offset %.3f px",
          lambda1 * 1e9, acq.centreWavelengthM * 1e9, delayPx, worst);
    QVERIFY(std::abs(delayPx) > 1.0);  // the check can tell the two centres apart
    QVERIFY2(worst <= 0.5, qPrintable(QString::number(worst)));
  }

  void thePhaseTableHasNoGroupDelayAtTheCentre() {
    // One table for both backends (the CUDA chain uploads SpectralTables as made here): its phase
    // and the phase's slope vanish at the centre sample, whose wavenumber is k0.
    const Phantom phantom = randomPhantom(31);
    const oct::OctAcquisition& acq = phantom.acquisition;
    oct::OctParams params = chainParams(phantom, phantom.a2, phantom.a3);
    params.window = oct::SpectralWindow::Rectangular;
    const oct::SpectralTables tables = oct::makeSpectralTables(params, acq);
    const int n = acq.samples;
    const double j0 =
        (n - 1) * (2 * std::numbers::pi / acq.centreWavelengthM - acq.kMin()) /
        (acq.kMax() - acq.kMin());
    QCOMPARE(std::round(oct::centreSample(acq, tables.positions, acq.centreWavelengthM) * 1e3),
             std::round(j0 * 1e3));
    const auto phase = [&](int j) {
      return std::atan2(-tables.phaseSin[static_cast<std::size_t>(j)],
                        tables.phaseCos[static_cast<std::size_t>(j)]);
    };
    const int below = static_cast<int>(std::floor(j0));
    for (int j = below - 1; j <= below + 2; ++j) {
      const double u = (j - j0) / n;
      QVERIFY2(std::abs(phase(j) - u * u * (phantom.a2 + phantom.a3 * u)) < 1e-5,
               qPrintable(QStringLiteral("sample %1: %2 rad").arg(j).arg(phase(j))));
    }
    // The slope across the centre: (phi(j0 + 1) - phi(j0 - 1)) / 2 is of order a2 / n^2.
    const double slope = 0.5 * (phase(below + 1) - phase(below - 1));
    QVERIFY2(std::abs(slope) < 4 * std::abs(phantom.a2) / (double(n) * n) + 1e-6,
             qPrintable(QString::number(slope)));
  }

  void olderRecordingsAreRestatedAboutTheCentreWavelength() {
    // Written with a2 = 12.5, a3 = -3.25 rad about the wavelength it states; a recording without
    // dispersion_centre_wavelength_m stated them about the middle output sample N / 2 instead.
    const std::string path = dir_.filePath("legacy.h5").toStdString();
    test::writeGoodOctRecording(path);
    {
      const oct::OctFileSource current(path, 20.0);
      QCOMPARE(current.recordedDispersion()->a2Rad, 12.5);
      QCOMPARE(current.recordedDispersion()->centreWavelengthM,
               current.acquisition().centreWavelengthM);
    }
    test::PlainEditor(path).remove("dispersion_centre_wavelength_m");
    const oct::OctFileSource legacy(path, 20.0);
    const oct::OctAcquisition& acq = legacy.acquisition();
    const int n = acq.samples;
    const double j0 = (n - 1) * (2 * std::numbers::pi / acq.centreWavelengthM - acq.kMin()) /
                      (acq.kMax() - acq.kMin());
    const double expected = 12.5 + 3 * -3.25 * (j0 - 0.5 * n) / n;
    QVERIFY(std::abs(j0 - 0.5 * n) > 1.0);  // the two centres differ
    QVERIFY2(std::abs(legacy.recordedDispersion()->a2Rad - expected) < 1e-6,
             qPrintable(QStringLiteral("%1, expected %2")
                            .arg(legacy.recordedDispersion()->a2Rad)
                            .arg(expected)));
    QCOMPARE(legacy.recordedDispersion()->a3Rad, -3.25);
    QCOMPARE(legacy.recordedDispersion()->centreWavelengthM, 0.0);  // the recording's centre
  }

  void dispersionBeyondThePhaseTableIsRefusedByName_data() {
    QTest::addColumn<double>("a2");
    QTest::addColumn<double>("a3");
    QTest::addColumn<double>("centreM");
    QTest::addColumn<QString>("named");
    QTest::newRow("a2 in fs^2") << 45000.0 << 0.0 << 0.0 << "dispersion a2 = 45000";
    QTest::newRow("a3 in fs^3") << 10.0 << -70000.0 << 0.0 << "dispersion a3 = -70000";
    QTest::newRow("a2 in s^2") << 4.5e-26 << 0.0 << 0.0 << "dispersion a2 = 4.5e-26";
    QTest::newRow("centre outside the band")
        << 10.0 << 0.0 << 1550e-9 << "centre wavelength 1550 nm lies outside";
    QTest::newRow("centre not a number") << 10.0 << 0.0 << -1.0 << "must be a positive number";
  }
  void dispersionBeyondThePhaseTableIsRefusedByName() {
    QFETCH(double, a2);
    QFETCH(double, a3);
    QFETCH(double, centreM);
    QFETCH(QString, named);
    const Phantom phantom = randomPhantom(14);  // 2048 samples around 839 nm
    oct::OctParams params = chainParams(phantom, a2, a3);
    params.dispersionCentreM = centreM;
    try {
      params.validate(phantom.acquisition);
      QFAIL("accepted");
    } catch (const std::invalid_argument& e) {
      QVERIFY2(QString(e.what()).contains(named), e.what());
    }
    // The largest values the table can mean pass.
    const oct::DispersionLimits limits = oct::dispersionLimits(phantom.acquisition.samples);
    QCOMPARE(limits.a2, std::numbers::pi * 1024);
    params = chainParams(phantom, -limits.a2, limits.a3);
    params.validate(phantom.acquisition);
  }
};

QTEST_GUILESS_MAIN(TestOctDispersion)
#include "test_oct_dispersion.moc"
