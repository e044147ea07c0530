// The 3-D view's brick maxima (process/volume_bricks.hpp) on seeded random volumes of odd sizes
// with NaNs: equal to an independent reference that scatters every voxel into the bricks whose
// sampling reads it; and the property the ray caster relies on: trilinear sampling at random
// points inside a brick never exceeds the brick's maximum. The CPU backend's stream gives the same
// bricks as the host loops.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "compute/buffer.hpp"
#include "process/volume_bricks.hpp"

using namespace cineflow;

namespace {

std::vector<float> randomVolume(const process::VolumeShape& shape, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> db(-80.0f, 0.0f);
  std::vector<float> volume(shape.voxels());
  for (float& v : volume) {
    v = db(random);
  }
  for (std::size_t i = 0; i < volume.size(); i += 97) {
    volume[i] = std::numeric_limits<float>::quiet_NaN();  // ignored, as the MIPs ignore them
  }
  return volume;
}

// Every voxel into each brick whose extended range [8b - 1, 8b + 8] holds it, along each axis.
std::vector<float> scatterReference(const std::vector<float>& volume,
                                    const process::VolumeShape& shape) {
  const process::VolumeShape grid = process::brickShape(shape);
  std::vector<float> bricks(grid.voxels(), -std::numeric_limits<float>::infinity());
  const auto range = [](int i, int count) {
    return std::pair<int, int>{std::max(0, (i - 1) / 8), std::min(count - 1, (i + 1) / 8)};
  };
  for (int y = 0; y < shape.ny; ++y) {
    for (int z = 0; z < shape.nz; ++z) {
      for (int x = 0; x < shape.nx; ++x) {
        const float v = volume[(static_cast<std::size_t>(y) * shape.nz + z) * shape.nx + x];
        if (std::isnan(v)) {
          continue;
        }
        const auto [y0, y1] = range(y, grid.ny);
        const auto [z0, z1] = range(z, grid.nz);
        const auto [x0, x1] = range(x, grid.nx);
        for (int by = y0; by <= y1; ++by) {
          for (int bz = z0; bz <= z1; ++bz) {
            for (int bx = x0; bx <= x1; ++bx) {
              float& b = bricks[(static_cast<std::size_t>(by) * grid.nz + bz) * grid.nx + bx];
              b = std::max(b, v);
            }
          }
        }
      }
    }
  }
  return bricks;
}

// Trilinear interpolation at voxel coordinates (u, v, w) (voxel centres at integers), as GL's
// linear filtering with clamping to the edge does; NaN voxels count as -inf here.
float trilinear(const std::vector<float>& volume, const process::VolumeShape& s, double u, double v,
                double w) {
  const auto at = [&](int x, int z, int y) {
    x = std::clamp(x, 0, s.nx - 1);
    z = std::clamp(z, 0, s.nz - 1);
    y = std::clamp(y, 0, s.ny - 1);
    const float value = volume[(static_cast<std::size_t>(y) * s.nz + z) * s.nx + x];
    return std::isnan(value) ? -1e30 : static_cast<double>(value);
  };
  const int x0 = static_cast<int>(std::floor(u)), z0 = static_cast<int>(std::floor(v)),
            y0 = static_cast<int>(std::floor(w));
  const double fx = u - x0, fz = v - z0, fy = w - y0;
  double sum = 0;
  for (int dy = 0; dy < 2; ++dy) {
    for (int dz = 0; dz < 2; ++dz) {
      for (int dx = 0; dx < 2; ++dx) {
        const double weight = (dx ? fx : 1 - fx) * (dz ? fz : 1 - fz) * (dy ? fy : 1 - fy);
        if (weight > 0) {
          sum += weight * at(x0 + dx, z0 + dz, y0 + dy);
        }
      }
    }
  }
  return static_cast<float>(sum);
}

}  // namespace

class TestVolumeBricks : public QObject {
  Q_OBJECT

 private slots:
  void equalToTheScatterReference_data() {
    QTest::addColumn<int>("ny");
    QTest::addColumn<int>("nz");
    QTest::addColumn<int>("nx");
    QTest::newRow("odd") << 13 << 19 << 21;
    QTest::newRow("multiples of 8") << 16 << 24 << 8;
    QTest::newRow("one slice") << 1 << 30 << 17;
    QTest::newRow("one voxel") << 1 << 1 << 1;
  }
  void equalToTheScatterReference() {
    QFETCH(int, ny);
    QFETCH(int, nz);
    QFETCH(int, nx);
    const process::VolumeShape shape{ny, nz, nx};
    const std::vector<float> volume = randomVolume(shape, 20261127u + ny);
    std::vector<float> bricks(process::brickShape(shape).voxels());
    process::brickMaximaHost(volume.data(), shape, bricks.data());
    QCOMPARE(bricks, scatterReference(volume, shape));
  }

  void samplingInsideABrickNeverExceedsItsMaximum() {
    const process::VolumeShape shape{13, 19, 21};
    const std::vector<float> volume = randomVolume(shape, 5);
    const process::VolumeShape grid = process::brickShape(shape);
    std::vector<float> bricks(grid.voxels());
    process::brickMaximaHost(volume.data(), shape, bricks.data());
    std::mt19937 random(99);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (int i = 0; i < 20000; ++i) {
      // A texture coordinate, and the voxel coordinate GL's linear filter reads there.
      const double s = unit(random), t = unit(random), r = unit(random);
      // The brick the shader takes for it: voxel coordinate / 8 (shaders/volume.frag).
      const int bx = std::min(static_cast<int>(s * shape.nx / 8), grid.nx - 1);
      const int bz = std::min(static_cast<int>(t * shape.nz / 8), grid.nz - 1);
      const int by = std::min(static_cast<int>(r * shape.ny / 8), grid.ny - 1);
      const float sampled =
          trilinear(volume, shape, s * shape.nx - 0.5, t * shape.nz - 0.5, r * shape.ny - 0.5);
      const float maximum = bricks[(static_cast<std::size_t>(by) * grid.nz + bz) * grid.nx + bx];
      QVERIFY2(
          sampled <= maximum + 1e-4f,
          qPrintable(QStringLiteral("sample %1 above brick maximum %2").arg(sampled).arg(maximum)));
    }
  }

  void theCpuStreamGivesTheHostLoopsBricks() {
    const process::VolumeShape shape{9, 17, 33};
    const std::vector<float> volume = randomVolume(shape, 17);
    std::vector<float> expected(process::brickShape(shape).voxels());
    process::brickMaximaHost(volume.data(), shape, expected.data());
    const auto backend = compute::createBackend(compute::BackendRequest::Cpu);
    compute::DeviceBuffer<float> in(*backend, volume.size());
    compute::DeviceBuffer<float> out(*backend, expected.size());
    std::vector<float> result(expected.size(), -1.0f);
    auto stream = backend->createStream("bricks-test");
    stream->copyAsync(in.data(), volume.data(), in.bytes());
    process::enqueueBrickMaxima(*stream, backend->kind(), {in.data(), in.size()}, shape,
                                out.view());
    stream->copyAsync(result.data(), out.data(), out.bytes());
    stream->synchronize();
    QCOMPARE(result, expected);
    QVERIFY_THROWS_EXCEPTION(
        std::invalid_argument,
        process::enqueueBrickMaxima(*stream, backend->kind(), {in.data(), in.size() - 1}, shape,
                                    out.view()));
  }
};

QTEST_APPLESS_MAIN(TestVolumeBricks)
#include "test_volume_bricks.moc"
