// The received images' levels stage on CUDA against its CPU twin (received/cpu/levels.hpp), through
// the ReceivedProcessor from raw pixels to the dB image: every pixel type, the type's full range,
// levels set by hand (inverted too) and values as dB, on seeded random pixels that include each
// type's extremes, for an image larger than the kernel's grid (so its grid-stride loop runs more
// than once) and one of an odd size. Both twins compute scale * float(v) + offset in float; the
// device may fuse the multiply and the add, which changes the result by at most one rounding of
// the product: the tolerance is the float spacing at the largest |scale * v| of the case.
#include <QtTest>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "compute/buffer.hpp"
#include "cuda_test_support.hpp"
#include "received/received_processor.hpp"

using namespace cineflow;

namespace {

// Seeded random pixels of `pixel` as little-endian bytes; the first and last pixels are the
// type's lowest and highest values (float32: -120 and +20 dB).
std::vector<std::byte> randomPixels(received::PixelType pixel, std::size_t count,
                                    std::uint32_t seed) {
  std::mt19937 random(seed);
  std::vector<std::byte> bytes(count * received::bytesOf(pixel));
  const auto put = [&](std::size_t i, auto value) {
    std::memcpy(bytes.data() + i * sizeof(value), &value, sizeof(value));
  };
  const auto fill = [&](auto lowest, auto highest) {
    using T = decltype(lowest);
    if constexpr (std::is_floating_point_v<T>) {
      std::uniform_real_distribution<T> values(lowest, highest);
      for (std::size_t i = 0; i < count; ++i) {
        put(i, values(random));
      }
    } else {
      std::uniform_int_distribution<int> values(lowest, highest);
      for (std::size_t i = 0; i < count; ++i) {
        put(i, static_cast<T>(values(random)));
      }
    }
    put(0, lowest);
    put(count - 1, highest);
  };
  switch (pixel) {
    case received::PixelType::UInt8:
      fill(std::uint8_t{0}, std::uint8_t{255});
      break;
    case received::PixelType::Int8:
      fill(std::int8_t{-128}, std::int8_t{127});
      break;
    case received::PixelType::UInt16:
      fill(std::uint16_t{0}, std::uint16_t{65535});
      break;
    case received::PixelType::Int16:
      fill(std::int16_t{-32768}, std::int16_t{32767});
      break;
    case received::PixelType::Float32:
      fill(-120.0f, 20.0f);
      break;
  }
  return bytes;
}

// Pixel `i` of `bytes` as a number.
double valueAt(received::PixelType pixel, const std::vector<std::byte>& bytes, std::size_t i) {
  const auto read = [&](auto value) {
    std::memcpy(&value, bytes.data() + i * sizeof(value), sizeof(value));
    return static_cast<double>(value);
  };
  switch (pixel) {
    case received::PixelType::UInt8:
      return read(std::uint8_t{});
    case received::PixelType::Int8:
      return read(std::int8_t{});
    case received::PixelType::UInt16:
      return read(std::uint16_t{});
    case received::PixelType::Int16:
      return read(std::int16_t{});
    case received::PixelType::Float32:
      break;
  }
  return read(float{});
}

// The dB image `backend` makes of `raw`, through the processor.
std::vector<float> shownOn(compute::Backend& backend, const received::ReceivedFormat& format,
                           const received::ReceivedLevels& levels,
                           const std::vector<std::byte>& raw) {
  received::ReceivedProcessor processor;
  processor.configure(backend, format, levels);
  return test::processFrame(backend, processor, raw, acquire::FrameHeader{});
}

}  // namespace

class TestCudaReceived : public QObject {
  Q_OBJECT

  std::string cudaSkipReason_;
  std::unique_ptr<compute::Backend> cuda_ = test::cudaBackendOrReason(cudaSkipReason_);
  std::unique_ptr<compute::Backend> cpu_ = compute::createBackend(compute::BackendRequest::Cpu);

 private slots:
  void cudaMatchesTheCpuTwin_data() {
    QTest::addColumn<int>("pixel");
    QTest::addColumn<QString>("levels");
    QTest::addColumn<int>("cols");
    QTest::addColumn<int>("rows");
    using P = received::PixelType;
    // 1100 x 1000 pixels: more than the kernel's 4096 blocks of 256 threads cover at once.
    QTest::newRow("uint8 full, large") << int(P::UInt8) << "full" << 1100 << 1000;
    QTest::newRow("uint8 inverted, odd") << int(P::UInt8) << "200,10" << 97 << 61;
    QTest::newRow("int8 full, odd") << int(P::Int8) << "full" << 97 << 61;
    QTest::newRow("uint16 full, large") << int(P::UInt16) << "full" << 1100 << 1000;
    QTest::newRow("uint16 by hand, odd") << int(P::UInt16) << "1000,40000" << 97 << 61;
    QTest::newRow("int16 full, odd") << int(P::Int16) << "full" << 97 << 61;
    QTest::newRow("float32 as dB, large") << int(P::Float32) << "db" << 1100 << 1000;
    QTest::newRow("float32 as levels, odd") << int(P::Float32) << "-80,0" << 97 << 61;
  }

  void cudaMatchesTheCpuTwin() {
    CINEFLOW_REQUIRE_CUDA(cuda_);
    QFETCH(int, pixel);
    QFETCH(QString, levels);
    QFETCH(int, cols);
    QFETCH(int, rows);
    received::ReceivedFormat format;
    format.cols = cols;
    format.rows = rows;
    format.pixel = static_cast<received::PixelType>(pixel);
    format.dxM = format.dzM = 1e-4;
    const received::ReceivedLevels map =
        received::ReceivedLevels::parse(levels.toStdString(), format.pixel);
    const std::vector<std::byte> raw =
        randomPixels(format.pixel, format.pixels(), static_cast<std::uint32_t>(pixel * 31 + cols));
    const std::vector<float> onCpu = shownOn(*cpu_, format, map, raw);
    const std::vector<float> onCuda = shownOn(*cuda_, format, map, raw);
    QCOMPARE(onCuda.size(), onCpu.size());
    double largest = 0;  // |v| over the image
    for (std::size_t i = 0; i < format.pixels(); ++i) {
      largest = std::max(largest, std::abs(valueAt(format.pixel, raw, i)));
    }
    const auto product = static_cast<float>(std::abs(received::LevelMap::of(map).scale) * largest);
    const float tolerance =
        std::nextafter(product, std::numeric_limits<float>::infinity()) - product;
    double worst = 0;
    for (std::size_t i = 0; i < onCpu.size(); ++i) {
      QVERIFY2(std::isfinite(onCuda[i]), qPrintable(QStringLiteral("pixel %1 not written").arg(i)));
      worst = std::max(worst, static_cast<double>(std::abs(onCuda[i] - onCpu[i])));
    }
    QVERIFY2(worst <= tolerance,
             qPrintable(
                 QStringLiteral("largest difference %1 dB, allowed %2").arg(worst).arg(tolerance)));
  }
};

QTEST_GUILESS_MAIN(TestCudaReceived)
#include "test_cuda_received.moc"
