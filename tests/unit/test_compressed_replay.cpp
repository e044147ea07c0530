// Compressed replay: raw recordings' chunks handed over as stored, staged with their block table
// (process/staged_chunk.hpp) and decoded where the frame is processed (process/chunk_decoder.hpp;
// here the CPU pool decoder, which is the GPU kernel's oracle in test_cuda_chunk_decode):
//   - seeded int16 / float32 RF and uint16 spectra recorded bitshuffle-LZ4 and LZ4 decode bit
//     exact through the staged path;
//   - chunks written by h5py with the bitshuffle project's filter and with hdf5plugin's LZ4 (test
//     data made by tests/data/make_*_reference.py) decode to the values stored beside them, by the
//     host decoder and, where their blocks allow staging, by the staged decoder;
//   - the engine replays a compressed recording to the very images of the uncompressed one, with
//     a "decode" stage per frame;
//   - a damaged frame (found by its chunk's checksum on the acquisition thread, or by the decoder
//     when the recording has no checksums) stops the replay naming the frame, or under Skip is
//     left out, counted and named, the other frames all imaged.

#include <hdf5.h>

#include <QtTest>

#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "compute/backend.hpp"
#include "oct/oct_simulator.hpp"
#include "pipeline/cineloop.hpp"
#include "pipeline/engine.hpp"
#include "process/chunk_codec.hpp"
#include "process/chunk_decoder.hpp"
#include "process/cpu/chunk_decode.hpp"
#include "registry/source_factory.hpp"
#include "store/raw_recorder.hpp"
#include "store/store_error.hpp"
#include "support/recording_fixtures.hpp"

using namespace cineflow;
using test::frameOf;
using test::layoutOf;
using test::smallOct;

namespace {

// Records `frames` frames of `source` into `path`.
void record(const std::string& path, acquire::FrameSource& source, std::uint64_t frames,
            store::RecordCodec codec) {
  store::RawRecorder recorder(path, layoutOf(source), codec, store::RecordPolicy::Block, 4);
  for (std::uint64_t i = 0; i < frames; ++i) {
    acquire::FrameHeader header;
    header.sequence = i;
    QVERIFY(recorder.submit(header, frameOf(source, i % source.frameCount())));
  }
  const store::RecorderStats stats = recorder.stop();
  QVERIFY2(stats.error.empty(), stats.error.c_str());
}

// Stages `chunk` and decodes it with the pool decoder; false when it cannot be staged.
bool decodeStaged(std::span<const std::byte> chunk, const acquire::StoredFormat& format,
                  std::span<std::byte> frame, int& status) {
  std::vector<std::byte> slot(process::stagedCapacity(format, frame.size()));
  std::memcpy(slot.data(), chunk.data(), chunk.size());
  process::ChunkLayout layout;
  process::StagedChunk staged;
  if (!process::stageChunk(slot, chunk.size(), format, frame.size(), layout, staged)) {
    return false;
  }
  status =
      process::cpu::decodeStagedChunk(slot.data(), staged.tableOffset, frame.data(), frame.size());
  return true;
}

struct ReplayResult {
  pipeline::EngineState state;
  pipeline::EngineStats stats;
  std::map<std::uint64_t, std::vector<float>> images;  // by source index
};

ReplayResult replay(const std::string& path, std::uint64_t frames,
                    pipeline::DamagedFramePolicy policy, bool volumes = false) {
  auto backend = compute::createBackend(compute::BackendRequest::Cpu);
  pipeline::EngineConfig config;
  config.pace = false;
  config.maxFrames = frames;
  config.damagedFrames = policy;
  config.framesPerVolume = volumes ? -1 : 0;  // -1: the source's sweeps
  ReplayResult result;
  std::mutex mutex;
  {
    pipeline::Engine engine(*backend, config);
    engine.setSource(acquire::openSource(path));
    engine.setFrameObserver([&](const pipeline::CompletedFrame& frame) {
      std::lock_guard lock(mutex);
      result.images[frame.header.sourceIndex].assign(frame.image.begin(), frame.image.end());
    });
    engine.start();
    result.state = engine.waitUntilFinished();
    engine.stop();
    result.stats = engine.stats();
  }
  return result;
}

}  // namespace

class TestCompressedReplay : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  std::string file(const QString& name) const { return dir_.filePath(name).toStdString(); }

 private slots:
  void recordedFramesDecodeBitExactThroughTheStagedPath_data() {
    QTest::addColumn<int>("elementBytes");
    QTest::addColumn<QString>("compression");
    for (const char* compression : {"bitshuffle-lz4", "lz4"}) {
      QTest::newRow(qPrintable(QStringLiteral("int16 RF, %1").arg(compression)))
          << 2 << QString(compression);
      QTest::newRow(qPrintable(QStringLiteral("float32 RF, %1").arg(compression)))
          << 4 << QString(compression);
      QTest::newRow(qPrintable(QStringLiteral("uint16 spectra, %1").arg(compression)))
          << 0 << QString(compression);
    }
  }

  void recordedFramesDecodeBitExactThroughTheStagedPath() {
    QFETCH(int, elementBytes);
    QFETCH(QString, compression);
    // Seeded random values around a smooth signal, of each kind recordings hold; 3 frames
    // stored, each a partial last block and (for int16) a tail of fewer than 8 elements.
    const std::size_t bytes = elementBytes == 0 ? 2 : static_cast<std::size_t>(elementBytes);
    const std::size_t values = 3 * 8192 + 1000 + (elementBytes == 2 ? 5 : 0);
    std::vector<std::vector<std::byte>> frames;
    for (std::uint64_t f = 0; f < 3; ++f) {
      frames.push_back(
          test::smoothSamples(static_cast<std::uint64_t>(elementBytes) * 7 + f, values, bytes));
    }
    const acquire::ChunkCodec codec =
        compression == "lz4" ? acquire::ChunkCodec::Lz4 : acquire::ChunkCodec::BitshuffleLz4;
    const acquire::StoredFormat format{codec, bytes,
                                       process::chunkBound(values * bytes, codec, bytes)};
    for (const auto& frame : frames) {
      std::vector<std::byte> chunk, host(frame.size()), pool(frame.size());
      process::encodeChunk(frame, codec, bytes, chunk);
      // Bit shuffling makes the noisy samples compress; LZ4 alone stores most blocks as they
      // are (chunk_codec.hpp), at most 4 bytes per block and the header more.
      QVERIFY(codec == acquire::ChunkCodec::Lz4 ? chunk.size() <= format.maxChunkBytes
                                                : chunk.size() < frame.size());
      process::ChunkScratch scratch;
      process::decodeChunk(chunk, codec, bytes, host, scratch);
      QVERIFY(host == frame);
      int status = -1;
      QVERIFY(decodeStaged(chunk, format, pool, status));
      QCOMPARE(status, 0);
      QVERIFY(pool == frame);
    }
  }

  void recordingsHandTheirChunksOverStored_data() {
    QTest::addColumn<QString>("compression");
    QTest::addColumn<int>("blockBytes");  // 0: the codec's default (8 KiB)
    QTest::newRow("bitshuffle-lz4") << QString("bitshuffle-lz4") << 0;
    QTest::newRow("lz4") << QString("lz4") << 0;
    QTest::newRow("none") << QString("none") << 0;
    // Smaller blocks, as a GPU replay decodes more of them side by side (--record-block-size).
    QTest::newRow("bitshuffle-lz4, 1 KiB blocks") << QString("bitshuffle-lz4") << 1024;
    QTest::newRow("lz4, 2 KiB blocks") << QString("lz4") << 2048;
  }

  void recordingsHandTheirChunksOverStored() {
    QFETCH(QString, compression);
    QFETCH(int, blockBytes);
    oct::OctSimulator source(smallOct());
    const std::string path =
        file("stored-" + compression + "-" + QString::number(blockBytes) + ".h5");
    record(path, source, 3,
           store::RecordCodec(store::parseRecordCompression(compression.toStdString()),
                              static_cast<std::size_t>(blockBytes)));
    const auto recording = acquire::openSource(path);
    const acquire::StoredFormat format = recording->storedFormat();
    if (compression == "none") {
      QCOMPARE(format.codec, acquire::ChunkCodec::None);
      return;
    }
    QCOMPARE(QString(acquire::toString(format.codec)), compression);
    QCOMPARE(format.elementBytes, std::size_t{2});
    std::vector<std::byte> room(format.maxChunkBytes), frame(recording->frameBytes());
    for (std::uint64_t i = 0; i < 3; ++i) {
      acquire::SliceInfo slice;
      const std::size_t bytes = recording->readStoredFrame(i, room, slice);
      QVERIFY(bytes > 0 && bytes <= format.maxChunkBytes);
      // Both codecs' headers: the decoded size (8 bytes, big-endian), then the block in bytes.
      std::uint32_t block = 0;
      for (std::size_t b = 8; b < 12; ++b) {
        block = (block << 8) | std::to_integer<std::uint32_t>(room[b]);
      }
      QCOMPARE(block, static_cast<std::uint32_t>(blockBytes > 0 ? blockBytes : 8192));
      int status = -1;
      QVERIFY(decodeStaged(std::span(room).first(bytes), format, frame, status));
      QCOMPARE(status, 0);
      QVERIFY(frame == frameOf(source, i));
    }
  }

  void blockSizesTheCodecCannotTakeAreRefused() {
    oct::OctSimulator source(smallOct());
    const struct {
      store::RecordCompression compression;
      std::size_t blockBytes;
      const char* says;
    } cases[] = {
        {store::RecordCompression::BitshuffleLz4, 1030, "multiple of 16 bytes"},  // 2-byte samples
        {store::RecordCompression::BitshuffleLz4, 512, "1024 to 1048576"},
        {store::RecordCompression::Lz4, std::size_t{2} << 20, "1024 to 1048576"},
    };
    for (const auto& c : cases) {
      const std::string path = file("refused-" + QString::number(c.blockBytes) + ".h5");
      try {
        store::RawRecorder recorder(path, layoutOf(source),
                                    store::RecordCodec(c.compression, c.blockBytes),
                                    store::RecordPolicy::Block);
        QFAIL(qPrintable(QString("a block of %1 bytes was taken").arg(c.blockBytes)));
      } catch (const store::StoreError& e) {
        QVERIFY2(QString(e.what()).contains(c.says), e.what());
      }
      QVERIFY(!std::filesystem::exists(path));  // nothing left behind
    }
  }

  void chunksOfOtherSoftwareDecode_data() {
    QTest::addColumn<QString>("reference");
    QTest::addColumn<QString>("dataset");
    QTest::addColumn<bool>("staged");  // its blocks are small enough to stage
    for (const char* name : {"rf_int16", "rf_float32", "spectra_uint16"}) {
      QTest::newRow(qPrintable(QStringLiteral("bitshuffle %1").arg(name)))
          << "bitshuffle_lz4_reference.h5" << QString(name) << true;
    }
    for (const char* name : {"rf_int16", "spectra_uint16"}) {
      QTest::newRow(qPrintable(QStringLiteral("lz4 %1, 1 GiB blocks").arg(name)))
          << "lz4_reference.h5" << QString(name) << false;
      QTest::newRow(qPrintable(QStringLiteral("lz4 %1, 8 KiB blocks").arg(name)))
          << "lz4_reference.h5" << QString(name) + "_8k" << true;
    }
  }

  void chunksOfOtherSoftwareDecode() {
    QFETCH(QString, reference);
    QFETCH(QString, dataset);
    QFETCH(bool, staged);
    const std::string name = dataset.toStdString();
    const test::ReferenceFrames data = test::readReference(
        reference.toStdString(), name, "plain_" + name.substr(0, name.find("_8k")));
    const acquire::ChunkCodec codec =
        reference.startsWith("lz4") ? acquire::ChunkCodec::Lz4 : acquire::ChunkCodec::BitshuffleLz4;
    const acquire::StoredFormat format{
        codec, data.elementBytes, process::chunkBound(data.frameBytes, codec, data.elementBytes)};
    std::vector<std::byte> host(data.frameBytes), pool(data.frameBytes);
    for (std::size_t f = 0; f < data.chunks.size(); ++f) {
      const std::span<const std::byte> want = data.frame(f);
      process::ChunkScratch scratch;
      process::decodeChunk(data.chunks[f], codec, data.elementBytes, host, scratch);
      QVERIFY2(std::equal(host.begin(), host.end(), want.begin()),
               qPrintable(QStringLiteral("%1 frame %2, host decoder").arg(dataset).arg(f)));
      int status = -1;
      QCOMPARE(decodeStaged(data.chunks[f], format, pool, status), staged);
      if (staged) {
        QCOMPARE(status, 0);
        QVERIFY2(std::equal(pool.begin(), pool.end(), want.begin()),
                 qPrintable(QStringLiteral("%1 frame %2, pool decoder").arg(dataset).arg(f)));
      }
    }
  }

  void damagedChunksAreNamedNeverMisread() {
    // Truncated, cut short and wrong-size chunks are refused while staging (ChunkError naming
    // what); a damaged LZ4 block gets the status of its block from the decoder.
    const std::vector<std::byte> frame = test::smoothSamples(77, 20000, 2);
    std::vector<std::byte> chunk, out(frame.size());
    const acquire::ChunkCodec codec = acquire::ChunkCodec::BitshuffleLz4;
    process::encodeChunk(frame, codec, 2, chunk);
    const acquire::StoredFormat format{codec, 2, process::chunkBound(frame.size(), codec, 2)};
    int status = 0;
    const auto refusal = [&](std::span<const std::byte> bytes, std::size_t frameBytes) {
      std::vector<std::byte> target(frameBytes);
      try {
        decodeStaged(bytes, format, target, status);
      } catch (const process::ChunkError& e) {
        return std::string(e.what());
      }
      return std::string("staged");
    };
    QVERIFY(refusal(std::span(chunk).first(8), frame.size()).find("truncated") !=
            std::string::npos);
    QVERIFY(refusal(std::span(chunk).first(chunk.size() - 100), frame.size()).find("truncated") !=
            std::string::npos);
    QVERIFY(refusal(chunk, frame.size() + 2).find("expected") != std::string::npos);
    std::vector<std::byte> damaged = chunk;
    std::fill(damaged.begin() + 16, damaged.begin() + 48, std::byte{0xff});
    QVERIFY(decodeStaged(damaged, format, out, status));
    QVERIFY(status != 0);
    const std::string why = process::chunkStatusText(status, 5);
    QVERIFY2(why.find("block 1 of 5") == 0, why.c_str());
    // Blocks of 16 KiB are too large to stage: that chunk is decoded on the host instead.
    process::encodeBitshuffleLz4(frame, 2, chunk, 8192);
    QVERIFY(!decodeStaged(chunk, format, out, status));
  }

  void theEngineReplaysCompressedAsUncompressed() {
    oct::OctSimulator source(smallOct());
    const std::uint64_t frames = 6;
    const std::string plain = file("engine-none.h5"), packed = file("engine-bslz4.h5");
    record(plain, source, frames, store::RecordCompression::None);
    record(packed, source, frames, store::RecordCompression::BitshuffleLz4);
    const ReplayResult a = replay(plain, frames, pipeline::DamagedFramePolicy::Stop);
    const ReplayResult b = replay(packed, frames, pipeline::DamagedFramePolicy::Stop);
    QCOMPARE(a.state, pipeline::EngineState::Finished);
    QCOMPARE(b.state, pipeline::EngineState::Finished);
    QCOMPARE(b.stats.processed, frames);
    QCOMPARE(b.images.size(), a.images.size());
    for (const auto& [index, image] : a.images) {
      QVERIFY2(b.images.at(index) == image, qPrintable(QStringLiteral("frame %1").arg(index)));
    }
    QVERIFY(b.stats.stages.size() >= 2);
    QCOMPARE(QString::fromStdString(b.stats.stages[1].name), QString("decode"));
    QCOMPARE(b.stats.stages[1].count, static_cast<std::size_t>(frames));
    QVERIFY(a.stats.stages.size() < 2 || a.stats.stages[1].name != "decode");
  }

  void aDamagedFrameStopsOrIsSkipped_data() {
    QTest::addColumn<bool>("checksums");  // found by its chunk's checksum, else by the decoder
    QTest::addColumn<bool>("skip");
    QTest::addColumn<bool>("volumes");  // the recording's sweeps assembled into volumes
    for (const bool volumes : {false, true}) {
      for (const bool checksums : {true, false}) {
        for (const bool skip : {false, true}) {
          QTest::newRow(qPrintable(QStringLiteral("%1, %2%3")
                                       .arg(checksums ? "checksum" : "decoder",
                                            skip ? "skip" : "stop", volumes ? ", volumes" : "")))
              << checksums << skip << volumes;
        }
      }
    }
  }

  void aDamagedFrameStopsOrIsSkipped() {
    QFETCH(bool, checksums);
    QFETCH(bool, skip);
    QFETCH(bool, volumes);
    oct::OctSimulator source(smallOct());
    const std::uint64_t frames = volumes ? 10 : 5;  // two sweeps of 5 B-scans
    const std::string path = file(
        QStringLiteral("damaged-%1-%2-%3.h5").arg(int(checksums)).arg(int(skip)).arg(int(volumes)));
    record(path, source, frames, store::RecordCompression::BitshuffleLz4);
    QVERIFY(test::damageChunk(path, "spectra", 2, !checksums));
    const ReplayResult result = replay(
        path, frames,
        skip ? pipeline::DamagedFramePolicy::Skip : pipeline::DamagedFramePolicy::Stop, volumes);
    const std::string why = skip ? result.stats.lastDamage : result.stats.error;
    qInfo("%s", why.c_str());
    QVERIFY2(why.find("frame 2") != std::string::npos, why.c_str());
    QVERIFY2(why.find(checksums ? "checksum" : "block 1 of") != std::string::npos, why.c_str());
    if (!skip) {
      QCOMPARE(result.state, pipeline::EngineState::Failed);
      QVERIFY(result.images.count(2) == 0);  // never shown
      return;
    }
    QCOMPARE(result.state, pipeline::EngineState::Finished);
    QCOMPARE(result.stats.damaged, std::uint64_t{1});
    QCOMPARE(result.images.count(2), std::size_t{0});
    for (std::uint64_t i = 0; i < frames; ++i) {
      QVERIFY2(result.images.count(i) == (i == 2 ? 0u : 1u),
               qPrintable(QStringLiteral("frame %1").arg(i)));
    }
    if (volumes) {  // the sweep with the damaged slice is no volume; the next one is whole
      QCOMPARE(result.stats.volumes, std::uint64_t{1});
      QVERIFY(result.stats.volumesAbandoned >= 1);
    }
  }
};

QTEST_GUILESS_MAIN(TestCompressedReplay)
#include "test_compressed_replay.moc"
