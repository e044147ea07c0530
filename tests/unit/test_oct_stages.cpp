// The OCT stages' CPU twins (oct/cpu/oct_stages.hpp) against plain double-precision references
// written here from the chain's definition (oct/oct_params.hpp), on seeded random spectra: the
// B-scan's mean spectrum, the k-linearisation table from wavelengths, one A-scan's resampling
// (linear and Catmull-Rom) with window and dispersion phase, the dB column, a whole B-scan through
// the CPU chain against a plain DFT; and the parameter checks' messages.

#include <QtTest>

#include <cmath>
#include <complex>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

#include <QTemporaryDir>

#include "oct/cpu/oct_stages.hpp"
#include "oct/k_table_file.hpp"
#include "oct/oct_params.hpp"
#include "support/test_random.hpp"

using namespace cineflow;
using Complex = std::complex<double>;

namespace {

oct::OctAcquisition someAcquisition(int samples, int ascans, bool risingWavelength = true) {
  oct::OctAcquisition acq;
  acq.samples = samples;
  acq.ascans = ascans;
  acq.wavelengthM = risingWavelength ? oct::linearWavelengths(samples, 790e-9, 890e-9)
                                     : oct::linearWavelengths(samples, 890e-9, 790e-9);
  acq.centreWavelengthM = 840e-9;
  acq.bandwidthM = 40e-9;
  acq.lateralStepM = 10e-6;
  return acq;
}

std::vector<std::uint16_t> randomSpectra(test::SeededRandom& random, std::size_t count) {
  std::vector<std::uint16_t> values(count);
  for (auto& value : values) {
    value = static_cast<std::uint16_t>(random.integer(0, 4095));
  }
  return values;
}

// Catmull-Rom in its matrix form: 0.5 [1 t t^2 t^3] M [p0 p1 p2 p3]^T.
double catmullRomReference(double p0, double p1, double p2, double p3, double t) {
  const double m[4][4] = {{0, 2, 0, 0}, {-1, 0, 1, 0}, {2, -5, 4, -1}, {-1, 3, -3, 1}};
  const double p[4] = {p0, p1, p2, p3};
  const double powers[4] = {1, t, t * t, t * t * t};
  double sum = 0;
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 4; ++c) {
      sum += powers[r] * m[r][c] * p[c];
    }
  }
  return 0.5 * sum;
}

// The chain's spectrum of one A-scan in double precision, from the definitions.
std::vector<Complex> referenceShape(const std::uint16_t* raw, const std::vector<double>& background,
                                    const oct::SpectralTables& tables, oct::Interpolation mode) {
  const int n = static_cast<int>(tables.positions.size());
  const auto value = [&](int i) {
    const int at = std::clamp(i, 0, n - 1);
    return static_cast<double>(raw[at]) - background[static_cast<std::size_t>(at)];
  };
  std::vector<Complex> out(static_cast<std::size_t>(n));
  for (int j = 0; j < n; ++j) {
    const double position = tables.positions[static_cast<std::size_t>(j)];
    const int i = std::min(static_cast<int>(std::floor(position)), n - 2);
    const double t = position - i;
    const double v =
        mode == oct::Interpolation::Linear
            ? (1 - t) * value(i) + t * value(i + 1)
            : catmullRomReference(value(i - 1), value(i), value(i + 1), value(i + 2), t);
    out[static_cast<std::size_t>(j)] = v * Complex(tables.phaseCos[static_cast<std::size_t>(j)],
                                                   tables.phaseSin[static_cast<std::size_t>(j)]);
  }
  return out;
}

}  // namespace

class TestOctStages : public QObject {
  Q_OBJECT

 private slots:
  void meanSpectrumIsTheMeanOverTheBscan() {
    test::SeededRandom random(11);
    const int samples = 300, ascans = 37;
    const auto raw = randomSpectra(random, static_cast<std::size_t>(samples * ascans));
    std::vector<float> mean(samples);
    oct::cpu::meanSpectrum(raw.data(), ascans, samples, mean.data());
    for (int i = 0; i < samples; ++i) {
      double sum = 0;
      for (int a = 0; a < ascans; ++a) {
        sum += raw[static_cast<std::size_t>(a * samples + i)];
      }
      // float holds a mean of 12-bit counts to 2^-12 of a count
      QVERIFY(std::abs(mean[static_cast<std::size_t>(i)] - sum / ascans) < 1e-3);
    }
  }

  void wavelengthTableGivesEvenlySpacedK() {
    for (const bool rising : {true, false}) {
      const auto acq = someAcquisition(1024, 1, rising);
      const auto positions = oct::positionsFromWavelengths(acq.wavelengthM);
      const double kMin = acq.kMin(), kMax = acq.kMax();
      const double first = acq.wavelengthM.front();
      const double step = (acq.wavelengthM.back() - first) / (acq.samples - 1);
      for (int j = 0; j < acq.samples; ++j) {
        // The table is linear in wavelength: the raw index p has lambda = first + p step exactly.
        const double lambda = first + positions[static_cast<std::size_t>(j)] * step;
        const double want = kMin + (kMax - kMin) * j / (acq.samples - 1);
        // float positions: 2^-24 of 1023 samples ~ 6e-5 samples ~ 6e-9 of the span in k
        QVERIFY2(std::abs(2 * std::numbers::pi / lambda - want) < 1e-7 * want,
                 qPrintable(QStringLiteral("j %1 rising %2").arg(j).arg(rising)));
      }
    }
  }

  void ascanShapingMatchesTheDefinition_data() {
    QTest::addColumn<int>("mode");
    QTest::newRow("linear") << static_cast<int>(oct::Interpolation::Linear);
    QTest::newRow("cubic") << static_cast<int>(oct::Interpolation::Cubic);
  }

  void ascanShapingMatchesTheDefinition() {
    QFETCH(int, mode);
    test::SeededRandom random(23);
    const int n = 512;
    const auto acq = someAcquisition(n, 1);
    oct::OctParams params;
    params.interpolation = static_cast<oct::Interpolation>(mode);
    params.a2 = random.uniform(-80, 80);
    params.a3 = random.uniform(-30, 30);
    params.window = oct::SpectralWindow::Gaussian;
    const auto tables = oct::makeSpectralTables(params, acq);
    const auto raw = randomSpectra(random, n);
    std::vector<float> background(n);
    std::vector<double> backgroundD(n);
    for (int i = 0; i < n; ++i) {
      background[static_cast<std::size_t>(i)] = static_cast<float>(random.uniform(0, 4095));
      backgroundD[static_cast<std::size_t>(i)] = background[static_cast<std::size_t>(i)];
    }
    std::vector<std::complex<float>> out(n);
    oct::cpu::shapeAscan(raw.data(), background.data(), tables, params.interpolation, out.data());
    const auto want = referenceShape(raw.data(), backgroundD, tables, params.interpolation);
    for (int j = 0; j < n; ++j) {
      const Complex got(out[static_cast<std::size_t>(j)].real(),
                        out[static_cast<std::size_t>(j)].imag());
      // float arithmetic on values up to ~6000 counts: 1e-3 counts
      QVERIFY2(std::abs(got - want[static_cast<std::size_t>(j)]) <
                   1e-3 * (1 + std::abs(want[static_cast<std::size_t>(j)])),
               qPrintable(QString::number(j)));
    }
  }

  void depthColumnIsTwentyLogOfTheMagnitude() {
    test::SeededRandom random(5);
    const int n = 64;
    std::vector<std::complex<float>> transformed(n);
    for (auto& value : transformed) {
      value = {static_cast<float>(random.uniform(-500, 500)),
               static_cast<float>(random.uniform(-500, 500))};
    }
    transformed[7] = {0, 0};  // floored, not -inf
    const int first = 3, last = 29, stride = 5;
    std::vector<float> column(static_cast<std::size_t>((last - first) * stride), 1234.0f);
    oct::cpu::depthColumn(transformed.data(), n, first, last, column.data(), stride);
    for (int z = first; z < last; ++z) {
      const double magnitude = std::abs(Complex(transformed[static_cast<std::size_t>(z)].real(),
                                                transformed[static_cast<std::size_t>(z)].imag())) /
                               n;
      const double want = 20 * std::log10(std::max(magnitude, 1e-10));
      QVERIFY(std::abs(column[static_cast<std::size_t>((z - first) * stride)] - want) < 1e-4);
      QCOMPARE(column[static_cast<std::size_t>((z - first) * stride + 1)], 1234.0f);  // stride kept
    }
  }

  void bscanThroughTheChainMatchesAPlainDft_data() {
    QTest::addColumn<int>("ascans");
    QTest::addColumn<int>("variant");  // OctCpuChain::variantNames()
    QTest::addColumn<bool>("avx512");  // allowed (it runs where the CPU has it)
    QTest::addColumn<bool>("steepTable");
    QTest::addColumn<bool>("linear");  // linear interpolation instead of Catmull-Rom
    QTest::newRow("6 A-scans, fused") << 6 << 0 << true << false << false;
    QTest::newRow("6 A-scans, separate (a partial batch)") << 6 << 1 << true << false << false;
    QTest::newRow("40 A-scans, fused") << 40 << 0 << true << false << false;
    QTest::newRow("40 A-scans, separate (two batches of 16, then 7)")
        << 40 << 1 << true << false << false;
    QTest::newRow("40 A-scans, fused, portable loops") << 40 << 0 << false << false << false;
    QTest::newRow("40 A-scans, separate, portable loops") << 40 << 1 << false << false << false;
    // A k-table whose taps spread up to twice as fast as the samples: on AVX-512 the first blocks
    // of 16 samples read their taps from a window, the last ones gather them.
    QTest::newRow("40 A-scans, fused, steep k-table") << 40 << 0 << true << true << false;
    QTest::newRow("40 A-scans, fused, steep k-table, portable loops")
        << 40 << 0 << false << true << false;
    QTest::newRow("40 A-scans, fused, linear") << 40 << 0 << true << false << true;
    QTest::newRow("40 A-scans, fused, linear, portable loops") << 40 << 0 << false << false << true;
  }
  void bscanThroughTheChainMatchesAPlainDft() {
    QFETCH(int, ascans);
    QFETCH(int, variant);
    QFETCH(bool, avx512);
    QFETCH(bool, steepTable);
    QFETCH(bool, linear);
    test::SeededRandom random(99);
    const int n = 256;
    auto acq = someAcquisition(n, ascans);
    acq.flybackAscans = 1;
    oct::OctParams params;
    params.a2 = 25;
    params.a3 = -7;
    if (linear) {
      params.interpolation = oct::Interpolation::Linear;
    }
    if (steepTable) {
      params.kLinearisation = oct::KLinearisation::Table;
      params.kTable.resize(n);
      for (int j = 0; j < n; ++j) {  // raw index (n - 1) u^2: the spacing grows to 2 samples
        const double u = static_cast<double>(j) / (n - 1);
        params.kTable[static_cast<std::size_t>(j)] = static_cast<float>((n - 1) * u * u);
      }
    }
    params.depthFirst = 4;
    params.depthLast = 101;  // 97 depths: six whole blocks of 16 and one row after them
    const auto raw = randomSpectra(random, static_cast<std::size_t>(n * ascans));
    oct::cpu::OctCpuChain chain;
    chain.allowAvx512(avx512);
    chain.configure(acq, params);
    QCOMPARE(oct::cpu::OctCpuChain::variantNames(),
             (std::vector<std::string>{"fused", "separate"}));
    chain.selectVariant(static_cast<std::size_t>(variant));
    std::vector<float> background(n);
    oct::cpu::meanSpectrum(raw.data(), acq.imagedAscans(), n, background.data());
    const auto geometry = params.geometry(acq);
    QCOMPARE(geometry.nx, ascans - 1);
    QCOMPARE(geometry.nz, 97);
    std::vector<float> image(geometry.pixels());
    chain.transform(raw.data(), background.data(), image.data(), false);

    const auto tables = oct::makeSpectralTables(params, acq);
    std::vector<double> meanD(n, 0.0);
    for (int a = 0; a < acq.imagedAscans(); ++a) {
      for (int i = 0; i < n; ++i) {
        meanD[static_cast<std::size_t>(i)] +=
            raw[static_cast<std::size_t>(a * n + i)] / double(acq.imagedAscans());
      }
    }
    double worst = 0;
    for (int x = 0; x < geometry.nx; ++x) {
      const auto spectrum = referenceShape(raw.data() + x * n, meanD, tables, params.interpolation);
      for (int z = params.depthFirst; z < params.depthLast; ++z) {
        Complex sum;
        for (int j = 0; j < n; ++j) {
          sum += spectrum[static_cast<std::size_t>(j)] *
                 std::polar(1.0, -2 * std::numbers::pi * z * j / n);
        }
        const double want = 20 * std::log10(std::abs(sum) / n);
        const double got =
            image[static_cast<std::size_t>((z - params.depthFirst) * geometry.nx + x)];
        worst = std::max(worst, std::abs(got - want));
      }
    }
    qInfo("largest difference from the plain DFT: %.2g dB", worst);
    QVERIFY2(worst < 0.01, qPrintable(QString::number(worst)));  // float FFT of random spectra

    // A right-to-left B-scan of a bidirectional scan: the same columns, mirrored, bit for bit.
    std::vector<float> mirrored(geometry.pixels());
    chain.transform(raw.data(), background.data(), mirrored.data(), true);
    for (int z = 0; z < geometry.nz; ++z) {
      for (int x = 0; x < geometry.nx; ++x) {
        QCOMPARE(mirrored[static_cast<std::size_t>(z * geometry.nx + geometry.nx - 1 - x)],
                 image[static_cast<std::size_t>(z * geometry.nx + x)]);
      }
    }
  }

  void kTablesAndPolynomialsAreReadOrRefusedWithTheReason() {
    QTemporaryDir folder;
    const auto write = [&folder](const char* name, const QByteArray& text) {
      const QString path = folder.filePath(QString::fromLatin1(name));
      QFile file(path);
      if (!file.open(QIODevice::WriteOnly)) {
        qFatal("cannot write %s", qPrintable(path));
      }
      file.write(text);
      return path.toStdString();
    };
    // Comments, commas, semicolons, tabs and CRLF line ends, as tables come from other tools.
    const std::vector<float> table =
        oct::readKTable(write("ok.txt", "# k table\r\n0, 1.25;2.5\t3.75 # four\r\n4e0\n"), 5);
    QCOMPARE(table, (std::vector<float>{0.0f, 1.25f, 2.5f, 3.75f, 4.0f}));
    const auto refusal = [](auto call) {
      try {
        call();
      } catch (const std::invalid_argument& error) {
        return QString::fromUtf8(error.what());
      }
      return QString();
    };
    QString why = refusal([&] { oct::readKTable(write("word.txt", "1\n2 x3\n"), 3); });
    QVERIFY2(why.contains("word.txt, line 2: 'x3' is not a finite number"), qPrintable(why));
    why = refusal([&] { oct::readKTable(write("nan.txt", "1 nan 3"), 3); });
    QVERIFY2(why.contains("'nan' is not a finite number"), qPrintable(why));
    why = refusal([&] { oct::readKTable(write("few.txt", "1 2 3"), 2048); });
    QVERIFY2(why.contains("has 3 numbers; the spectrometer has 2048 samples"), qPrintable(why));
    why = refusal([&] { oct::readKTable(folder.filePath("absent.txt").toStdString(), 3); });
    QVERIFY2(why.contains("absent.txt"), qPrintable(why));
    why = refusal([&] { oct::readKTable(write("big.txt", QByteArray(5 << 20, '1')), 3); });
    QVERIFY2(why.contains("bytes"), qPrintable(why));

    QCOMPARE(oct::parseKPolynomial("0.5, 0.999 1e-6;0"),
             (std::vector<double>{0.5, 0.999, 1e-6, 0.0}));
    why = refusal([] { oct::parseKPolynomial("1, 2, 3, 4, 5"); });
    QVERIFY2(why.contains("1 to 4 coefficients"), qPrintable(why));
    why = refusal([] { oct::parseKPolynomial(""); });
    QVERIFY2(why.contains("not 0"), qPrintable(why));
    why = refusal([] { oct::parseKPolynomial("1, two"); });
    QVERIFY2(why.contains("'two'"), qPrintable(why));

    QCOMPARE(oct::parseSpectralWindow("rect"), oct::SpectralWindow::Rectangular);
    QCOMPARE(oct::parseSpectralWindow("gaussian"), oct::SpectralWindow::Gaussian);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, oct::parseSpectralWindow("hamming"));
  }

  void badParametersAreRefusedWithTheReason() {
    auto acq = someAcquisition(256, 4);
    oct::OctParams params;
    params.background = oct::Background::Reference;
    params.reference.assign(100, 0.0f);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, params.validate(acq));
    try {
      params.validate(acq);
    } catch (const std::invalid_argument& error) {
      QVERIFY(QString(error.what()).contains("reference spectrum has 100 values"));
    }
    params = {};
    params.kLinearisation = oct::KLinearisation::Table;
    params.kTable.assign(256, 300.0f);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, params.validate(acq));
    params = {};
    params.depthFirst = 50;
    params.depthLast = 40;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, params.validate(acq));
    params = {};
    params.refractiveIndex = 0.5;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, params.validate(acq));
    acq.wavelengthM[100] = acq.wavelengthM[99];
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, acq.validate());
    acq = someAcquisition(256, 4);
    acq.flybackAscans = 4;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, acq.validate());
  }
};

QTEST_APPLESS_MAIN(TestOctStages)
#include "test_oct_stages.moc"
