// MIPs on the CPU backend against the plain triple loop, bit for bit (a maximum is exact), on
// seeded random volumes of awkward sizes (one slice, one row, sizes that are not multiples of any
// block), with a NaN that must be ignored; lines of NaN and of signed zeros, whose signs must
// survive (std::signbit: -0.0f == 0.0f, so comparing values cannot see them); and the stage's
// refusals.
#include <QtTest>

#include <cmath>
#include <limits>
#include <tuple>

#include "compute/buffer.hpp"
#include "process/mip.hpp"
#include "support/mip_reference.hpp"

using namespace cineflow;

class TestMip : public QObject {
  Q_OBJECT

  std::unique_ptr<compute::Backend> cpu_ = compute::createBackend(compute::BackendRequest::Cpu);

 private slots:
  void matchesTheDefinition_data() {
    QTest::addColumn<int>("ny");
    QTest::addColumn<int>("nz");
    QTest::addColumn<int>("nx");
    QTest::newRow("5 x 37 x 33") << 5 << 37 << 33;
    QTest::newRow("one slice") << 1 << 40 << 17;
    QTest::newRow("one depth") << 6 << 1 << 29;
    QTest::newRow("one column") << 4 << 65 << 1;
    QTest::newRow("16 x 300 x 120") << 16 << 300 << 120;
  }

  void matchesTheDefinition() {
    QFETCH(int, ny);
    QFETCH(int, nz);
    QFETCH(int, nx);
    const process::VolumeShape shape{ny, nz, nx};
    std::vector<float> volume = test::randomVolume(shape, 2024 + ny * 7 + nz);
    volume[volume.size() / 2] = std::numeric_limits<float>::quiet_NaN();
    const test::Mips expected = test::referenceMips(volume, shape);
    // Every CPU variant ("two-pass", "one-pass"), the default last.
    for (std::size_t v : {std::size_t{1}, std::size_t{0}}) {
      const test::Mips other = test::runMips(*cpu_, volume, shape, v);
      QVERIFY2(test::identical(other.alongY, expected.alongY), qPrintable(QString::number(v)));
      QVERIFY2(test::identical(other.alongZ, expected.alongZ), qPrintable(QString::number(v)));
      QVERIFY2(test::identical(other.alongX, expected.alongX), qPrintable(QString::number(v)));
    }
    const test::Mips actual = test::runMips(*cpu_, volume, shape);
    // The bright voxels show in every projection: each one's value is a maximum somewhere.
    const float brightest = *std::max_element(expected.alongY.begin(), expected.alongY.end());
    QVERIFY(brightest >= 1.0f);
    QCOMPARE(*std::max_element(actual.alongZ.begin(), actual.alongZ.end()), brightest);
    QCOMPARE(*std::max_element(actual.alongX.begin(), actual.alongX.end()), brightest);
  }

  void keepsNanLinesAndSignsOfZero() {
    const process::VolumeShape shape{8, 9, 11};
    std::vector<float> volume = test::randomVolume(shape, 31);
    const auto at = [&](int y, int z, int x) -> float& {
      return volume[(static_cast<std::size_t>(y) * shape.nz + static_cast<std::size_t>(z)) *
                        shape.nx +
                    static_cast<std::size_t>(x)];
    };
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (int z = 0; z < shape.nz; ++z) {
      at(1, z, 2) = nan;                         // along z: all NaN
      at(2, z, 3) = -0.0f;                       // along z: all -0
      at(3, z, 4) = z == 5 ? 0.0f : -1.0f - z;   // along z: +0 among negatives
      at(4, z, 5) = z == 5 ? -0.0f : -1.0f - z;  // along z: -0 among negatives
      at(5, z, 6) = z == 5 ? -0.0f : nan;        // along z: -0 among NaN
      // Along z: both zeros among negatives, -0 first and +0 first: +0 either way (maximumNumber
      // orders the zeros, so the answer cannot depend on the order a reduction meets them).
      at(6, z, 7) = z == 2 ? -0.0f : z == 7 ? 0.0f : -1.0f - z;
      at(7, z, 8) = z == 2 ? 0.0f : z == 7 ? -0.0f : -1.0f - z;
    }
    const test::Mips expected = test::referenceMips(volume, shape);
    for (std::size_t v : {std::size_t{1}, std::size_t{0}}) {  // the one-pass variant too
      const test::Mips other = test::runMips(*cpu_, volume, shape, v);
      QVERIFY2(test::identical(other.alongY, expected.alongY), qPrintable(QString::number(v)));
      QVERIFY2(test::identical(other.alongZ, expected.alongZ), qPrintable(QString::number(v)));
      QVERIFY2(test::identical(other.alongX, expected.alongX), qPrintable(QString::number(v)));
    }
    const test::Mips actual = test::runMips(*cpu_, volume, shape);
    const auto alongZ = [&](int y, int x) { return actual.alongZ[y * shape.nx + x]; };
    QVERIFY(std::isnan(alongZ(1, 2)));
    for (const auto& [y, x, negative] :
         {std::tuple{2, 3, true}, std::tuple{3, 4, false}, std::tuple{4, 5, true},
          std::tuple{5, 6, true}, std::tuple{6, 7, false}, std::tuple{7, 8, false}}) {
      QCOMPARE(alongZ(y, x), 0.0f);
      QVERIFY2(std::signbit(alongZ(y, x)) == negative,
               qPrintable(QString("max along z at y %1, x %2 is %3 0")
                              .arg(y)
                              .arg(x)
                              .arg(std::signbit(alongZ(y, x)) ? "-" : "+")));
    }
    // The comparison itself tells the signs apart.
    QVERIFY(!test::identical({-0.0f}, {0.0f}));
    QVERIFY(test::identical({nan, -0.0f}, {nan, -0.0f}));
  }

  void variantsAreNamedAndChecked() {
    process::MipProjector projector;
    QVERIFY_THROWS_EXCEPTION(std::logic_error, projector.selectVariant(0));
    projector.configure(*cpu_, {2, 3, 4});
    QCOMPARE(projector.variants(), (std::vector<std::string>{"two-pass", "one-pass"}));
    projector.selectVariant(1);
    QCOMPARE(projector.variant(), std::size_t{1});
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, projector.selectVariant(2));
  }

  void refusesBadShapesAndSpans() {
    process::MipProjector projector;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, projector.configure(*cpu_, {0, 10, 10}));
    compute::DeviceBuffer<float> volume(*cpu_, 2 * 3 * 4), y(*cpu_, 12), z(*cpu_, 8), x(*cpu_, 6);
    auto stream = cpu_->createStream("mip");
    const compute::DeviceSpan<const float> in(volume.data(), volume.size());
    QVERIFY_THROWS_EXCEPTION(std::logic_error,
                             projector.enqueue(*stream, in, y.view(), z.view(), x.view()));
    projector.configure(*cpu_, {2, 3, 4});
    projector.enqueue(*stream, in, y.view(), z.view(), x.view());
    // The projections swapped: sizes 8 and 6 where 12 and 8 belong.
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             projector.enqueue(*stream, in, z.view(), x.view(), y.view()));
    stream->synchronize();
  }
};

QTEST_GUILESS_MAIN(TestMip)
#include "test_mip.moc"
