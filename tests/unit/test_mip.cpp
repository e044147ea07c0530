// MIPs on the CPU backend against the plain triple loop, bit for bit (a maximum is exact), on
// seeded random volumes of awkward sizes (one slice, one row, sizes that are not multiples of any
// block), with a NaN that must be ignored; and the stage's refusals.
#include <QtTest>

#include <cmath>
#include <limits>

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
    const test::Mips actual = test::runMips(*cpu_, volume, shape);
    QVERIFY(test::identical(actual.alongY, expected.alongY));
    QVERIFY(test::identical(actual.alongZ, expected.alongZ));
    QVERIFY(test::identical(actual.alongX, expected.alongX));
    // The bright voxels show in every projection: each one's value is a maximum somewhere.
    const float brightest = *std::max_element(expected.alongY.begin(), expected.alongY.end());
    QVERIFY(brightest >= 1.0f);
    QCOMPARE(*std::max_element(actual.alongZ.begin(), actual.alongZ.end()), brightest);
    QCOMPARE(*std::max_element(actual.alongX.begin(), actual.alongX.end()), brightest);
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
