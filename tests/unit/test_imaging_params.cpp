// ImagingGrid / ImagingParams: grid counting, millimetre parsing, defaults and validation.

#include <QtTest>

#include <cmath>
#include <stdexcept>
#include <string>

#include "support/reference_stages.hpp"
#include "ultrasound/imaging_params.hpp"

using cineflow::ultrasound::ImagingGrid;
using cineflow::ultrasound::ImagingParams;

namespace {

// Runs `fn`, which must throw std::invalid_argument whose message contains `needle`.
template <class F>
bool throwsInvalidArgumentMentioning(F&& fn, const std::string& needle, std::string* message) {
  try {
    fn();
  } catch (const std::invalid_argument& e) {
    *message = e.what();
    return message->find(needle) != std::string::npos;
  }
  *message = "(no exception)";
  return false;
}

}  // namespace

class TestImagingParams : public QObject {
  Q_OBJECT

 private slots:
  void countsIncludeTheLastSampleDespiteRounding() {
    ImagingGrid grid{0, 10e-3, 0.1e-3, 5e-3, 6e-3, 0.3e-3};
    QCOMPARE(grid.nx(), 101);  // 0, 0.1, ..., 10 mm although 10/0.1 rounds below 100
    QCOMPARE(grid.nz(), 4);    // 5, 5.3, 5.6, 5.9 mm; 6.2 is past z1
    ImagingGrid single{1e-3, 1e-3, 1e-3, 2e-3, 2e-3, 1e-3};
    QCOMPARE(single.nx(), 1);
    QCOMPARE(single.nz(), 1);
  }

  void parsesMillimetres() {
    const ImagingGrid grid = ImagingGrid::parseMillimetres(" -19 : 19:0.15 , 5:40:0.04");
    const double tolerance = 1e-15;  // mm -> m is one division per value
    QVERIFY(std::abs(grid.x0 - -19e-3) < tolerance);
    QVERIFY(std::abs(grid.x1 - 19e-3) < tolerance);
    QVERIFY(std::abs(grid.dx - 0.15e-3) < tolerance);
    QVERIFY(std::abs(grid.z0 - 5e-3) < tolerance);
    QVERIFY(std::abs(grid.z1 - 40e-3) < tolerance);
    QVERIFY(std::abs(grid.dz - 0.04e-3) < tolerance);
    QCOMPARE(grid.nx(), 254);
    QCOMPARE(grid.nz(), 876);
  }

  void millimetreStringRoundTrips() {
    const ImagingGrid grid{-19.05e-3, 19.05e-3, 0.154e-3, 5e-3, 39.65e-3, 0.0385e-3};
    const ImagingGrid parsed = ImagingGrid::parseMillimetres(grid.toMillimetreString());
    const double tolerance = 1e-15;  // metres: the text keeps every significant digit
    QVERIFY2(std::abs(parsed.x0 - grid.x0) < tolerance, grid.toMillimetreString().c_str());
    QVERIFY(std::abs(parsed.dx - grid.dx) < tolerance);
    QVERIFY(std::abs(parsed.z1 - grid.z1) < tolerance);
    QVERIFY(std::abs(parsed.dz - grid.dz) < tolerance);
    QCOMPARE(parsed.nx(), grid.nx());
    QCOMPARE(parsed.nz(), grid.nz());
    // Written for people: the shortest text that reads back exactly, not metres * 1e3 printed
    // in full (7.363e-3 * 1e3 prints as 7.3629999999999995).
    const ImagingGrid verasonics{-18.923e-3, 18.923e-3, 0.148e-3, 7.363e-3, 44.326e-3, 0.037e-3};
    QCOMPARE(verasonics.toMillimetreString(),
             std::string("-18.923:18.923:0.148,7.363:44.326:0.037"));
  }

  void rejectsMalformedGrids_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("needle");
    QTest::newRow("empty") << ""
                           << "two axes";
    QTest::newRow("one axis") << "0:10:0.1"
                              << "two axes";
    QTest::newRow("three axes") << "0:1:0.1,0:1:0.1,0:1:0.1"
                                << "two axes";
    QTest::newRow("two values") << "0:10,0:10:0.1"
                                << "axis x";
    QTest::newRow("not a number") << "0:abc:0.1,0:10:0.1"
                                  << "x1 'abc'";
    QTest::newRow("trailing junk") << "0:10:0.1mm,0:10:0.1"
                                   << "dx";
    QTest::newRow("zero step") << "0:10:0,0:10:0.1"
                               << "dx must be > 0";
    QTest::newRow("negative step") << "0:10:0.1,0:10:-0.1"
                                   << "dz must be > 0";
    QTest::newRow("reversed") << "10:0:0.1,0:10:0.1"
                              << "x1 must be >= x0";
    QTest::newRow("reversed depth") << "0:10:0.1,10:5:0.1"
                                    << "z1 must be >= z0";
    QTest::newRow("infinite") << "0:inf:0.1,0:10:0.1"
                              << "finite";
  }
  void rejectsMalformedGrids() {
    QFETCH(QString, text);
    QFETCH(QString, needle);
    std::string message;
    QVERIFY2(
        throwsInvalidArgumentMentioning([&] { ImagingGrid::parseMillimetres(text.toStdString()); },
                                        needle.toStdString(), &message),
        message.c_str());
  }

  void defaultsFollowTheAcquisition() {
    auto acq = cineflow::test::makePlaneWaveAcquisition(128, 3, 2048);  // pitch 0.3 mm
    const double lambda = acq.wavelengthM();
    const ImagingParams params = ImagingParams::defaultsFor(acq);
    QVERIFY(std::abs(params.grid.x0 - acq.elementXM.front()) < 1e-15);
    QVERIFY(std::abs(params.grid.x1 - acq.elementXM.back()) < 1e-15);
    QVERIFY(std::abs(params.grid.dx - lambda / 2) < 1e-15);
    QVERIFY(std::abs(params.grid.dz - lambda / 8) < 1e-15);
    QVERIFY(std::abs(params.grid.z0 - 5e-3) < 1e-15);
    const double lastDepth = 1540.0 * (2047 / 20e6) / 2;
    QVERIFY(std::abs(params.grid.z1 - lastDepth) < 1e-12);
    QCOMPARE(params.fNumber, 1.5);
    QCOMPARE(params.firTaps, 65);
    QCOMPARE(params.bandLowRel, 0.0);  // derived from the acquisition's bandwidth
    QCOMPARE(params.bandHighRel, 0.0);
    QCOMPARE(params.rfUpsampling, 0);
    {
      cineflow::acquire::AcquisitionParams unknown = acq;
      unknown.fractionalBandwidth = 0;  // [0.5, 1.5] f0; 8 samples per period of 7.5 MHz at 20 MHz
      QVERIFY(params.rfBandFor(unknown) == std::make_pair(0.5, 1.5));
      QCOMPARE(params.rfUpsamplingFor(unknown), 3);
      unknown.fractionalBandwidth = 0.6;  // [0.7, 1.3] f0: 6.5 MHz needs 2.6 x 20 MHz
      const auto [low, high] = params.rfBandFor(unknown);
      QVERIFY(std::abs(low - 0.7) < 1e-12 && std::abs(high - 1.3) < 1e-12);
      QCOMPARE(params.rfUpsamplingFor(unknown), 3);
      ImagingParams fixed = params;
      fixed.bandLowRel = 0.4;
      fixed.bandHighRel = 0.9;  // 4.5 MHz: 1.8 x 20 MHz
      QVERIFY(fixed.rfBandFor(unknown) == std::make_pair(0.4, 0.9));
      QCOMPARE(fixed.rfUpsamplingFor(unknown), 2);
      fixed.rfUpsampling = 1;
      QCOMPARE(fixed.rfUpsamplingFor(unknown), 1);
    }
    QCOMPARE(params.grid.nx(), 248);  // 38.1 mm at lambda/2 = 0.154 mm
    params.validate(acq);

    acq.t0S = 10e-6;  // first sample at 7.7 mm: nothing shallower is imaged
    const ImagingParams deep = ImagingParams::defaultsFor(acq);
    QVERIFY(std::abs(deep.grid.z0 - 1540.0 * 10e-6 / 2) < 1e-15);
    QVERIFY(std::abs(deep.grid.z1 - 1540.0 * (10e-6 + 2047 / 20e6) / 2) < 1e-12);
  }

  // 2048 samples at 20 MHz, c = 1540 m/s: the recording ends at 78.8 mm. A grid to 500 mm is said
  // to be mostly past it (by the fraction of its rows below); one ending within 5 % of its span
  // past it, or above it, is not.
  void gridPastTheDataIsSaid() {
    const auto acq = cineflow::test::makePlaneWaveAcquisition(128, 3, 2048);
    const double deepest = 1540.0 * (2047 / 20e6) / 2;
    QVERIFY(std::abs(ImagingParams::recordedDepthM(acq) - deepest) < 1e-12);
    ImagingParams params = ImagingParams::defaultsFor(acq);
    QVERIFY(params.gridPastDataNotice(acq).empty());
    params.grid.z0 = 40e-3;
    params.grid.z1 = 500e-3;
    const std::string notice = params.gridPastDataNotice(acq);
    QVERIFY2(notice.find("500.0 mm") != std::string::npos, notice.c_str());
    QVERIFY2(notice.find("78.8 mm") != std::string::npos, notice.c_str());
    const int below = static_cast<int>(std::lround((500e-3 - deepest) / (460e-3) * 100));
    QVERIFY2(notice.find(std::to_string(below) + " %") != std::string::npos, notice.c_str());
    params.grid.z1 = deepest + 0.04 * (deepest - 40e-3);  // within the tolerance
    QVERIFY(params.gridPastDataNotice(acq).empty());
    params.grid.z0 = 100e-3;  // wholly below: every row
    params.grid.z1 = 120e-3;
    QVERIFY2(params.gridPastDataNotice(acq).find("100 %") != std::string::npos,
             params.gridPastDataNotice(acq).c_str());
  }

  void geometryMatchesTheGrid() {
    ImagingParams params;
    params.grid = ImagingGrid::parseMillimetres("-5:5:0.5,2:4:0.25");
    const auto geometry = params.geometry();
    QCOMPARE(geometry.nx, 21);
    QCOMPARE(geometry.nz, 9);
    QCOMPARE(geometry.x0, params.grid.x0);
    QCOMPARE(geometry.dx, params.grid.dx);
    QCOMPARE(geometry.z0, params.grid.z0);
    QCOMPARE(geometry.dz, params.grid.dz);
    QCOMPARE(geometry.pixels(), std::size_t{189});
  }

  void validateNamesTheBadParameter_data() {
    QTest::addColumn<int>("which");
    QTest::addColumn<QString>("needle");
    QTest::newRow("negative dx") << 0 << "dx and dz must be > 0";
    QTest::newRow("nan z1") << 1 << "non-finite";
    QTest::newRow("reversed x") << 2 << "runs backwards laterally";
    QTest::newRow("too many pixels") << 3 << "at most 16.8 M (2^24)";
    QTest::newRow("f-number small") << 4 << "fNumber";
    QTest::newRow("f-number large") << 5 << "[0.1, 20]";
    QTest::newRow("even taps") << 6 << "firTaps 64 must be odd";
    QTest::newRow("taps too many") << 7 << "[3, 511]";
    QTest::newRow("band reversed") << 8 << "bandLowRel < bandHighRel";
    QTest::newRow("band low zero") << 9 << "0 < bandLowRel";
    QTest::newRow("band above nyquist") << 10 << "0.98 x fs / 2";
    QTest::newRow("negative depth") << 11 << "z0 must be >= 0";
  }
  // Numbers in the messages read as people write them: no binary round-off digits, no raw
  // counts with six decimals.
  void validateMessagesReadAsNumbersForPeople() {
    const auto acq = cineflow::test::makePlaneWaveAcquisition(64, 1, 1024);
    ImagingParams params = ImagingParams::defaultsFor(acq);
    params.grid.x0 = -19.049999999999997e-3;
    params.grid.x1 = -20e-3;
    std::string message;
    QVERIFY(throwsInvalidArgumentMentioning([&] { params.validate(acq); }, "x -19 to -20 step",
                                            &message));
    QVERIFY2(message.find("19.04999") == std::string::npos, message.c_str());
    QVERIFY2(message.find("x1") == std::string::npos, message.c_str());  // words, not symbols

    params = ImagingParams::defaultsFor(acq);
    params.grid.dz = -0.0;  // a box showing "-0.00"
    QVERIFY(throwsInvalidArgumentMentioning([&] { params.validate(acq); }, "dz 0 mm", &message));

    params = ImagingParams::defaultsFor(acq);
    params.grid.x0 = -40e-3;
    params.grid.x1 = 40e-3;
    params.grid.z0 = 0;
    params.grid.z1 = 70e-3;
    params.grid.dx = params.grid.dz = 1e-5;  // 8001 x 7001 = 56.0 M pixels
    QVERIFY(throwsInvalidArgumentMentioning([&] { params.validate(acq); }, "has 56 M pixels",
                                            &message));
    QVERIFY2(message.find(".000000") == std::string::npos, message.c_str());
  }

  void validateNamesTheBadParameter() {
    QFETCH(int, which);
    QFETCH(QString, needle);
    const auto acq = cineflow::test::makePlaneWaveAcquisition(64, 1, 1024);
    ImagingParams params = ImagingParams::defaultsFor(acq);
    params.validate(acq);  // the defaults are valid
    switch (which) {
      case 0:
        params.grid.dx = -1e-4;
        break;
      case 1:
        params.grid.z1 = std::nan("");
        break;
      case 2:
        params.grid.x1 = params.grid.x0 - 1e-3;
        break;
      case 3:
        params.grid.dx = params.grid.dz = 1e-6;
        break;
      case 4:
        params.fNumber = 0.05;
        break;
      case 5:
        params.fNumber = 25;
        break;
      case 6:
        params.firTaps = 64;
        break;
      case 7:
        params.firTaps = 513;
        break;
      case 8:
        params.bandLowRel = 1.5;
        params.bandHighRel = 0.5;
        break;
      case 9:
        params.bandLowRel = 0;
        params.bandHighRel = 1.5;  // one edge given, the other not
        break;
      case 10:
        params.bandLowRel = 1.99;
        params.bandHighRel = 3;
        break;  // fs/2 = 2 f0
      case 11:
        params.grid.z0 = -1e-3;
        break;
      default:
        QFAIL("unknown case");
    }
    std::string message;
    QVERIFY2(throwsInvalidArgumentMentioning([&] { params.validate(acq); }, needle.toStdString(),
                                             &message),
             message.c_str());
  }
};

QTEST_APPLESS_MAIN(TestImagingParams)
#include "test_imaging_params.moc"
