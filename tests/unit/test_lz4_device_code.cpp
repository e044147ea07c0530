// The GPU decoder's per-block code (process/cuda/lz4_device.hpp), compiled for the host and run
// against liblz4 and the CPU decoder (process/bitshuffle_lz4.hpp) on seeded random frames, as
// test_device_code does for the imaging kernels:
//   - every LZ4 block of our chunks decodes to liblz4's bytes, and the blocks unshuffled group by
//     group give the CPU decoder's frame, bit exact;
//   - blocks with random bytes corrupted, truncated or cut short either decode to the block's
//     size or return an error code, never touching memory outside the two buffers (the buffers
//     here are exactly sized, so AddressSanitizer builds catch any stray access).

#include <lz4.h>

#include <QtTest>

#include <cmath>
#include <cstring>
#include <vector>

#include "process/bitshuffle_lz4.hpp"
#include "process/cuda/lz4_device.hpp"
#include "support/test_random.hpp"

using namespace cineflow;

namespace {

std::vector<std::byte> smoothFrame(test::SeededRandom& random, std::size_t elements,
                                   std::size_t elementBytes) {
  std::vector<std::byte> frame(elements * elementBytes);
  for (std::size_t i = 0; i < elements; ++i) {
    const auto value = static_cast<std::uint64_t>(
        3000.0 + 2000.0 * std::sin(0.003 * static_cast<double>(i)) + random.integer(0, 31));
    std::memcpy(frame.data() + i * elementBytes, &value, elementBytes);
  }
  return frame;
}

}  // namespace

class TestLz4DeviceCode : public QObject {
  Q_OBJECT

 private slots:
  void blocksDecodeAsLiblz4AndTheCpuDecoder_data() {
    QTest::addColumn<int>("elements");
    QTest::addColumn<int>("elementBytes");
    QTest::newRow("uint16 spectra, 2 full blocks and a partial one") << 2 * 4096 + 1000 << 2;
    QTest::newRow("float32, with a tail of 5") << 3 * 2048 + 13 << 4;
    QTest::newRow("int16 RF, one block") << 4096 << 2;
  }

  void blocksDecodeAsLiblz4AndTheCpuDecoder() {
    QFETCH(int, elements);
    QFETCH(int, elementBytes);
    const auto s = static_cast<std::size_t>(elementBytes);
    test::SeededRandom random(static_cast<std::uint64_t>(elements));
    const auto frame = smoothFrame(random, static_cast<std::size_t>(elements), s);
    std::vector<std::byte> chunk, expected(frame.size());
    process::ChunkScratch scratch;
    process::encodeBitshuffleLz4(frame, s, chunk);
    process::decodeBitshuffleLz4(chunk, s, expected, scratch);
    QVERIFY(expected == frame);

    process::ChunkLayout layout;
    process::readChunkLayout(chunk, s, frame.size(), layout);
    std::vector<std::uint8_t> decoded(frame.size());
    std::size_t at = 0;
    for (const process::ChunkLayout::Block& block : layout.blocks) {
      const auto* src = reinterpret_cast<const std::uint8_t*>(chunk.data() + block.offset);
      std::vector<std::uint8_t> device(block.decodedBytes), reference(block.decodedBytes);
      QCOMPARE(
          process::cuda::lz4DecodeBlock(src, block.compressedBytes, device.data(), device.size()),
          static_cast<std::int64_t>(block.decodedBytes));
      QCOMPARE(LZ4_decompress_safe(
                   reinterpret_cast<const char*>(src), reinterpret_cast<char*>(reference.data()),
                   static_cast<int>(block.compressedBytes), static_cast<int>(reference.size())),
               static_cast<int>(block.decodedBytes));
      QVERIFY(device == reference);
      const std::size_t blockElements = block.decodedBytes / s;
      for (std::size_t group = 0; group < blockElements / 8; ++group) {
        for (std::size_t j = 0; j < s; ++j) {
          process::cuda::unshuffleGroupByte(device.data(), decoded.data() + at, blockElements, s,
                                            group, j);
        }
      }
      at += block.decodedBytes;
    }
    std::memcpy(decoded.data() + at, chunk.data() + layout.tailOffset, layout.tailBytes);
    QVERIFY(std::memcmp(decoded.data(), frame.data(), frame.size()) == 0);
  }

  void damagedBlocksNeverReachPastTheirBuffers() {
    test::SeededRandom random(5);
    const auto frame = smoothFrame(random, 4096, 2);
    std::vector<std::byte> chunk;
    process::encodeBitshuffleLz4(frame, 2, chunk);
    process::ChunkLayout layout;
    process::readChunkLayout(chunk, 2, frame.size(), layout);
    const process::ChunkLayout::Block block = layout.blocks.front();
    int errors = 0, whole = 0;
    for (int trial = 0; trial < 300; ++trial) {
      // Exactly sized copies: an access past either end is a heap overflow under ASan.
      std::size_t size = block.compressedBytes;
      if (trial % 3 == 1) {
        size = static_cast<std::size_t>(random.integer(1, static_cast<std::int64_t>(size)));
      }
      std::vector<std::uint8_t> src(size);
      std::memcpy(src.data(), chunk.data() + block.offset, size);
      for (int flips = 0; flips < 1 + trial % 7; ++flips) {
        src[static_cast<std::size_t>(random.integer(0, static_cast<std::int64_t>(size) - 1))] =
            static_cast<std::uint8_t>(random.integer(0, 255));
      }
      std::vector<std::uint8_t> dst(trial % 5 == 4 ? block.decodedBytes / 2 : block.decodedBytes);
      const std::int64_t result =
          process::cuda::lz4DecodeBlock(src.data(), src.size(), dst.data(), dst.size());
      QVERIFY2(result < 0 || result == static_cast<std::int64_t>(dst.size()),
               qPrintable(QString::number(result)));
      (result < 0 ? errors : whole) += 1;
    }
    qInfo(
        "300 damaged blocks: %d refused, %d decoded to their size (a flipped literal cannot "
        "be seen: LZ4 has no checksum)",
        errors, whole);
    QVERIFY(errors > 100);
  }
};

QTEST_APPLESS_MAIN(TestLz4DeviceCode)
#include "test_lz4_device_code.moc"
