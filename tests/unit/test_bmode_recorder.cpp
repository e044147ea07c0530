// The B-mode recorder (store/bmode_recorder.hpp) never holds the stream its images come from: its
// push() copies and queues, drops and counts when every slot is taken, and with admission (the
// Block policy) nothing is lost because the acquisition waits instead. A sink that holds every
// write until the test releases it makes each check a matter of order and counts, never of time.
#include <QtTest>

#include <algorithm>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "compute/backend.hpp"
#include "pipeline/engine.hpp"
#include "registry/ultrasound_engine.hpp"
#include "store/bmode_recorder.hpp"
#include "store/store_error.hpp"
#include "support/pipeline_checks.hpp"
#include "support/tagged_frames.hpp"
#include "ultrasound/ultrasound_modality.hpp"

using namespace cineflow;

namespace {

// What reached the "disk", in order. Writes wait while `held`.
struct DiskLog {
  std::mutex mutex;
  std::condition_variable changed;
  bool held = false;
  bool writing = false;  // a write is waiting for release()
  std::vector<std::uint64_t> sequences;
  std::vector<float> firstPixels;
  std::vector<std::string> events;  // "wrote 3", and the test's own
  std::optional<std::uint64_t> failAt;
  bool finished = false;

  void hold() {
    std::lock_guard lock(mutex);
    held = true;
  }
  void release() {
    {
      std::lock_guard lock(mutex);
      held = false;
    }
    changed.notify_all();
  }
  void waitUntilWriting() {
    std::unique_lock lock(mutex);
    changed.wait(lock, [&] { return writing; });
  }
  void note(std::string event) {
    std::lock_guard lock(mutex);
    events.push_back(std::move(event));
  }
  std::size_t indexOf(const std::string& event) {
    std::lock_guard lock(mutex);
    return static_cast<std::size_t>(std::find(events.begin(), events.end(), event) -
                                    events.begin());
  }
};

class LoggingSink final : public store::FrameSink {
 public:
  explicit LoggingSink(std::shared_ptr<DiskLog> log) : log_(std::move(log)) {}
  void appendFrame(const acquire::FrameHeader& header, std::span<const float> image,
                   bool /*fresh*/) override {
    std::unique_lock lock(log_->mutex);
    if (log_->failAt == header.sequence) {
      throw store::StoreError("disk full at frame " + std::to_string(header.sequence));
    }
    log_->writing = true;
    log_->changed.notify_all();
    log_->changed.wait(lock, [&] { return !log_->held; });
    log_->writing = false;
    log_->sequences.push_back(header.sequence);
    log_->firstPixels.push_back(image[0]);
    log_->events.push_back("wrote " + std::to_string(header.sequence));
  }
  void finish() override {
    std::lock_guard lock(log_->mutex);
    log_->finished = true;
  }

 private:
  std::shared_ptr<DiskLog> log_;
};

constexpr std::size_t kPixels = 6;

// Frame `sequence`, every pixel `sequence` + 0.5.
struct Image {
  acquire::FrameHeader header;
  std::vector<float> pixels;
};
Image image(std::uint64_t sequence) {
  Image result{{}, std::vector<float>(kPixels, static_cast<float>(sequence) + 0.5f)};
  result.header.sequence = sequence;
  return result;
}
bool push(store::BmodeRecorder& recorder, std::uint64_t sequence) {
  const Image frame = image(sequence);
  return recorder.push(frame.header, frame.pixels);
}

// A recorder of `slots` images whose disk holds every write until log->release().
struct HeldRecording {
  std::shared_ptr<DiskLog> log = std::make_shared<DiskLog>();
  std::unique_ptr<store::BmodeRecorder> recorder;

  explicit HeldRecording(int slotCount) {
    log->hold();
    recorder = std::make_unique<store::BmodeRecorder>(std::make_unique<LoggingSink>(log), kPixels,
                                                      slotCount);
  }
  // Frame 0 (admitted first when asked), on the disk and held there on return.
  bool startWriting(bool admitted) {
    if (admitted) {
      recorder->admit();
    }
    const bool kept = push(*recorder, 0);
    log->waitUntilWriting();
    return kept;
  }
};

}  // namespace

class TestBmodeRecorder : public QObject {
  Q_OBJECT

 private slots:
  void pushNeverWaitsAndCountsWhatItDrops() {
    HeldRecording held(3);
    const std::shared_ptr<DiskLog>& log = held.log;
    store::BmodeRecorder& recorder = *held.recorder;
    QVERIFY(held.startWriting(false));  // frame 0's slot is with the disk, held there
    QVERIFY(push(recorder, 1));
    QVERIFY(push(recorder, 2));
    for (std::uint64_t sequence = 3; sequence < 10; ++sequence) {
      QVERIFY(!push(recorder, sequence));  // every slot taken: dropped at once, not waited for
    }
    QCOMPARE(recorder.framesDropped(), std::uint64_t(7));
    log->release();
    recorder.finish();
    QCOMPARE(recorder.framesWritten(), std::uint64_t(3));
    QCOMPARE(log->sequences, (std::vector<std::uint64_t>{0, 1, 2}));
    QCOMPARE(log->firstPixels, (std::vector<float>{0.5f, 1.5f, 2.5f}));  // copies, not views
    QVERIFY(log->finished);
  }

  void admissionWaitsForTheDiskAndLosesNothing() {
    HeldRecording held(2);
    const std::shared_ptr<DiskLog>& log = held.log;
    store::BmodeRecorder& recorder = *held.recorder;
    QVERIFY(held.startWriting(true));
    recorder.admit();
    QVERIFY(push(recorder, 1));
    // Both slots are taken: the next admission can only return once the disk frees one.
    bool kept = false;
    std::thread acquisition([&] {
      recorder.admit();
      log->note("admitted 2");
      kept = push(recorder, 2);
    });
    log->release();
    acquisition.join();
    recorder.finish();
    QVERIFY(kept);
    QVERIFY(log->indexOf("wrote 0") < log->indexOf("admitted 2"));
    QCOMPARE(log->sequences, (std::vector<std::uint64_t>{0, 1, 2}));
    QCOMPARE(recorder.framesDropped(), std::uint64_t(0));
  }

  void aReservationKeepsItsSlotFromUnadmittedPushes() {
    HeldRecording held(2);
    const std::shared_ptr<DiskLog>& log = held.log;
    store::BmodeRecorder& recorder = *held.recorder;
    QVERIFY(held.startWriting(false));  // not admitted: takes the one unreserved slot
    recorder.admit();                   // reserves the other
    QVERIFY(push(recorder, 1));         // uses the reservation
    QVERIFY(!push(recorder, 2));
    log->release();
    recorder.finish();
    QCOMPARE(log->sequences, (std::vector<std::uint64_t>{0, 1}));
    QCOMPARE(recorder.framesDropped(), std::uint64_t(1));
  }

  void closingAdmissionReleasesAWaitingAcquisition() {
    HeldRecording held(1);
    const std::shared_ptr<DiskLog>& log = held.log;
    store::BmodeRecorder& recorder = *held.recorder;
    QVERIFY(held.startWriting(true));
    std::string error;
    std::thread acquisition([&] {
      try {
        recorder.admit();  // no slot will free while the disk is held
      } catch (const store::StoreError& e) {
        error = e.what();
      }
    });
    recorder.closeAdmission();
    acquisition.join();
    QVERIFY2(error.find("no more frames are admitted") != std::string::npos, error.c_str());
    log->release();
    recorder.finish();
    QCOMPARE(recorder.framesWritten(), std::uint64_t(1));
  }

  void aWriteErrorReachesTheCaller() {
    auto log = std::make_shared<DiskLog>();
    log->failAt = 1;
    store::BmodeRecorder recorder(std::make_unique<LoggingSink>(log), kPixels, 4);
    QVERIFY(push(recorder, 0));
    QVERIFY(push(recorder, 1));
    QVERIFY_THROWS_EXCEPTION(store::StoreError, recorder.finish());
    QVERIFY(!log->finished);  // a failed recording is not completed
    QCOMPARE(log->sequences, (std::vector<std::uint64_t>{0}));
    const std::vector<float> wrongSize(kPixels + 1);
    QVERIFY_THROWS_EXCEPTION(store::StoreError, recorder.push({}, wrongSize));
  }

  // Without admission (as under the Drop policy): all 40 frames complete on the compute stream
  // while the disk holds the first one. Were push() to wait for a slot, the observer would hold
  // the stream and the engine could never finish.
  void theStreamKeepsCompletingFramesWhileTheDiskIsHeld() {
    auto backend = compute::createBackend(compute::BackendRequest::Cpu);
    pipeline::EngineConfig config;
    config.pace = false;
    config.maxFrames = 40;
    auto log = std::make_shared<DiskLog>();
    log->hold();
    store::BmodeRecorder recorder(std::make_unique<LoggingSink>(log),
                                  test::smallGrid().geometry().pixels(), 4);
    auto engine = test::makeTaggedEngine(*backend, config, nullptr);
    engine->setFrameObserver([&recorder](const pipeline::CompletedFrame& frame) {
      recorder.push(frame.header, frame.image);
    });
    engine->start();
    QCOMPARE(engine->waitUntilFinished(), pipeline::EngineState::Finished);
    engine->stop();
    QCOMPARE(engine->stats().processed, std::uint64_t(40));
    QCOMPARE(engine->stats().dropped, std::uint64_t(0));
    QCOMPARE(recorder.framesDropped(), std::uint64_t(36));  // 4 slots: frames 0..3 kept
    log->release();
    recorder.finish();
    QCOMPARE(log->sequences, (std::vector<std::uint64_t>{0, 1, 2, 3}));
    QCOMPARE(log->firstPixels, (std::vector<float>{0, 1, 2, 3}));  // the tag of each input
  }

  // With admission (Block): the stream completes every admitted frame while the disk holds the
  // first, the acquisition waits for the disk, and once released all 40 frames reach it in order.
  void admissionHoldsTheAcquisitionNotTheStream() {
    auto backend = compute::createBackend(compute::BackendRequest::Cpu);
    pipeline::EngineConfig config;
    config.pace = false;
    config.maxFrames = 40;
    config.overflow = pipeline::OverflowPolicy::Block;
    auto log = std::make_shared<DiskLog>();
    log->hold();
    constexpr int kSlots = 4;
    store::BmodeRecorder recorder(std::make_unique<LoggingSink>(log),
                                  test::smallGrid().geometry().pixels(), kSlots);
    std::mutex mutex;
    std::condition_variable pushedMore;
    std::uint64_t pushed = 0;
    std::uint64_t dropped = 0;
    auto engine = test::makeTaggedEngine(*backend, config, nullptr);
    engine->setSource(store::admittingSource(std::make_unique<test::TaggedSource>(), recorder));
    ultrasound::setImaging(*engine,
                           test::smallGrid());  // a new source starts from its own defaults
    engine->setFrameObserver([&](const pipeline::CompletedFrame& frame) {
      const bool kept = recorder.push(frame.header, frame.image);
      {
        std::lock_guard lock(mutex);
        ++pushed;
        dropped += kept ? 0 : 1;
      }
      pushedMore.notify_all();
    });
    engine->start();
    {
      std::unique_lock lock(mutex);
      pushedMore.wait(lock, [&] { return pushed == kSlots; });
    }
    // Every admitted frame went through the stream; the next one waits for the disk, unread.
    QCOMPARE(engine->state(), pipeline::EngineState::Running);
    QVERIFY(engine->stats().acquired <= std::uint64_t(kSlots));
    log->release();
    QCOMPARE(engine->waitUntilFinished(), pipeline::EngineState::Finished);
    recorder.closeAdmission();
    engine->stop();
    recorder.finish();
    {
      std::lock_guard lock(mutex);
      QCOMPARE(pushed, std::uint64_t(40));
      QCOMPARE(dropped, std::uint64_t(0));
    }
    QCOMPARE(recorder.framesDropped(), std::uint64_t(0));
    QCOMPARE(recorder.framesWritten(), std::uint64_t(40));
    QCOMPARE(engine->stats().dropped, std::uint64_t(0));
    for (std::uint64_t i = 0; i < 40; ++i) {
      QCOMPARE(log->sequences[i], i);
      QCOMPARE(log->firstPixels[i], static_cast<float>(i));
    }
  }
};

QTEST_APPLESS_MAIN(TestBmodeRecorder)
#include "test_bmode_recorder.moc"
