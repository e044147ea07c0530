// What an operator meets, injected while Cineflow runs: the disk filling during a recording and
// during a save (a real tmpfs of a few hundred kilobytes, ENOSPC; support/small_file_system.hpp),
// the output folder removed in the middle of a save, a source plugin that stops delivering, and a
// device memory budget below what a configuration needs. Each must end with a clear message, the
// engine still running (or ready to run again), and nothing already acquired lost. A network
// sender that stalls or disappears is test_network_stream's (aKilledSenderIsWaitedFor...).
#include <QTemporaryDir>
#include <QtTest>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "acquire/frame_source.hpp"
#include "compute/backend.hpp"
#include "pipeline/engine.hpp"
#include "registry/source_factory.hpp"
#include "store/raw_recorder.hpp"
#include "store/volume_saver.hpp"
#include "store/volume_store.hpp"
#include "support/plain_hdf5.hpp"
#include "support/recording_fixtures.hpp"
#include "support/small_file_system.hpp"
#include "ultrasound/ultrasound_modality.hpp"

using namespace cineflow;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

bool gPrivateMounts = false;

std::string plugin(const char* fault) {
  return "plugin:" + std::string(CINEFLOW_FAULTY_PLUGIN_DIR) + "/libfaulty-" + fault + ".so";
}

pipeline::EngineConfig liveConfig() {
  pipeline::EngineConfig config;
  config.pace = true;
  config.frameRateHz = 200;
  return config;
}

// A volume of `shape` with seeded values, buffered into `store`; its id.
std::uint64_t bufferVolume(compute::Backend& backend, store::VolumeStore& store,
                           const process::VolumeShape& shape) {
  process::VolumeInfo info;
  info.shape = shape;
  info.slice = {shape.nx, shape.nz, -1e-3, 1e-4, 5e-3, 1e-4};
  for (int y = 0; y < shape.ny; ++y) {
    info.elevationM.push_back(1e-4 * y);
    info.sequence.push_back(static_cast<std::uint64_t>(y));
    info.timestampNs.push_back(y * 1000000);
  }
  const auto fill = [&](std::size_t count, std::uint64_t seed) {
    compute::DeviceBuffer<float> buffer(backend, count);
    std::vector<float> values(count);
    std::uint64_t state = seed;
    for (float& v : values) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      v = -60.0f * static_cast<float>(state >> 40) / static_cast<float>(1 << 24);
    }
    backend.copyBlocking(buffer.data(), values.data(), count * sizeof(float));
    return buffer;
  };
  const auto volume = fill(shape.voxels(), 1), y = fill(shape.alongY(), 2),
             z = fill(shape.alongZ(), 3), x = fill(shape.alongX(), 4);
  auto stream = backend.createStream("fault-test");
  auto done = backend.createEvent();
  stream->record(*done);
  std::string why;
  const auto id = store.buffer(info,
                               {compute::DeviceSpan<const float>(volume.data(), volume.size()),
                                compute::DeviceSpan<const float>(y.data(), y.size()),
                                compute::DeviceSpan<const float>(z.data(), z.size()),
                                compute::DeviceSpan<const float>(x.data(), x.size())},
                               *done, *stream, why);
  stream->synchronize();
  return id.value_or(0);
}

store::SaveRequest saveRequest(std::uint64_t id, const fs::path& path) {
  return {id, path, ultrasound::describeAcquisition(test::someAcquisition()), {}, {}};
}

}  // namespace

class TestFaults : public QObject {
  Q_OBJECT

  std::unique_ptr<compute::Backend> cpu_ = compute::createBackend(compute::BackendRequest::Cpu);

 private slots:
  void aFullDiskDuringARecordingStopsItAndKeepsItsFrames();
  void aFullDiskDuringASaveKeepsTheVolume();
  void theOutputFolderRemovedMidSaveKeepsTheVolume();
  void aStalledPluginIsShownAndStopEndsTheWait();
  void aDeviceMemoryBudgetTooSmallRefusesTheConfiguration();
};

void TestFaults::aFullDiskDuringARecordingStopsItAndKeepsItsFrames() {
  const test::SmallFileSystem disk(384 * 1024);
  if (!disk.mounted()) {
    QSKIP(
        "cannot mount a small tmpfs here (neither root nor user namespaces); "
        "test_raw_recorder's full-disk test covers it with a file-size limit");
  }
  pipeline::Engine engine(*cpu_, liveConfig());
  engine.setSource(acquire::openSource(plugin("good")));
  const fs::path path = disk.path() / "recording.h5";
  auto recorder = std::make_unique<store::RawRecorder>(path, test::layoutOf(*engine.source()),
                                                       store::RecordCompression::None,
                                                       store::RecordPolicy::Drop);
  engine.setRawFrameTap(std::make_shared<const pipeline::RawFrameTap>(
      [&recorder](const acquire::FrameHeader& header, std::span<const std::byte> frame) {
        recorder->submit(header, frame);
      }));
  engine.start();
  // 16 KiB frames into 384 KiB: the disk fills within about twenty frames.
  QTRY_VERIFY_WITH_TIMEOUT(!recorder->stats().error.empty(), 20000);
  const std::uint64_t processedAtFailure = engine.stats().processed;
  // The engine goes on imaging: the operator still sees the live image.
  QTRY_VERIFY_WITH_TIMEOUT(engine.stats().processed >= processedAtFailure + 10, 10000);
  QCOMPARE(engine.state(), pipeline::EngineState::Running);
  engine.stop();
  engine.setRawFrameTap(nullptr);
  const store::RecorderStats stats = recorder->stop();
  qInfo("%s", stats.error.c_str());
  QVERIFY2(stats.error.find("recording.h5") != std::string::npos, stats.error.c_str());
  QVERIFY2(stats.error.find("No space left on device") != std::string::npos, stats.error.c_str());
  QVERIFY(stats.written >= 1);
  // What was written before the disk filled replays, as an interrupted recording, bit for bit.
  const auto replay = acquire::openSource(path.string());
  QVERIFY(replay->frameCount() >= 1 && replay->frameCount() <= stats.written);
  QVERIFY2(replay->describe().find("interrupted") != std::string::npos, replay->describe().c_str());
  auto original = acquire::openSource(plugin("good"));
  for (std::uint64_t i = 0; i < replay->frameCount(); ++i) {
    QVERIFY(test::frameOf(*replay, i) == test::frameOf(*original, i % original->frameCount()));
  }
}

void TestFaults::aFullDiskDuringASaveKeepsTheVolume() {
  const test::SmallFileSystem disk(256 * 1024);
  if (!disk.mounted()) {
    QSKIP("cannot mount a small tmpfs here; test_volume_save covers it with a file-size limit");
  }
  store::VolumeStore store(*cpu_);
  QVERIFY(store.setCapacity(64 << 20).empty());
  const std::uint64_t id = bufferVolume(*cpu_, store, {8, 120, 100});  // 384 KB of voxels
  QVERIFY(id != 0);
  store::VolumeSaver saver(*cpu_, store);
  saver.save(saveRequest(id, disk.path() / "volume.h5"));
  saver.waitIdle();
  auto outcomes = saver.takeOutcomes();
  QCOMPARE(outcomes.size(), std::size_t{1});
  qInfo("%s", outcomes.front().message.c_str());
  QVERIFY(!outcomes.front().ok);
  QVERIFY2(outcomes.front().message.find("volume.h5") != std::string::npos,
           outcomes.front().message.c_str());
  QVERIFY2(outcomes.front().message.find("No space left on device") != std::string::npos,
           outcomes.front().message.c_str());
  QVERIFY(!test::anyPartialFile(disk.path()));
  QCOMPARE(store.list().size(), std::size_t{1});
  QVERIFY(!store.list().front().saved);
  // With room elsewhere, the same volume saves whole.
  QTemporaryDir elsewhere;
  saver.save(saveRequest(id, fs::path(elsewhere.path().toStdString()) / "volume.h5"));
  saver.waitIdle();
  outcomes = saver.takeOutcomes();
  QVERIFY2(outcomes.size() == 1 && outcomes.front().ok, outcomes.front().message.c_str());
  QVERIFY(store.list().front().saved);
}

void TestFaults::theOutputFolderRemovedMidSaveKeepsTheVolume() {
  store::VolumeStore store(*cpu_);
  QVERIFY(store.setCapacity(256 << 20).empty());
  const std::uint64_t id = bufferVolume(*cpu_, store, {48, 400, 320});  // 24.6 MB of voxels
  QVERIFY(id != 0);
  store::VolumeSaver saver(*cpu_, store);
  QTemporaryDir root;
  bool caught = false;
  for (int attempt = 0; attempt < 3 && !caught; ++attempt) {
    const fs::path folder = fs::path(root.path().toStdString()) / ("out" + std::to_string(attempt));
    fs::create_directories(folder);
    store::SaveRequest request = saveRequest(id, folder / "volume.h5");
    request.compression = store::parseCompression("gzip-9");  // slower: a wider window
    saver.save(request);
    // As soon as slices are being written, the folder goes (a USB disk pulled, a share gone).
    while (saver.pending() > 0) {
      if (saver.progress().fraction > 0.15) {
        fs::remove_all(folder);
        break;
      }
      std::this_thread::sleep_for(1ms);
    }
    saver.waitIdle();
    const auto outcomes = saver.takeOutcomes();
    QCOMPARE(outcomes.size(), std::size_t{1});
    if (outcomes.front().ok) {
      continue;  // the save won the race: try again
    }
    caught = true;
    qInfo("%s", outcomes.front().message.c_str());
    QVERIFY2(outcomes.front().message.find("volume.h5") != std::string::npos,
             outcomes.front().message.c_str());
    QVERIFY(!fs::exists(folder));
  }
  if (!caught) {
    QSKIP("every save finished before its folder could be removed");
  }
  QCOMPARE(store.list().size(), std::size_t{1});
  QVERIFY(!store.list().front().saved);  // still buffered, still to be saved
  const fs::path again = fs::path(root.path().toStdString()) / "again" / "volume.h5";
  fs::create_directories(again.parent_path());
  saver.save(saveRequest(id, again));
  saver.waitIdle();
  const auto outcomes = saver.takeOutcomes();
  QVERIFY2(outcomes.size() == 1 && outcomes.front().ok, outcomes.front().message.c_str());
}

void TestFaults::aStalledPluginIsShownAndStopEndsTheWait() {
  pipeline::Engine engine(*cpu_, liveConfig());
  engine.setSource(acquire::openSource(plugin("STALL")));
  engine.start();
  // Frames 0 to 3 arrive, then the plugin waits: the operator is told, by the plugin's name.
  QTRY_COMPARE_WITH_TIMEOUT(engine.stats().processed, std::uint64_t{4}, 10000);
  QTRY_VERIFY_WITH_TIMEOUT(
      engine.stats().sourceStatus.find("no frame from source plugin 'Faulty STALL' for") !=
          std::string::npos,
      10000);
  QCOMPARE(engine.state(), pipeline::EngineState::Running);
  qInfo("%s", engine.stats().sourceStatus.c_str());
  // Stop ends the plugin's wait (its stop), and keeps what was acquired.
  engine.stop();
  const pipeline::EngineStats stats = engine.stats();
  QVERIFY(stats.state != pipeline::EngineState::Failed);
  QVERIFY2(stats.error.empty(), stats.error.c_str());
  QCOMPARE(stats.processed, std::uint64_t{4});
}

void TestFaults::aDeviceMemoryBudgetTooSmallRefusesTheConfiguration() {
  auto backend = compute::createBackend(compute::BackendRequest::Cpu);
  backend->setDeviceMemoryBudget(256 * 1024);  // far below a beamformer's buffers
  {
    pipeline::EngineConfig config = liveConfig();
    config.maxFrames = 20;
    pipeline::Engine engine(*backend, config);
    engine.setSource(acquire::openSource(plugin("good")));
    QString refused;
    try {
      engine.start();
    } catch (const std::runtime_error& e) {
      refused = QString::fromUtf8(e.what());
    }
    qInfo("%s", qPrintable(refused));
    QVERIFY2(refused.contains("device memory budget") && refused.contains("MiB budget"),
             qPrintable(refused));
    QVERIFY(engine.state() != pipeline::EngineState::Running);
    QVERIFY(backend->deviceMemoryBudget().used() <= 256 * 1024);
    // The same engine runs once the budget allows it.
    backend->setDeviceMemoryBudget(0);
    engine.start();
    QCOMPARE(engine.waitUntilFinished(), pipeline::EngineState::Finished);
    QCOMPARE(engine.stats().processed, std::uint64_t{20});
    engine.stop();
  }
  // Every device byte the engine took, it gave back.
  QCOMPARE(backend->deviceMemoryBudget().used(), std::size_t{0});
}

int main(int argc, char** argv) {
  // Before any thread starts: the small file systems are mounted in a namespace of our own.
  gPrivateMounts = test::enterPrivateMounts();
  if (!gPrivateMounts) {
    std::fprintf(stderr,
                 "test_faults: no private mount namespace here; the full-disk tests skip\n");
  }
  TestFaults test;
  return QTest::qExec(&test, argc, argv);
}

#include "test_faults.moc"
