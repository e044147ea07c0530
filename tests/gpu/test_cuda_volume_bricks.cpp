// The brick maxima kernel (process/cuda/volume_bricks.cu) against the host loops
// (process/volume_bricks.cpp), bit for bit, on seeded random volumes with NaNs and sizes that are
// not multiples of the brick; skipped without a CUDA device.
#include <QtTest>

#include <limits>
#include <random>
#include <vector>

#include "cuda_test_support.hpp"
#include "process/volume_bricks.hpp"

using namespace cineflow;

class TestCudaVolumeBricks : public QObject {
  Q_OBJECT

 private:
  std::string cudaSkipReason_;
  std::unique_ptr<compute::Backend> cuda_ = test::cudaBackendOrReason(cudaSkipReason_);

 private slots:
  void equalToTheHostLoops_data() {
    QTest::addColumn<int>("ny");
    QTest::addColumn<int>("nz");
    QTest::addColumn<int>("nx");
    QTest::newRow("odd") << 13 << 190 << 77;
    QTest::newRow("an OCT volume") << 64 << 512 << 256;
    QTest::newRow("one slice") << 1 << 40 << 300;
  }
  void equalToTheHostLoops() {
    CINEFLOW_REQUIRE_CUDA(cuda_);
    QFETCH(int, ny);
    QFETCH(int, nz);
    QFETCH(int, nx);
    const process::VolumeShape shape{ny, nz, nx};
    std::mt19937 random(static_cast<unsigned>(ny * 1000 + nx));
    std::uniform_real_distribution<float> db(-80.0f, 0.0f);
    std::vector<float> volume(shape.voxels());
    for (float& v : volume) {
      v = db(random);
    }
    for (std::size_t i = 0; i < volume.size(); i += 101) {
      volume[i] = std::numeric_limits<float>::quiet_NaN();
    }
    std::vector<float> expected(process::brickShape(shape).voxels());
    process::brickMaximaHost(volume.data(), shape, expected.data());
    const std::vector<float> result = test::runStage<float>(
        *cuda_, volume, expected.size(),
        [&](compute::Stream& stream, compute::DeviceSpan<const float> in,
            compute::DeviceSpan<float> out) {
          process::enqueueBrickMaxima(stream, compute::BackendKind::Cuda, in, shape, out);
        });
    QCOMPARE(result, expected);
  }
};

QTEST_APPLESS_MAIN(TestCudaVolumeBricks)
#include "test_cuda_volume_bricks.moc"
