// The GPU chunk decoder (process/chunk_decoder.hpp, one warp per LZ4 block) against its oracle,
// the CPU pool decoder, on the same staged chunks: seeded random int16 / float32 / uint16 frames
// in bitshuffle-LZ4 and LZ4, bit exact; the chunks h5py wrote (tests/data/*_reference.h5) bit
// exact to the values stored beside them; a damaged block gets the same status on both (the
// block's number), and the buffers around the frame are untouched (compute-sanitizer on the lent
// GPU checks every access).

#include <QtTest>

#include <algorithm>
#include <cstring>
#include <vector>

#include "cuda_test_support.hpp"
#include "process/chunk_codec.hpp"
#include "process/chunk_decoder.hpp"
#include "process/cpu/chunk_decode.hpp"
#include "support/recording_fixtures.hpp"
#include "support/test_random.hpp"

using namespace cineflow;

namespace {

struct Decoded {
  std::vector<std::byte> frame;
  int status = 0;
};

// Frames that byte-level LZ4 compresses (smooth samples do not: plain LZ4 stores their blocks as
// they are, and a stored block has nothing to decode): seeded runs of one value (matches that
// overlap their own output, offset shorter than the match) and copies of earlier stretches (long
// offsets), `values` elements of `bytes` bytes.
std::vector<std::byte> repetitiveSamples(std::uint64_t seed, std::size_t values,
                                         std::size_t bytes) {
  test::SeededRandom random(seed);
  std::vector<std::byte> frame(values * bytes);
  std::size_t i = 0;
  while (i < values) {
    if (i < 64 || random.integer(0, 1) == 0) {
      const auto length = static_cast<std::size_t>(random.integer(1, 24));
      const auto value = static_cast<std::uint32_t>(random.integer(0, 0xffffffff));
      for (std::size_t k = 0; k < length && i < values; ++k, ++i) {
        std::memcpy(frame.data() + i * bytes, &value, bytes);
      }
    } else {
      const auto back = static_cast<std::size_t>(
          random.integer(1, std::min<std::int64_t>(static_cast<std::int64_t>(i), 4000)));
      const auto length = static_cast<std::size_t>(random.integer(4, 64));
      for (std::size_t k = 0; k < length && i < values; ++k, ++i) {
        std::memcpy(frame.data() + i * bytes, frame.data() + (i - back) * bytes, bytes);
      }
    }
  }
  return frame;
}

// Stages `chunk`, decodes it on `backend`; the frame sits between two guard bands of 0xA5.
Decoded decodeOn(compute::Backend& backend, std::span<const std::byte> chunk,
                 const acquire::StoredFormat& format, std::size_t frameBytes) {
  std::vector<std::byte> slot(process::stagedCapacity(format, frameBytes));
  std::memcpy(slot.data(), chunk.data(), chunk.size());
  process::ChunkLayout layout;
  process::StagedChunk staged;
  if (!process::stageChunk(slot, chunk.size(), format, frameBytes, layout, staged)) {
    throw std::runtime_error("not stageable");
  }
  constexpr std::size_t kGuard = 4096;
  compute::DeviceBuffer<std::byte> stagedDevice(backend, staged.bytes);
  compute::DeviceBuffer<std::byte> frame(backend, frameBytes + 2 * kGuard);
  compute::DeviceBuffer<int> status(backend, 1);
  std::vector<std::byte> host(frameBytes + 2 * kGuard, std::byte{0xA5});
  process::ChunkDecoder decoder;
  decoder.configure(backend, frameBytes);
  auto stream = backend.createStream("decode-test");
  stream->copyAsync(stagedDevice.data(), slot.data(), staged.bytes);
  stream->copyAsync(frame.data(), host.data(), host.size());
  decoder.enqueue(*stream, stagedDevice.data(), staged,
                  compute::DeviceSpan<std::byte>(frame.data() + kGuard, frameBytes), status.data());
  Decoded result;
  stream->copyAsync(host.data(), frame.data(), host.size());
  stream->copyAsync(&result.status, status.data(), sizeof(int));
  stream->synchronize();
  if (const std::string error = stream->takeError(); !error.empty()) {
    throw std::runtime_error(error);
  }
  for (std::size_t i = 0; i < kGuard; ++i) {
    if (host[i] != std::byte{0xA5} || host[kGuard + frameBytes + i] != std::byte{0xA5}) {
      throw std::runtime_error("the decoder wrote outside the frame");
    }
  }
  result.frame.assign(host.begin() + kGuard, host.begin() + kGuard + frameBytes);
  return result;
}

}  // namespace

class TestCudaChunkDecode : public QObject {
  Q_OBJECT

  std::unique_ptr<compute::Backend> cuda_;
  std::unique_ptr<compute::Backend> cpu_;
  std::string cudaSkipReason_;

 private slots:
  void initTestCase() {
    cuda_ = test::cudaBackendOrReason(cudaSkipReason_);
    cpu_ = compute::createBackend(compute::BackendRequest::Cpu);
  }

  void gpuDecodesAsTheCpuDecoder_data() {
    QTest::addColumn<int>("elementBytes");
    QTest::addColumn<bool>("lz4");
    QTest::addColumn<int>("blockBytes");  // 0: the default 8 KiB (two warps per CUDA block)
    for (const bool lz4 : {false, true}) {
      const char* codec = lz4 ? "lz4" : "bitshuffle-lz4";
      QTest::newRow(qPrintable(QStringLiteral("int16, %1").arg(codec))) << 2 << lz4 << 0;
      QTest::newRow(qPrintable(QStringLiteral("float32, %1").arg(codec))) << 4 << lz4 << 0;
      // --record-block-size: eight warps per CUDA block.
      QTest::newRow(qPrintable(QStringLiteral("int16, %1, 2 KiB blocks").arg(codec)))
          << 2 << lz4 << 2048;
      QTest::newRow(qPrintable(QStringLiteral("float32, %1, 1 KiB blocks").arg(codec)))
          << 4 << lz4 << 1024;
    }
  }

  void gpuDecodesAsTheCpuDecoder() {
    CINEFLOW_REQUIRE_CUDA(cuda_);
    QFETCH(int, elementBytes);
    QFETCH(bool, lz4);
    QFETCH(int, blockBytes);
    const auto bytes = static_cast<std::size_t>(elementBytes);
    const auto blockSize = static_cast<std::size_t>(blockBytes);
    const acquire::ChunkCodec codec =
        lz4 ? acquire::ChunkCodec::Lz4 : acquire::ChunkCodec::BitshuffleLz4;
    // About 1 MB: 128 blocks of 8 KiB (or 512, 1024 smaller ones), a partial one and a tail.
    const std::size_t values = (1u << 20) / bytes + 13;
    const auto frame =
        lz4 ? repetitiveSamples(values, values, bytes) : test::smoothSamples(values, values, bytes);
    const acquire::StoredFormat format{codec, bytes,
                                       process::chunkBound(frame.size(), codec, bytes, blockSize)};
    std::vector<std::byte> chunk;
    process::encodeChunk(frame, codec, bytes, chunk, blockSize);
    const Decoded gpu = decodeOn(*cuda_, chunk, format, frame.size());
    const Decoded cpu = decodeOn(*cpu_, chunk, format, frame.size());
    QCOMPARE(gpu.status, 0);
    QCOMPARE(cpu.status, 0);
    QVERIFY(cpu.frame == frame);
    QVERIFY(gpu.frame == frame);
    // Damaged: block 3's first bytes; both decoders name block 3, the GPU the cause.
    process::ChunkLayout layout;
    process::readChunkLayout(chunk, codec, bytes, frame.size(), layout);
    for (const auto& block : layout.blocks) {
      QVERIFY2(!block.stored, "every block compressed, so that the decoders decode each");
    }
    std::fill_n(chunk.begin() + static_cast<std::ptrdiff_t>(layout.blocks[2].offset), 24,
                std::byte{0xff});
    const Decoded gpuDamaged = decodeOn(*cuda_, chunk, format, frame.size());
    const Decoded cpuDamaged = decodeOn(*cpu_, chunk, format, frame.size());
    QCOMPARE(gpuDamaged.status / 8, 3);
    QCOMPARE(cpuDamaged.status / 8, 3);
    qInfo("GPU: %s", process::chunkStatusText(gpuDamaged.status,
                                              static_cast<std::uint32_t>(layout.blocks.size()))
                         .c_str());
  }

  void gpuDecodesChunksOfOtherSoftware() {
    CINEFLOW_REQUIRE_CUDA(cuda_);
    for (const auto& [file, name, codec] :
         {std::tuple{"bitshuffle_lz4_reference.h5", "rf_int16", acquire::ChunkCodec::BitshuffleLz4},
          std::tuple{"bitshuffle_lz4_reference.h5", "rf_float32",
                     acquire::ChunkCodec::BitshuffleLz4},
          std::tuple{"bitshuffle_lz4_reference.h5", "spectra_uint16",
                     acquire::ChunkCodec::BitshuffleLz4},
          std::tuple{"lz4_reference.h5", "rf_int16_8k", acquire::ChunkCodec::Lz4},
          std::tuple{"lz4_reference.h5", "spectra_uint16_8k", acquire::ChunkCodec::Lz4}}) {
      const std::string dataset = name;
      const test::ReferenceFrames data =
          test::readReference(file, dataset, "plain_" + dataset.substr(0, dataset.find("_8k")));
      const acquire::StoredFormat format{
          codec, data.elementBytes, process::chunkBound(data.frameBytes, codec, data.elementBytes)};
      for (std::size_t f = 0; f < data.chunks.size(); ++f) {
        const Decoded gpu = decodeOn(*cuda_, data.chunks[f], format, data.frameBytes);
        QCOMPARE(gpu.status, 0);
        QVERIFY2(std::equal(gpu.frame.begin(), gpu.frame.end(), data.frame(f).begin()),
                 qPrintable(QStringLiteral("%1 frame %2").arg(name).arg(f)));
      }
    }
  }
};

QTEST_GUILESS_MAIN(TestCudaChunkDecode)
#include "test_cuda_chunk_decode.moc"
