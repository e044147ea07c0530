// Raw recordings (store/raw_recorder.hpp) of both modalities, read back the way replay reads them
// (acquire::openSource: direct chunk reads and the CPU decoder):
//   - seeded random int16 and float32 RF and uint16 spectra round-trip bit exact, compressed and
//     not, with every frame's sequence number and timestamp;
//   - through the engine at full rate in Block mode nothing is lost, with two recorder slots;
//   - a full disk stops the recording with the reason, later frames are counted, and the frames
//     written before it replay;
//   - a recording never overwrites a file, and a missing folder is named;
//   - a damaged chunk is reported with its frame, and so is a changed byte LZ4 cannot see (the
//     frame's checksum).

#include <hdf5.h>

#include <QtTest>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "oct/oct_modality.hpp"
#include "oct/oct_simulator.hpp"
#include "pipeline/engine.hpp"
#include "process/bitshuffle_lz4.hpp"
#include "registry/source_factory.hpp"
#include "store/raw_recorder.hpp"
#include "store/store_error.hpp"
#include "support/plain_hdf5.hpp"
#include "support/recording_fixtures.hpp"
#include "support/test_random.hpp"
#include "ultrasound/ultrasound_modality.hpp"
#include "ultrasound/ultrasound_source.hpp"

using namespace cineflow;
using test::frameOf;
using test::layoutOf;
using test::smallOct;

namespace {

// Plane-wave channel data of seeded random echoes: 2 transmits x 16 elements x 600 samples.
class RandomRfSource final : public ultrasound::UltrasoundSource {
 public:
  RandomRfSource(acquire::SampleType type, std::uint64_t frames) : type_(type), frames_(frames) {
    params_.samplingFrequencyHz = 20e6;
    params_.centerFrequencyHz = 5e6;
    params_.anglesRad = {-0.1, 0.1};
    for (int e = 0; e < 16; ++e) {
      params_.elementXM.push_back((e - 7.5) * 0.3e-3);
    }
    params_.samples = 600;
    params_.fractionalBandwidth = 0.6;
  }
  const acquire::AcquisitionParams& params() const override { return params_; }
  acquire::SampleType sampleType() const override { return type_; }
  double frameRateHz() const override { return 0; }
  std::uint64_t frameCount() const override { return frames_; }
  void readFrame(std::uint64_t index, std::span<std::byte> dst, acquire::SliceInfo&) override {
    test::SeededRandom random(1000 + index);
    const std::size_t values = params_.samplesPerFrame();
    for (std::size_t i = 0; i < values; ++i) {
      // An echo train (compresses) with noise in its low bits (must still round-trip).
      const double echo = 3000.0 * std::sin(0.8 * static_cast<double>(i % 600)) *
                              std::exp(-static_cast<double>(i % 600) / 300.0) +
                          random.uniform(-20.0, 20.0);
      if (type_ == acquire::SampleType::Int16) {
        const auto v = static_cast<std::int16_t>(std::lround(echo));
        std::memcpy(dst.data() + 2 * i, &v, 2);
      } else {
        const auto v = static_cast<float>(echo * 1e-3);
        std::memcpy(dst.data() + 4 * i, &v, 4);
      }
    }
  }
  std::string describe() const override { return "random RF"; }

 private:
  acquire::SampleType type_;
  std::uint64_t frames_;
  acquire::AcquisitionParams params_;
};

std::unique_ptr<acquire::FrameSource> makeSource(const QString& kind, std::uint64_t frames) {
  if (kind == "oct") {
    return std::make_unique<oct::OctSimulator>(smallOct());
  }
  return std::make_unique<RandomRfSource>(
      kind == "int16" ? acquire::SampleType::Int16 : acquire::SampleType::Float32, frames);
}

// Every recorded frame i equals frame `indexOf(i)` of `source`.
template <class IndexOf>
void expectReplay(const std::string& path, acquire::FrameSource& source, std::uint64_t frames,
                  IndexOf indexOf) {
  const auto replay = acquire::openSource(path);
  QCOMPARE(replay->frameCount(), frames);
  QCOMPARE(replay->frameBytes(), source.frameBytes());
  QCOMPARE(std::string(replay->modality().name()), std::string(source.modality().name()));
  for (std::uint64_t i = 0; i < frames; ++i) {
    QVERIFY2(frameOf(*replay, i) == frameOf(source, indexOf(i)),
             qPrintable(QStringLiteral("frame %1").arg(i)));
  }
}

}  // namespace

class TestRawRecorder : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  std::string file(const char* name) const { return dir_.filePath(name).toStdString(); }

 private slots:
  void framesRoundTripBitExact_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("compression");
    for (const char* kind : {"int16", "float32", "oct"}) {
      for (const char* compression : {"bitshuffle-lz4", "lz4", "none"}) {
        QTest::newRow(qPrintable(QStringLiteral("%1, %2").arg(kind, compression)))
            << QString(kind) << QString(compression);
      }
    }
  }

  void framesRoundTripBitExact() {
    QFETCH(QString, kind);
    QFETCH(QString, compression);
    const std::string path = file(qPrintable("rt-" + kind + "-" + compression + ".h5"));
    auto source = makeSource(kind, 5);
    const std::uint64_t frames = 7;  // more than the source has: it loops, as replay does
    store::RawRecorder recorder(path, layoutOf(*source),
                                store::parseRecordCompression(compression.toStdString()),
                                store::RecordPolicy::Block, 3, {{"source", source->describe()}});
    for (std::uint64_t i = 0; i < frames; ++i) {
      acquire::FrameHeader header;
      header.sequence = 10 + 2 * i;  // a gap, as after drops at the host ring
      header.timestampNs = 1'000'000 * static_cast<std::int64_t>(i) + 5;
      QVERIFY(recorder.submit(header, frameOf(*source, i % source->frameCount())));
    }
    const store::RecorderStats stats = recorder.stop();
    QVERIFY2(stats.error.empty(), stats.error.c_str());
    QCOMPARE(stats.written, frames);
    QCOMPARE(stats.dropped, std::uint64_t{0});
    qInfo("%s: %llu bytes -> %llu bytes (%.2fx)", qPrintable(kind),
          static_cast<unsigned long long>(stats.rawBytes),
          static_cast<unsigned long long>(stats.compressedBytes),
          static_cast<double>(stats.rawBytes) / static_cast<double>(stats.compressedBytes));
    if (compression == "bitshuffle-lz4") {
      QVERIFY(stats.compressedBytes < stats.rawBytes);  // echoes and spectra do compress
    } else if (compression == "lz4") {
      // LZ4 alone finds no repeats in samples with noisy low bytes: its blocks are stored as
      // they are, at most a 12-byte header and 4 bytes per 8 KiB block more than the frame.
      const std::uint64_t blocks = (stats.rawBytes / frames + 8191) / 8192;
      QVERIFY(stats.compressedBytes <= stats.rawBytes + frames * (12 + 4 * blocks));
    } else {
      QCOMPARE(stats.compressedBytes, stats.rawBytes);
    }
    expectReplay(path, *source, frames, [&](std::uint64_t i) { return i % source->frameCount(); });
    const test::PlainFile plain(path);
    QCOMPARE(test::readDouble(plain.id, "recording_complete"), 1.0);
    QCOMPARE(test::readString(plain.id, "recording_compression"), compression.toStdString());
    const auto sequence = test::readAll<std::uint64_t>(plain.id, "sequence", H5T_NATIVE_UINT64);
    const auto stamps = test::readAll<std::int64_t>(plain.id, "timestamp_ns", H5T_NATIVE_INT64);
    QCOMPARE(sequence.size(), std::size_t{frames});
    QCOMPARE(stamps.size(), std::size_t{frames});
    for (std::size_t i = 0; i < frames; ++i) {
      QCOMPARE(sequence[i], std::uint64_t{10 + 2 * i});
      QCOMPARE(stamps[i], std::int64_t{1'000'000 * static_cast<std::int64_t>(i) + 5});
    }
  }

  void blockRecordingAtFullRateLosesNothing() {
    auto backend = compute::createBackend(compute::BackendRequest::Cpu);
    pipeline::EngineConfig config;
    config.pace = false;
    config.maxFrames = 40;
    config.overflow = pipeline::OverflowPolicy::Block;
    pipeline::Engine engine(*backend, config);
    auto source = std::make_unique<oct::OctSimulator>(smallOct());
    oct::OctSimulator reference(smallOct());
    const std::string path = file("engine.h5");
    // Two slots: the acquisition must wait for the disk again and again.
    store::RawRecorder recorder(path, layoutOf(*source), store::RecordCompression::BitshuffleLz4,
                                store::RecordPolicy::Block, 2);
    engine.setSource(std::move(source));
    engine.setRawFrameTap(std::make_shared<const pipeline::RawFrameTap>(
        [&recorder](const acquire::FrameHeader& header, std::span<const std::byte> frame) {
          recorder.submit(header, frame);
        }));
    engine.start();
    QCOMPARE(engine.waitUntilFinished(), pipeline::EngineState::Finished);
    engine.stop();
    engine.setRawFrameTap(nullptr);
    const store::RecorderStats stats = recorder.stop();
    QCOMPARE(engine.stats().dropped, std::uint64_t{0});
    QCOMPARE(stats.written, std::uint64_t{40});
    QCOMPARE(stats.dropped, std::uint64_t{0});
    expectReplay(path, reference, 40, [&](std::uint64_t i) { return i % reference.frameCount(); });
    const test::PlainFile plain(path);
    const auto sequence = test::readAll<std::uint64_t>(plain.id, "sequence", H5T_NATIVE_UINT64);
    for (std::size_t i = 0; i < sequence.size(); ++i) {
      QCOMPARE(sequence[i], std::uint64_t{i});
    }
  }

  void aFullDiskStopsTheRecordingAndKeepsItsFrames() {
    RandomRfSource source(acquire::SampleType::Int16, 50);
    const std::string path = file("full.h5");
    std::unique_ptr<store::RawRecorder> recorder;
    store::RecorderStats stats;
    {
      recorder = std::make_unique<store::RawRecorder>(
          path, layoutOf(source), store::RecordCompression::None, store::RecordPolicy::Block, 2);
      const auto start = std::filesystem::file_size(path);
      // Room for about 6 frames of 38 kB past what the file holds now.
      const test::FileSizeLimit limit(start + 6 * source.frameBytes() + 20000);
      if (!limit.active()) {
        QSKIP("cannot limit the file size here (RLIMIT_FSIZE)");
      }
      for (std::uint64_t i = 0; i < 20; ++i) {
        acquire::FrameHeader header;
        header.sequence = i;
        recorder->submit(header, frameOf(source, i));
      }
      QTRY_VERIFY(!recorder->stats().error.empty());  // the disk filled while the limit held
    }
    stats = recorder->stop();
    qInfo("%s", stats.error.c_str());
    QVERIFY2(stats.error.find("full.h5 stopped after") != std::string::npos, stats.error.c_str());
    QVERIFY(stats.written >= 3 && stats.written < 20);
    QCOMPARE(stats.written + stats.dropped, std::uint64_t{20});
    // The frames written before the disk filled replay, as an interrupted recording.
    const auto replay = acquire::openSource(path);
    QVERIFY2(replay->describe().find("interrupted") != std::string::npos,
             replay->describe().c_str());
    QVERIFY(replay->frameCount() >= 1 && replay->frameCount() <= stats.written);
    expectReplay(path, source, replay->frameCount(), [](std::uint64_t i) { return i; });
  }

  void recordingsNeverOverwriteAndNameTheirFolder() {
    RandomRfSource source(acquire::SampleType::Int16, 1);
    const std::string existing = file("exists.h5");
    {
      QFile touch(QString::fromStdString(existing));
      QVERIFY(touch.open(QIODevice::WriteOnly));
      touch.write("x");
    }
    const auto refusal = [&](const std::string& path) {
      try {
        store::RawRecorder recorder(path, layoutOf(source), store::RecordCompression::None,
                                    store::RecordPolicy::Block);
      } catch (const store::StoreError& error) {
        return std::string(error.what());
      }
      return std::string();
    };
    QVERIFY(refusal(existing).find("the file exists") != std::string::npos);
    QCOMPARE(QFileInfo(QString::fromStdString(existing)).size(), qint64{1});
    const std::string missing = file("no-such-folder/r.h5");
    QVERIFY2(refusal(missing).find("does not exist") != std::string::npos,
             refusal(missing).c_str());
  }

  void aDamagedChunkIsReportedWithItsFrame() {
    RandomRfSource source(acquire::SampleType::Int16, 4);
    const std::string path = file("damaged.h5");
    {
      store::RawRecorder recorder(path, layoutOf(source), store::RecordCompression::BitshuffleLz4,
                                  store::RecordPolicy::Block);
      for (std::uint64_t i = 0; i < 4; ++i) {
        acquire::FrameHeader header;
        header.sequence = i;
        QVERIFY(recorder.submit(header, frameOf(source, i)));
      }
      QVERIFY(recorder.stop().error.empty());
    }
    {  // frame 2's chunk replaced by one whose first LZ4 block is garbage
      const hid_t h5 = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
      const hid_t rf = H5Dopen2(h5, "rf", H5P_DEFAULT);
      const hsize_t offset[4] = {2, 0, 0, 0};
      hsize_t bytes = 0;
      H5Dget_chunk_storage_size(rf, offset, &bytes);
      std::vector<std::byte> chunk(bytes);
      std::uint32_t mask = 0;
      H5Dread_chunk(rf, H5P_DEFAULT, offset, &mask, chunk.data());
      std::fill(chunk.begin() + 16, chunk.begin() + 48, std::byte{0xff});
      QVERIFY(H5Dwrite_chunk(rf, H5P_DEFAULT, 0, offset, chunk.size(), chunk.data()) >= 0);
      // Frame 3: the last byte of its first LZ4 block is a literal (a block ends in literals):
      // changed, the block still decodes to its size. Only the frame's checksum can tell.
      const hsize_t third[4] = {3, 0, 0, 0};
      H5Dget_chunk_storage_size(rf, third, &bytes);
      chunk.assign(bytes, std::byte{0});
      H5Dread_chunk(rf, H5P_DEFAULT, third, &mask, chunk.data());
      process::ChunkLayout layout;
      process::readChunkLayout(chunk, 2, source.frameBytes(), layout);
      std::byte& literal = chunk[layout.blocks[0].offset + layout.blocks[0].compressedBytes - 1];
      literal ^= std::byte{0x10};
      QVERIFY(H5Dwrite_chunk(rf, H5P_DEFAULT, 0, third, chunk.size(), chunk.data()) >= 0);
      H5Dclose(rf);
      H5Fclose(h5);
    }
    const auto replay = acquire::openSource(path);
    std::vector<std::byte> frame(replay->frameBytes());
    acquire::SliceInfo slice;
    replay->readFrame(1, frame, slice);  // the others are fine
    QVERIFY(frame == frameOf(source, 1));
    const auto refusal = [&](std::uint64_t index) {
      try {
        replay->readFrame(index, frame, slice);
      } catch (const acquire::SourceError& error) {
        return std::string(error.what());
      }
      return std::string("read without an error");
    };
    std::string why = refusal(2);
    QVERIFY2(why.find("damaged.h5") != std::string::npos &&
                 why.find("reading frame 2") != std::string::npos &&
                 why.find("block 1 of") != std::string::npos,
             why.c_str());
    why = refusal(3);
    QVERIFY2(why.find("reading frame 3") != std::string::npos &&
                 why.find("does not match its checksum") != std::string::npos,
             why.c_str());
  }
};

QTEST_GUILESS_MAIN(TestRawRecorder)
#include "test_raw_recorder.moc"
