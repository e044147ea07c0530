// Push sources (acquire/push_channel.hpp, ultrasound/push_source.hpp) from C++: a program's
// thread pushes frames into a running engine. Every frame carries its tag (all its samples equal
// the push's number) and the tagged processor writes the tag into its image, so each image names
// the push it came from: Block images every push in order; Drop images exactly the pushes that
// were taken, counts the others, and mixes none; stop() and close() end a waiting push or read.
// A push whose copy fails (a GPU array's) loses nothing; an offered source ("push://N", what
// cineflow.gui() opens) opens by name while offered and is refused by name after.
#include <QtTest>

#include <atomic>
#include <thread>

#include "acquire/offered_sources.hpp"
#include "acquire/push_channel.hpp"
#include "compute/backend.hpp"
#include "pipeline/engine.hpp"
#include "registry/source_factory.hpp"
#include "registry/ultrasound_engine.hpp"
#include "support/pipeline_checks.hpp"
#include "support/tagged_frames.hpp"
#include "ultrasound/push_source.hpp"

using namespace cineflow;
using Pushed = acquire::PushChannel::Pushed;

namespace {

constexpr int kSamples = 8 * 1024;  // 1 transmit x 8 elements x 1024 samples, float32

struct PushRig {
  std::shared_ptr<acquire::PushChannel> channel;
  std::unique_ptr<pipeline::Engine> engine;
  std::vector<float> frame = std::vector<float>(kSamples);

  PushRig(compute::Backend& backend, pipeline::EngineConfig config, test::Collector& collector,
          std::chrono::microseconds work = std::chrono::microseconds(300)) {
    const test::TaggedSource tagged(kSamples);
    channel = std::make_shared<acquire::PushChannel>(tagged.frameBytes());
    engine = std::make_unique<pipeline::Engine>(backend, config);
    engine->setSource(std::make_unique<ultrasound::PushSource>(
        tagged.params(), acquire::SampleType::Float32, channel));
    engine->setProcessor(std::make_unique<test::TaggedProcessor>(work));
    ultrasound::setImaging(*engine, test::smallGrid());
    engine->setFrameObserver(collector.observer());
  }
  Pushed push(std::uint64_t tag) {
    std::fill(frame.begin(), frame.end(), static_cast<float>(tag));
    return channel->push(std::as_bytes(std::span<const float>(frame)));
  }
};

}  // namespace

class TestPushSource : public QObject {
  Q_OBJECT

 private:
  std::unique_ptr<compute::Backend> cpu_ = compute::createBackend(compute::BackendRequest::Cpu);

 private slots:
  void blockImagesEveryPushInOrder() {
    test::Collector collector;
    pipeline::EngineConfig config;
    config.hostRingSlots = 3;
    PushRig rig(*cpu_, config, collector);
    const auto releaseOnExit = qScopeGuard([&] { collector.release(); });
    collector.stallAt(0);  // the engine held: pushes must wait, not be lost
    rig.engine->start();
    std::atomic<int> taken{0};
    std::thread program([&] {
      for (std::uint64_t tag = 0; tag < 100; ++tag) {
        taken += rig.push(tag) == Pushed::Taken ? 1 : 0;
      }
      rig.channel->close();
    });
    QTRY_VERIFY_WITH_TIMEOUT(collector.stalled(), 30'000);
    collector.release();
    program.join();
    QCOMPARE(rig.engine->waitUntilFinished(), pipeline::EngineState::Finished);
    QCOMPARE(taken.load(), 100);
    const pipeline::EngineStats stats = rig.engine->stats();
    QCOMPARE(stats.processed, std::uint64_t(100));
    QCOMPARE(stats.dropped, std::uint64_t(0));
    const auto frames = collector.frames();
    QCOMPARE(frames.size(), std::size_t(100));
    test::verifyUnmixed(frames);  // image n holds push n: in order, none lost
  }

  void dropImagesExactlyThePushesTaken() {
    test::Collector collector;
    pipeline::EngineConfig config;
    config.hostRingSlots = 2;
    config.overflow = pipeline::OverflowPolicy::Drop;
    PushRig rig(*cpu_, config, collector);
    const auto releaseOnExit = qScopeGuard([&] { collector.release(); });
    collector.stallAt(0);
    rig.engine->start();
    std::vector<std::uint64_t> taken;
    std::uint64_t dropped = 0;
    std::thread program([&] {
      for (std::uint64_t tag = 0; tag < 300; ++tag) {
        const Pushed result = rig.push(tag);
        if (result == Pushed::Taken) {
          taken.push_back(tag);
        } else if (result == Pushed::Dropped) {
          ++dropped;
        }
      }
      rig.channel->close();
    });
    // Held, the engine takes nothing: the program's frames drop for as long as it is held.
    QTRY_VERIFY_WITH_TIMEOUT(collector.stalled() && rig.channel->dropped() >= 50, 30'000);
    collector.release();
    program.join();
    QCOMPARE(rig.engine->waitUntilFinished(), pipeline::EngineState::Finished);
    const pipeline::EngineStats stats = rig.engine->stats();
    QCOMPARE(taken.size() + dropped, std::size_t(300));
    QCOMPARE(stats.dropped, dropped);
    QCOMPARE(stats.processed, std::uint64_t(taken.size()));
    const auto frames = collector.frames();
    QCOMPARE(frames.size(), taken.size());
    for (std::size_t i = 0; i < frames.size(); ++i) {
      QCOMPARE(frames[i].lo, frames[i].hi);  // never two pushes in one image
      QCOMPARE(static_cast<std::uint64_t>(frames[i].lo), taken[i]);  // the push it came from
    }
  }

  void latestImagesTheNewestAndLetsEveryFrameThroughTheTap() {
    test::Collector collector;
    pipeline::EngineConfig config;
    config.hostRingSlots = 4;
    config.overflow = pipeline::OverflowPolicy::Latest;
    PushRig rig(*cpu_, config, collector);
    std::vector<std::uint64_t> tapped;  // what a recording would get, in order
    rig.engine->setRawFrameTap(std::make_shared<const pipeline::RawFrameTap>(
        [&tapped](const acquire::FrameHeader&, std::span<const std::byte> frame) {
          tapped.push_back(
              static_cast<std::uint64_t>(*reinterpret_cast<const float*>(frame.data())));
        }));
    const auto releaseOnExit = qScopeGuard([&] { collector.release(); });
    collector.stallAt(0);  // processing held: frames pile up behind it
    rig.engine->start();
    std::atomic<int> taken{0};
    std::thread program([&] {
      for (std::uint64_t tag = 0; tag < 60; ++tag) {
        taken += rig.push(tag) == Pushed::Taken ? 1 : 0;
      }
      rig.channel->close();
    });
    // Held, the engine takes nothing: the program's pushes wait once the ring is full (none is
    // dropped), then processing goes on from the newest of the frames waiting.
    QTRY_VERIFY_WITH_TIMEOUT(collector.stalled() && rig.channel->pushed() >= 4, 30'000);
    collector.release();
    program.join();
    QCOMPARE(rig.engine->waitUntilFinished(), pipeline::EngineState::Finished);
    // Nothing lost before the tap: every push was taken and reached it, in order.
    QCOMPARE(taken.load(), 60);
    QCOMPARE(tapped.size(), std::size_t(60));
    for (std::size_t i = 0; i < tapped.size(); ++i) {
      QCOMPARE(tapped[i], std::uint64_t(i));
    }
    // Imaged: the newest each time, the others skipped and counted; the last push was imaged.
    const pipeline::EngineStats stats = rig.engine->stats();
    QCOMPARE(stats.dropped, std::uint64_t(0));
    QCOMPARE(stats.processed + stats.skipped, std::uint64_t(60));
    QVERIFY2(stats.skipped > 0, "processing was held: older frames must have been let go");
    const auto frames = collector.frames();
    QCOMPARE(frames.size(), stats.processed);
    for (std::size_t i = 0; i < frames.size(); ++i) {
      QCOMPARE(frames[i].lo, frames[i].hi);  // never two pushes in one image
      if (i > 0) {
        QVERIFY(frames[i].lo > frames[i - 1].lo);  // in order, none twice
      }
    }
    QCOMPARE(static_cast<std::uint64_t>(frames.back().lo), std::uint64_t(59));
  }

  void stopEndsAWaitingPushAndRefusesMore() {
    test::Collector collector;
    pipeline::EngineConfig config;
    config.hostRingSlots = 2;
    PushRig rig(*cpu_, config, collector);
    const auto releaseOnExit = qScopeGuard([&] { collector.release(); });
    collector.stallAt(0);
    rig.engine->start();
    std::atomic<bool> refused{false};
    std::thread program([&] {
      for (std::uint64_t tag = 0;; ++tag) {
        if (rig.push(tag) == Pushed::NotRunning) {
          refused = true;
          return;
        }
      }
    });
    QTRY_VERIFY_WITH_TIMEOUT(collector.stalled() && rig.channel->pushed() >= 3, 30'000);
    collector.release();
    rig.engine->stop();  // the program's waiting push returns, refused
    program.join();
    QVERIFY(refused.load());
    QCOMPARE(rig.push(0), Pushed::NotRunning);
    const pipeline::EngineStats stats = rig.engine->stats();
    QCOMPARE(stats.processed, stats.acquired);  // Block: what was taken was imaged
    QCOMPARE(stats.processed, rig.channel->pushed());
  }

  void aFailedCopyKeepsTheReaderWaitingForTheNextPush() {
    test::Collector collector;
    pipeline::EngineConfig config;
    config.hostRingSlots = 2;
    PushRig rig(*cpu_, config, collector);
    rig.engine->start();
    std::thread program([&] {
      const auto closeOnExit = qScopeGuard([&] { rig.channel->close(); });  // also on a failure
      const auto failing = [](std::span<std::byte>) {
        throw std::runtime_error("the device copy failed");
      };
      QVERIFY_THROWS_EXCEPTION(std::runtime_error,
                               rig.channel->push(rig.frame.size() * sizeof(float), failing));
      for (std::uint64_t tag = 0; tag < 5; ++tag) {
        // The Fill overload, as a device frame's copy uses it: fills the slot with the tag.
        const auto fill = [tag](std::span<std::byte> slot) {
          const std::span<float> samples(reinterpret_cast<float*>(slot.data()),
                                         slot.size() / sizeof(float));
          std::fill(samples.begin(), samples.end(), static_cast<float>(tag));
        };
        QCOMPARE(rig.channel->push(rig.frame.size() * sizeof(float), fill), Pushed::Taken);
      }
    });
    program.join();
    QCOMPARE(rig.engine->waitUntilFinished(), pipeline::EngineState::Finished);
    QCOMPARE(rig.channel->pushed(), std::uint64_t(5));  // the failed push counts nowhere
    const auto frames = collector.frames();
    QCOMPARE(frames.size(), std::size_t(5));
    test::verifyUnmixed(frames);  // images 0..4 hold pushes 0..4
  }

  void anOfferedSourceOpensByNameWhileOffered() {
    const test::TaggedSource tagged(kSamples);
    auto channel = std::make_shared<acquire::PushChannel>(tagged.frameBytes());
    std::string spec;
    {
      const acquire::SourceOffer offer("a test's push source", [&tagged, channel] {
        return std::make_unique<ultrasound::PushSource>(tagged.params(),
                                                        acquire::SampleType::Float32, channel);
      });
      spec = offer.spec();
      QVERIFY(spec.starts_with(acquire::kPushScheme));
      QVERIFY(!acquire::readsFileFromOutside(spec));
      const auto offered = acquire::offeredSources();
      QVERIFY(std::any_of(offered.begin(), offered.end(), [&](const acquire::OfferedSource& o) {
        return o.spec == spec && o.label == "a test's push source";
      }));
      const auto source = acquire::openSource(spec);
      QCOMPARE(source->frameBytes(), tagged.frameBytes());
      QCOMPARE(source->frameRateHz(), 0.0);  // the program paces
      // A second offer gets a name of its own.
      const acquire::SourceOffer other("another", [] { return nullptr; });
      QVERIFY(other.spec() != spec);
    }
    try {
      acquire::openSource(spec);
      QFAIL("a withdrawn offer opened");
    } catch (const acquire::SourceError& e) {
      QVERIFY2(QString::fromStdString(e.what()).contains(QStringLiteral("no source is offered")),
               e.what());
    }
  }

  void aPushOfAnotherSizeIsRefused() {
    acquire::PushChannel channel(64);
    channel.start();
    std::vector<std::byte> wrong(63);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, channel.push(wrong));
    std::vector<std::byte> right(64);
    QCOMPARE(channel.push(right, {}, std::chrono::milliseconds(20)), Pushed::TimedOut);
    channel.close();
    QCOMPARE(channel.push(right), Pushed::Closed);
  }
};

QTEST_GUILESS_MAIN(TestPushSource)
#include "test_push_source.moc"
