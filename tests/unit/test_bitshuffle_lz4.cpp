// Bitshuffle + LZ4 chunks (process/bitshuffle_lz4.hpp, HDF5 filter 32008):
//   - the bit shuffle against its definition, bit by bit, for 1- to 8-byte elements;
//   - round trips of seeded random frames (sizes with partial blocks and tails, smooth signals
//     and noise), bit exact;
//   - chunks written by the bitshuffle project's own filter through h5py
//     (tests/data/make_bitshuffle_reference.py) decode to the values stored beside them;
//   - our chunks decode through HDF5's own filter pipeline when the bitshuffle plugin is
//     installed (Debian's bitshuffle package), an independent decoder;
//   - damaged chunks are refused with the reason.

#include <hdf5.h>

#include <QtTest>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "process/bitshuffle_lz4.hpp"
#include "support/recording_fixtures.hpp"
#include "support/test_random.hpp"

using namespace cineflow;

namespace {

std::vector<std::byte> randomFrame(test::SeededRandom& random, std::size_t elements,
                                   std::size_t elementBytes, bool smooth) {
  std::vector<std::byte> data(elements * elementBytes);
  for (std::size_t i = 0; i < elements; ++i) {
    // Smooth frames compress (the high bits repeat); noise does not, and must round-trip too.
    const auto value = static_cast<std::uint64_t>(
        smooth
            ? 1000.0 * (1.0 + std::sin(0.01 * static_cast<double>(i))) + random.integer(0, 7)
            : static_cast<double>(random.integer(0, 1 << 30)) * 4096.0 + random.integer(0, 4095));
    std::memcpy(data.data() + i * elementBytes, &value, elementBytes);  // little-endian host
  }
  return data;
}

std::string refusal(std::span<const std::byte> chunk, std::size_t elementBytes,
                    std::size_t decodedBytes) {
  std::vector<std::byte> out(decodedBytes);
  process::ChunkScratch scratch;
  try {
    process::decodeBitshuffleLz4(chunk, elementBytes, out, scratch);
  } catch (const process::ChunkError& error) {
    return error.what();
  }
  return {};
}

}  // namespace

class TestBitshuffleLz4 : public QObject {
  Q_OBJECT

 private slots:
  void shuffleMovesEveryBitWhereTheDefinitionSays() {
    test::SeededRandom random(7);
    for (const std::size_t elementBytes : {1u, 2u, 4u, 8u}) {
      const std::size_t elements = 64;
      const auto in = randomFrame(random, elements, elementBytes, false);
      std::vector<std::byte> out(in.size()), back(in.size());
      process::bitshuffleBlock(in.data(), out.data(), elements, elementBytes);
      for (std::size_t i = 0; i < elements; ++i) {
        for (std::size_t j = 0; j < elementBytes; ++j) {
          for (std::size_t k = 0; k < 8; ++k) {
            const int bit = (static_cast<int>(in[i * elementBytes + j]) >> k) & 1;
            const std::size_t to = (8 * j + k) * elements / 8 + i / 8;
            QCOMPARE((static_cast<int>(out[to]) >> (i % 8)) & 1, bit);
          }
        }
      }
      process::bitunshuffleBlock(out.data(), back.data(), elements, elementBytes);
      QVERIFY(back == in);
    }
  }

  void framesRoundTripBitExact_data() {
    QTest::addColumn<int>("elements");
    QTest::addColumn<int>("elementBytes");
    QTest::addColumn<int>("blockElements");
    QTest::addColumn<bool>("smooth");
    QTest::newRow("int16 RF, several blocks, partial block, tail")
        << 3 * 4096 + 1000 + 5 << 2 << 0 << true;
    QTest::newRow("float32 RF, noise") << 2 * 2048 + 7 << 4 << 0 << false;
    QTest::newRow("uint16 spectra, one block exactly") << 4096 << 2 << 0 << true;
    QTest::newRow("fewer than 8 elements: the tail alone") << 5 << 2 << 0 << false;
    QTest::newRow("small blocks of 64") << 1000 << 2 << 64 << true;
    QTest::newRow("8-byte elements") << 777 << 8 << 0 << false;
    // No element at all: empty buffers, whose data() may be null (fuzz_chunk_decode found the
    // copy of the empty tail given one).
    QTest::newRow("an empty frame") << 0 << 2 << 0 << false;
  }

  void framesRoundTripBitExact() {
    QFETCH(int, elements);
    QFETCH(int, elementBytes);
    QFETCH(int, blockElements);
    QFETCH(bool, smooth);
    test::SeededRandom random(static_cast<std::uint64_t>(elements));
    const auto frame = randomFrame(random, static_cast<std::size_t>(elements),
                                   static_cast<std::size_t>(elementBytes), smooth);
    std::vector<std::byte> chunk, back(frame.size());
    process::ChunkScratch scratch;
    const std::size_t size =
        process::encodeBitshuffleLz4(frame, static_cast<std::size_t>(elementBytes), chunk,
                                     static_cast<std::size_t>(blockElements));
    QCOMPARE(size, chunk.size());
    QVERIFY(size <=
                process::bitshuffleLz4Bound(frame.size(), static_cast<std::size_t>(elementBytes)) ||
            blockElements != 0);
    process::decodeBitshuffleLz4(chunk, static_cast<std::size_t>(elementBytes), back, scratch);
    QVERIFY(back == frame);
    if (smooth && elements > 1000) {
      qInfo("%d elements of %d bytes: %zu -> %zu bytes (%.2fx)", elements, elementBytes,
            frame.size(), size, static_cast<double>(frame.size()) / static_cast<double>(size));
      QVERIFY(size < frame.size());  // smooth signals do compress
    }
  }

  void chunksOfTheBitshuffleProjectDecode() {
    for (const std::string name : {"rf_int16", "rf_float32", "spectra_uint16"}) {
      const test::ReferenceFrames data =
          test::readReference("bitshuffle_lz4_reference.h5", name, "plain_" + name);
      std::vector<std::byte> frame(data.frameBytes);
      process::ChunkScratch scratch;
      for (std::size_t f = 0; f < data.chunks.size(); ++f) {
        process::decodeBitshuffleLz4(data.chunks[f], data.elementBytes, frame, scratch);
        QVERIFY2(std::equal(frame.begin(), frame.end(), data.frame(f).begin()),
                 qPrintable(QStringLiteral("%1 frame %2").arg(name.c_str()).arg(f)));
      }
    }
  }

  void hdf5sOwnFilterDecodesOurChunks() {
    if (H5Zfilter_avail(process::kBitshuffleFilterId) <= 0) {
      QSKIP("the HDF5 bitshuffle filter plugin is not installed (Debian package bitshuffle)");
    }
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("ours.h5")).toStdString();
    test::SeededRandom random(3);
    const std::size_t samples = 3001;
    const hsize_t dims[2] = {2, samples}, chunkDims[2] = {1, samples};
    std::vector<std::byte> frames[2] = {randomFrame(random, samples, 2, true),
                                        randomFrame(random, samples, 2, false)};
    const hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    const hid_t space = H5Screate_simple(2, dims, nullptr);
    const hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(dcpl, 2, chunkDims);
    // The user's options only (block size 0: default, LZ4): the plugin fills in the rest.
    const unsigned values[2] = {0, process::kBitshuffleLz4};
    QVERIFY(H5Pset_filter(dcpl, process::kBitshuffleFilterId, H5Z_FLAG_MANDATORY, 2, values) >= 0);
    const hid_t dataset =
        H5Dcreate2(file, "x", H5T_STD_I16LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    QVERIFY(dataset >= 0);
    for (hsize_t f = 0; f < 2; ++f) {
      std::vector<std::byte> chunk;
      process::encodeBitshuffleLz4(frames[f], 2, chunk);
      const hsize_t offset[2] = {f, 0};
      QVERIFY(H5Dwrite_chunk(dataset, H5P_DEFAULT, 0, offset, chunk.size(), chunk.data()) >= 0);
    }
    std::vector<std::byte> back(2 * samples * 2);
    QVERIFY(H5Dread(dataset, H5T_NATIVE_INT16, H5S_ALL, H5S_ALL, H5P_DEFAULT, back.data()) >= 0);
    QVERIFY(std::memcmp(back.data(), frames[0].data(), frames[0].size()) == 0);
    QVERIFY(std::memcmp(back.data() + frames[0].size(), frames[1].data(), frames[1].size()) == 0);
    H5Dclose(dataset);
    H5Pclose(dcpl);
    H5Sclose(space);
    H5Fclose(file);
  }

  void aHeadersBlockSizeIsNeverAllocated() {
    // A frame smaller than one block is one (last) block, whatever the header's block size: a
    // header may claim 4 GiB blocks (fuzz_chunk_decode's first find made the decoder allocate
    // that) and still decode; the decoder's scratch stays the size of the frame's largest block.
    test::SeededRandom random(12);
    const auto frame = randomFrame(random, 4096, 2, true);
    std::vector<std::byte> chunk;
    process::encodeBitshuffleLz4(frame, 2, chunk);
    const std::uint8_t huge[4] = {0xff, 0xff, 0x20, 0x00};  // 4 294 909 952 bytes, big-endian
    for (int k = 0; k < 4; ++k) {
      chunk[8 + k] = std::byte{huge[k]};
    }
    std::vector<std::byte> out(frame.size());
    process::ChunkScratch scratch;
    process::decodeBitshuffleLz4(chunk, 2, out, scratch);
    QVERIFY(out == frame);
    QVERIFY2(scratch.block.size() <= frame.size(),
             qPrintable(QString("scratch of %1 bytes").arg(scratch.block.size())));
  }

  void damagedChunksAreRefusedWithTheReason() {
    test::SeededRandom random(11);
    const auto frame = randomFrame(random, 3 * 4096 + 1003, 2, true);  // 4 blocks, tail of 3
    std::vector<std::byte> chunk;
    process::encodeBitshuffleLz4(frame, 2, chunk);
    const auto expectRefusal = [&](std::vector<std::byte> damaged, const char* reason) {
      const std::string why = refusal(damaged, 2, frame.size());
      QVERIFY2(why.find(reason) != std::string::npos, (why + " / expected: " + reason).c_str());
    };
    expectRefusal(std::vector<std::byte>(chunk.begin(), chunk.begin() + 7),
                  "shorter than its 12-byte header");
    expectRefusal(std::vector<std::byte>(chunk.begin(), chunk.end() - 100),
                  "truncated: block 4 of 4");
    auto longer = chunk;
    longer.push_back(std::byte{1});
    expectRefusal(longer, "bytes after the last block, expected 6");
    QVERIFY(refusal(chunk, 2, frame.size() - 2).find("expected 26580") != std::string::npos);
    auto badBlock = chunk;
    badBlock[11] = std::byte{3};  // block size 8195 bytes: not whole groups of 8 elements
    expectRefusal(badBlock, "not a multiple of 8 elements");
    auto badLz4 = chunk;
    QVERIFY(badLz4.size() > 64);
    // The first block's first tokens: lengths that run past its end.
    std::fill(badLz4.begin() + 16, badLz4.begin() + 40, std::byte{0xff});
    expectRefusal(badLz4, "block 1 of 4");
  }

  void framesOfManyBlocksDecodeOnThePoolAndNameTheFirstDamagedBlock() {
    // 64 blocks of 2 KiB and a partial one: decoded by runs of blocks on the CPU pool (a replay's
    // fallback for chunks it cannot stage), bit for bit; with blocks 41 and 21 damaged, the error
    // names block 21, the first in block order, whichever task meets its damage first.
    test::SeededRandom random(12);
    const auto frame = randomFrame(random, 64 * 1024 + 600, 2, true);
    std::vector<std::byte> chunk;
    process::encodeBitshuffleLz4(frame, 2, chunk, 1024);
    std::vector<std::byte> out(frame.size());
    process::ChunkScratch scratch;
    process::decodeBitshuffleLz4(chunk, 2, out, scratch);
    QVERIFY(out == frame);
    process::ChunkLayout layout;
    process::readChunkLayout(chunk, 2, frame.size(), layout);
    QCOMPARE(layout.blocks.size(), std::size_t{65});
    auto damaged = chunk;
    for (const std::size_t b : {std::size_t{40}, std::size_t{20}}) {
      const auto at = static_cast<std::ptrdiff_t>(layout.blocks[b].offset);
      std::fill(damaged.begin() + at, damaged.begin() + at + 24, std::byte{0xff});
    }
    const std::string why = refusal(damaged, 2, frame.size());
    QVERIFY2(why.find("block 21 of 65") != std::string::npos, why.c_str());
  }
};

QTEST_APPLESS_MAIN(TestBitshuffleLz4)
#include "test_bitshuffle_lz4.moc"
