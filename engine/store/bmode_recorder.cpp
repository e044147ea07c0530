#include "store/bmode_recorder.hpp"

#include <algorithm>
#include <exception>

#include "base/thread_name.hpp"
#include "store/bmode_writer.hpp"
#include "store/store_error.hpp"

namespace cineflow::store {
namespace {

class BmodeFileSink final : public FrameSink {
 public:
  explicit BmodeFileSink(std::unique_ptr<BmodeWriter> writer) : writer_(std::move(writer)) {}
  void appendFrame(const acquire::FrameHeader& header, std::span<const float> image,
                   bool fresh) override {
    writer_->appendFrame(header, image, fresh);
  }
  void finish() override { writer_->finish(); }
  void markIncomplete(const std::string& reason) override { writer_->markIncomplete(reason); }

 private:
  std::unique_ptr<BmodeWriter> writer_;
};

class AdmittingSource final : public acquire::FrameSource {
 public:
  AdmittingSource(std::unique_ptr<acquire::FrameSource> source, BmodeRecorder& recorder)
      : source_(std::move(source)), recorder_(recorder) {}
  const modality::Modality& modality() const override { return source_->modality(); }
  std::size_t frameBytes() const override { return source_->frameBytes(); }
  int framesPerVolume() const override { return source_->framesPerVolume(); }
  const acquire::FrameSource& origin() const override { return source_->origin(); }
  double frameRateHz() const override { return source_->frameRateHz(); }
  std::uint64_t frameCount() const override { return source_->frameCount(); }
  // A frame is admitted once, whichever reads it takes: the engine reads a compressed frame with
  // readStoredFrame() and, when that returns 0 or its chunk cannot be staged (blocks of a size
  // the staging path does not take), reads the same frame again with readFrame(), which then
  // uses that admission. A read that throws leaves the frame admitted: the engine reports it to
  // the discard observer (damaged, skipped), or the run ends and closes admission.
  void readFrame(std::uint64_t index, std::span<std::byte> dst,
                 acquire::SliceInfo& slice) override {
    if (!(storedAdmitted_ && storedIndex_ == index)) {
      recorder_.admit();
    }
    storedAdmitted_ = false;
    source_->readFrame(index, dst, slice);
  }
  acquire::StoredFormat storedFormat() const override { return source_->storedFormat(); }
  std::size_t readStoredFrame(std::uint64_t index, std::span<std::byte> dst,
                              acquire::SliceInfo& slice) override {
    recorder_.admit();
    storedAdmitted_ = true;
    storedIndex_ = index;
    return source_->readStoredFrame(index, dst, slice);
  }
  void skipFrame(std::uint64_t index) override { source_->skipFrame(index); }
  void startAcquisition() override { source_->startAcquisition(); }
  void stopAcquisition() override { source_->stopAcquisition(); }
  std::uint64_t lostFrames() const override { return source_->lostFrames(); }
  acquire::LostFrames lostFramesByKind() const override { return source_->lostFramesByKind(); }
  void endWithSender(bool end) override { source_->endWithSender(end); }
  std::string liveStatus() const override { return source_->liveStatus(); }
  std::vector<std::pair<std::string, std::uint64_t>> transportCounters() const override {
    return source_->transportCounters();
  }
  std::string describe() const override { return source_->describe(); }

 private:
  std::unique_ptr<acquire::FrameSource> source_;
  BmodeRecorder& recorder_;
  // The frame readStoredFrame() admitted, which a readFrame() of the same index then takes
  // (acquisition thread only).
  bool storedAdmitted_ = false;
  std::uint64_t storedIndex_ = 0;
};

}  // namespace

std::unique_ptr<FrameSink> bmodeFileSink(std::unique_ptr<BmodeWriter> writer) {
  return std::make_unique<BmodeFileSink>(std::move(writer));
}

std::unique_ptr<acquire::FrameSource> admittingSource(std::unique_ptr<acquire::FrameSource> source,
                                                      BmodeRecorder& recorder) {
  return std::make_unique<AdmittingSource>(std::move(source), recorder);
}

BmodeRecorder::BmodeRecorder(std::unique_ptr<FrameSink> sink, std::size_t pixelsPerFrame, int slots)
    : sink_(std::move(sink)), pixels_(pixelsPerFrame) {
  const int count = std::max(1, slots);
  slots_.resize(static_cast<std::size_t>(count));
  queue_.assign(static_cast<std::size_t>(count), -1);
  for (int i = count - 1; i >= 0; --i) {
    slots_[static_cast<std::size_t>(i)].pixels.resize(pixels_);
    freeSlots_.push_back(i);
  }
  thread_ = std::thread([this] { run(); });
}

BmodeRecorder::~BmodeRecorder() {
  {
    std::lock_guard lock(mutex_);
    admissionClosed_ = true;
    closing_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) {
    thread_.join();
  }
}

std::size_t BmodeRecorder::unreservedFree() const {
  return freeSlots_.size() - reserved_;  // never negative: a reservation holds a free slot
}

void BmodeRecorder::admit() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return unreservedFree() > 0 || !error_.empty() || admissionClosed_; });
  if (!error_.empty()) {
    throw StoreError(error_);
  }
  if (admissionClosed_) {
    throw StoreError("recorder: no more frames are admitted (recording has ended)");
  }
  ++reserved_;
}

void BmodeRecorder::withdraw() {
  {
    std::lock_guard lock(mutex_);
    if (reserved_ == 0) {
      return;
    }
    --reserved_;
  }
  changed_.notify_all();
}

void BmodeRecorder::closeAdmission() {
  {
    std::lock_guard lock(mutex_);
    admissionClosed_ = true;
  }
  changed_.notify_all();
}

bool BmodeRecorder::push(const acquire::FrameHeader& header, std::span<const float> image,
                         bool fresh) {
  if (image.size() != pixels_) {
    throw StoreError("recorder: image of " + std::to_string(image.size()) + " pixels, expected " +
                     std::to_string(pixels_));
  }
  std::unique_lock lock(mutex_);
  if (!error_.empty()) {
    throw StoreError(error_);
  }
  if (closing_) {
    throw StoreError("recorder: push after finish");
  }
  if (reserved_ > 0) {
    --reserved_;  // an admitted frame: its reservation held this slot free
  } else if (unreservedFree() == 0) {
    ++dropped_;
    return false;
  }
  const int index = freeSlots_.back();
  freeSlots_.pop_back();
  lock.unlock();
  Slot& slot = slots_[static_cast<std::size_t>(index)];  // owned by this call until queued
  slot.header = header;
  slot.fresh = fresh;
  std::copy(image.begin(), image.end(), slot.pixels.begin());
  lock.lock();
  queue_[(queueHead_ + queueCount_) % queue_.size()] = index;
  ++queueCount_;
  lock.unlock();
  changed_.notify_all();
  return true;
}

void BmodeRecorder::run() {
  base::setCurrentThreadName("cf-io");
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return queueCount_ > 0 || closing_; });
    if (queueCount_ == 0) {
      return;
    }
    const int index = queue_[queueHead_];
    queueHead_ = (queueHead_ + 1) % queue_.size();
    --queueCount_;
    const bool failed = !error_.empty();
    lock.unlock();
    Slot& slot = slots_[static_cast<std::size_t>(index)];
    std::string message;
    if (!failed) {
      try {
        sink_->appendFrame(slot.header, slot.pixels, slot.fresh);
      } catch (const std::exception& e) {
        message = std::string("recorder: ") + e.what();
      } catch (...) {
        message = "recorder: the sink threw an exception that is not a std::exception";
      }
    }
    lock.lock();
    if (!message.empty() && error_.empty()) {
      error_ = message;
    } else if (!failed && message.empty()) {
      ++written_;
    }
    freeSlots_.push_back(index);
    changed_.notify_all();
  }
}

void BmodeRecorder::finishIncomplete(const std::string& reason) {
  incompleteReason_ = reason.empty() ? "ended early" : reason;
  finish();
}

void BmodeRecorder::finish() {
  {
    std::lock_guard lock(mutex_);
    admissionClosed_ = true;
    closing_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) {
    thread_.join();  // the I/O thread writes what is queued, then exits
  }
  if (!error_.empty()) {
    throw StoreError(error_);
  }
  if (!incompleteReason_.empty()) {
    sink_->markIncomplete(incompleteReason_);
  }
  sink_->finish();
}

std::uint64_t BmodeRecorder::framesWritten() const {
  std::lock_guard lock(mutex_);
  return written_;
}

std::uint64_t BmodeRecorder::framesDropped() const {
  std::lock_guard lock(mutex_);
  return dropped_;
}

}  // namespace cineflow::store
