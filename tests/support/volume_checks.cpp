#include "support/volume_checks.hpp"

#include <QtTest>

#include <algorithm>
#include <chrono>
#include <iterator>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "compute/buffer.hpp"
#include "pipeline/engine.hpp"
#include "store/volume_store.hpp"
#include "support/mip_reference.hpp"
#include "support/pipeline_checks.hpp"

using namespace std::chrono_literals;

namespace cineflow::test {
namespace {

std::vector<float> toHost(const compute::Backend& backend, compute::DeviceSpan<const float> span) {
  std::vector<float> host(span.size());
  backend.copyBlocking(host.data(), span.data(), span.bytes());
  return host;
}

struct Seen {
  std::uint64_t number;
  std::vector<std::uint64_t> sequence;
};

// The sweeps (sequence / slices) of the processed frames: whole, or cut by a drop.
struct SweepCount {
  std::uint64_t whole = 0;
  std::uint64_t cut = 0;
  bool lastCut = false;  // the newest sweep is cut: it may still have been open
  std::uint64_t closedCut() const { return cut - (lastCut ? 1 : 0); }
};

SweepCount countSweeps(const std::vector<Observed>& frames, int slices) {
  std::map<std::uint64_t, int> processed;  // sweep -> its slices processed
  for (const Observed& frame : frames) {
    ++processed[frame.sequence / static_cast<std::uint64_t>(slices)];
  }
  SweepCount count;
  for (auto sweep = processed.begin(); sweep != processed.end(); ++sweep) {
    const bool whole = sweep->second == slices;
    count.whole += whole ? 1 : 0;
    count.cut += whole ? 0 : 1;
    count.lastCut = !whole && std::next(sweep) == processed.end();
  }
  return count;
}

}  // namespace

void checkVolumesAssembleSweepsAndChainCopies(compute::Backend& backend) {
  constexpr int kSlices = 4;
  constexpr int kVolumes = 5;
  pipeline::EngineConfig config;
  config.pace = false;
  config.framesPerVolume = kSlices;
  config.cineloopFrames = 2 * kSlices;  // two blocks: every block is reused
  config.maxFrames = kSlices * kVolumes;
  auto engine = makeTaggedEngine(backend, config, nullptr);

  // The callback chains a copy of each volume and of its projection along y onto the endpoint
  // stream, into buffers owned here (allocated before start: nothing is allocated in the loop).
  const process::ImageGeometry slice = smallGrid().geometry();
  const process::VolumeShape shape{kSlices, slice.nz, slice.nx};
  std::vector<compute::DeviceBuffer<float>> copies, mipCopies;
  for (int v = 0; v < kVolumes; ++v) {
    copies.emplace_back(backend, shape.voxels());
    mipCopies.emplace_back(backend, shape.alongY());
  }
  std::mutex mutex;
  std::vector<Seen> seen;
  engine->setVolumeCallback([&](const process::VolumeEndpoint& endpoint) {
    const auto index = static_cast<std::size_t>(endpoint.info.number);
    if (index < copies.size()) {
      endpoint.stream.copyAsync(copies[index].data(), endpoint.view.volume.data(),
                                endpoint.view.volume.bytes());
      endpoint.stream.copyAsync(mipCopies[index].data(), endpoint.view.alongY.data(),
                                endpoint.view.alongY.bytes());
    }
    std::lock_guard lock(mutex);
    seen.push_back({endpoint.info.number, endpoint.info.sequence});
  });
  QCOMPARE(engine->framesPerVolume(), 0);  // not started yet
  engine->start();
  QCOMPARE(engine->framesPerVolume(), kSlices);
  QCOMPARE(engine->waitUntilFinished(), pipeline::EngineState::Finished);
  engine->stop();

  const auto stats = engine->stats();
  QCOMPARE(stats.volumes, std::uint64_t{kVolumes});
  QCOMPARE(stats.volumesAbandoned, std::uint64_t{0});
  QCOMPARE(seen.size(), std::size_t{kVolumes});
  for (int v = 0; v < kVolumes; ++v) {
    QCOMPARE(seen[static_cast<std::size_t>(v)].number, std::uint64_t(v));
    for (int y = 0; y < kSlices; ++y) {
      QCOMPARE(seen[static_cast<std::size_t>(v)].sequence[static_cast<std::size_t>(y)],
               std::uint64_t(v * kSlices + y));
    }
  }

  const process::VolumeLock latest = engine->lockLatestVolume();
  QVERIFY(latest);
  latest.done().synchronize();
  QCOMPARE(latest.info().number, std::uint64_t{kVolumes - 1});
  QCOMPARE(latest.info().shape, shape);
  const std::vector<float> volume = toHost(backend, latest.view().volume);
  // Each slice is its frame's image: the tag (the frame's index) in pixels 0 and 1.
  for (int y = 0; y < kSlices; ++y) {
    const float* image = volume.data() + static_cast<std::size_t>(y) * shape.alongY();
    const auto sequence = latest.info().sequence[static_cast<std::size_t>(y)];
    QCOMPARE(image[0], static_cast<float>(sequence));
    QCOMPARE(image[1], static_cast<float>(sequence));
    std::vector<float> pixels;
    acquire::FrameHeader header;
    process::ImageGeometry geometry;
    QVERIFY(engine->cineloop().copyImage(sequence, pixels, header, geometry));
    QVERIFY(std::equal(pixels.begin(), pixels.end(), image));
  }
  const Mips expected = referenceMips(volume, shape);
  QVERIFY(identical(toHost(backend, latest.view().alongY), expected.alongY));
  QVERIFY(identical(toHost(backend, latest.view().alongZ), expected.alongZ));
  QVERIFY(identical(toHost(backend, latest.view().alongX), expected.alongX));
  // The chained copies of the last volume, bit for bit.
  const auto last = static_cast<std::size_t>(kVolumes - 1);
  QVERIFY(identical(toHost(backend, copies[last].view()), volume));
  QVERIFY(identical(toHost(backend, mipCopies[last].view()), expected.alongY));
  // And an earlier one, long overwritten in the engine: the copy kept what it was.
  const std::vector<float> first = toHost(backend, copies[0].view());
  QCOMPARE(first[0], 0.0f);
  QCOMPARE(first[3 * shape.alongY()], 3.0f);
}

void checkDroppedFramesAbandonSweeps(compute::Backend& backend) {
  // The engine is held now and then (Collector::stallAt) while the source keeps its rate, so frames
  // drop in runs. A run that takes part of a sweep cuts it; one that happens to take whole sweeps
  // only cuts none, so the stalls repeat until some sweep was cut. The counts are checked against
  // the frames the engine processed, whatever the machine's speed made of the rest.
  constexpr int kSlices = 3;
  pipeline::EngineConfig config;
  // The source's rate: 500 Hz, or a quarter of what this engine sustains where that is less
  // (under compute-sanitizer's racecheck a frame takes tens of milliseconds), so that only the
  // stalls drop frames and whole sweeps come between them. Measured, not a limit.
  {
    pipeline::EngineConfig unpaced;
    unpaced.pace = false;
    unpaced.framesPerVolume = kSlices;
    unpaced.cineloopFrames = 2 * kSlices;
    unpaced.maxFrames = 24;
    auto probe = makeTaggedEngine(backend, unpaced, nullptr);
    const auto begin = std::chrono::steady_clock::now();
    probe->start();
    QCOMPARE(probe->waitUntilFinished(), pipeline::EngineState::Finished);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    probe->stop();
    config.frameRateHz = std::min(500.0, 0.25 * static_cast<double>(unpaced.maxFrames) / seconds);
    qInfo("source paced at %.1f Hz", config.frameRateHz);
  }
  config.pace = true;
  config.overflow = pipeline::OverflowPolicy::Drop;
  config.hostRingSlots = 2;
  config.framesPerVolume = kSlices;
  config.cineloopFrames = 2 * kSlices;
  Collector collector;
  auto engine = makeTaggedEngine(backend, config, &collector);
  std::mutex mutex;
  std::vector<Seen> seen;
  engine->setVolumeCallback([&](const process::VolumeEndpoint& endpoint) {
    std::lock_guard lock(mutex);
    seen.push_back({endpoint.info.number, endpoint.info.sequence});
  });
  const auto releaseOnExit = qScopeGuard([&] { collector.release(); });
  engine->start();
  for (int stall = 0; stall < 20 && countSweeps(collector.frames(), kSlices).closedCut() == 0;
       ++stall) {
    const std::uint64_t dropped = engine->stats().dropped;
    const std::vector<Observed> frames = collector.frames();
    collector.stallAt(frames.empty() ? 0 : frames.back().sequence + 1);
    QTRY_VERIFY_WITH_TIMEOUT(collector.stalled() && engine->stats().dropped >= dropped + 2, 30'000);
    collector.release();
    const std::uint64_t volumes = engine->stats().volumes;
    QTRY_VERIFY_WITH_TIMEOUT(engine->stats().volumes > volumes, 30'000);  // whole sweeps again
  }
  engine->stop();
  const auto stats = engine->stats();
  const SweepCount sweeps = countSweeps(collector.frames(), kSlices);
  qInfo("%llu dropped; %llu whole sweeps, %llu cut; %llu volumes, %llu sweeps abandoned",
        static_cast<unsigned long long>(stats.dropped),
        static_cast<unsigned long long>(sweeps.whole), static_cast<unsigned long long>(sweeps.cut),
        static_cast<unsigned long long>(stats.volumes),
        static_cast<unsigned long long>(stats.volumesAbandoned));
  QVERIFY(stats.dropped > 0);
  QVERIFY2(sweeps.closedCut() > 0, "no stall cut a sweep");
  QCOMPARE(stats.volumes, sweeps.whole);  // every whole sweep is a volume, and only those
  // Every cut sweep is abandoned; the last one may still have been open when the engine stopped.
  QVERIFY(stats.volumesAbandoned >= sweeps.closedCut() && stats.volumesAbandoned <= sweeps.cut);
  QCOMPARE(seen.size(), static_cast<std::size_t>(stats.volumes));
  for (std::size_t v = 0; v < seen.size(); ++v) {
    QCOMPARE(seen[v].number, std::uint64_t(v));
    for (int y = 0; y < kSlices; ++y) {
      // One whole sweep: source index (here the sequence) modulo K is the slice, in order.
      QCOMPARE(seen[v].sequence[static_cast<std::size_t>(y)] % kSlices, std::uint64_t(y));
      if (y > 0) {
        QCOMPARE(seen[v].sequence[static_cast<std::size_t>(y)],
                 seen[v].sequence[static_cast<std::size_t>(y) - 1] + 1);
      }
    }
  }
}

void checkVolumeLockHoldsTheVolume(compute::Backend& backend) {
  constexpr int kSlices = 2;
  pipeline::EngineConfig config;
  config.pace = false;
  config.framesPerVolume = kSlices;
  config.cineloopFrames = 2 * kSlices;  // two blocks
  auto engine = makeTaggedEngine(backend, config, nullptr);
  engine->start();
  QTRY_VERIFY_WITH_TIMEOUT(engine->stats().volumes >= 3, 10'000);
  process::VolumeLock lock = engine->lockLatestVolume();
  QVERIFY(lock);
  lock.done().synchronize();
  const std::uint64_t number = lock.info().number;
  const std::vector<float> before = toHost(backend, lock.view().volume);
  // The engine fills the other block once, then has to wait for this one.
  std::this_thread::sleep_for(200ms);
  const std::uint64_t whileLocked = engine->stats().volumes;
  QVERIFY2(whileLocked <= number + 2,
           qPrintable(
               QString("volume %1 locked, yet %2 volumes completed").arg(number).arg(whileLocked)));
  QCOMPARE(lock.info().number, number);
  QVERIFY(identical(toHost(backend, lock.view().volume), before));
  lock = process::VolumeLock();  // release
  QTRY_VERIFY_WITH_TIMEOUT(engine->stats().volumes > whileLocked + 2, 10'000);
  engine->stop();
  QCOMPARE(engine->stats().state, pipeline::EngineState::Stopped);
}

void checkStoreAutoBuffersUntilFull(compute::Backend& backend) {
  constexpr int kSlices = 4;
  pipeline::EngineConfig config;
  config.pace = false;
  config.framesPerVolume = kSlices;
  config.cineloopFrames = 2 * kSlices;
  config.maxFrames = kSlices * 6;
  auto engine = test::makeTaggedEngine(backend, config, nullptr);
  store::VolumeStore store(backend);
  const process::ImageGeometry slice = test::smallGrid().geometry();
  const process::VolumeShape shape{kSlices, slice.nz, slice.nx};
  const std::size_t bytes =
      (shape.voxels() + shape.alongY() + shape.alongZ() + shape.alongX()) * sizeof(float);
  QVERIFY(store.setCapacity(3 * bytes).empty());
  store.setAutoBuffer(true);
  engine->setVolumeCallback([&](const process::VolumeEndpoint& e) { store.onVolume(e); });
  engine->start();
  QCOMPARE(engine->waitUntilFinished(), pipeline::EngineState::Finished);
  engine->stop();
  QCOMPARE(engine->stats().volumes, std::uint64_t{6});
  const auto list = store.list();
  QCOMPARE(list.size(), std::size_t{3});
  for (std::size_t i = 0; i < list.size(); ++i) {
    QCOMPARE(list[i].info.number, std::uint64_t(i));
    QCOMPARE(list[i].info.sequence.front(), std::uint64_t(i * kSlices));
  }
  QVERIFY(!store.autoBuffer());
  const std::string notice = store.takeNotice();
  QVERIFY2(notice.find("Auto-buffer stopped at volume 3") != std::string::npos, notice.c_str());
  QVERIFY(store.takeNotice().empty());
  // A buffered volume's slices are its frames: the tag in pixel 0.
  const auto access = store.access(list[1].id);
  access.ready().synchronize();
  const std::vector<float> voxels = toHost(backend, access.view().volume);
  for (int y = 0; y < kSlices; ++y) {
    QCOMPARE(voxels[static_cast<std::size_t>(y) * shape.alongY()], static_cast<float>(kSlices + y));
  }

  // "Buffer" takes the newest complete volume (number 5) once space is free.
  std::string why;
  QVERIFY(!store.bufferLatest(engine->lockLatestVolume(), why));
  QVERIFY2(why.find("full") != std::string::npos, why.c_str());
  QVERIFY(store.discard(list[0].id).empty());
  const auto latest = store.bufferLatest(engine->lockLatestVolume(), why);
  QVERIFY2(latest, why.c_str());
  QCOMPARE(store.access(*latest).info().number, std::uint64_t{5});
}

}  // namespace cineflow::test
