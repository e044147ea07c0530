#include "store/bmode_recorder.hpp"

#include <algorithm>
#include <exception>

#include "compute/thread_name.hpp"
#include "store/bmode_writer.hpp"
#include "store/store_error.hpp"

namespace cineflow::store {

BmodeRecorder::BmodeRecorder(std::unique_ptr<BmodeWriter> writer, std::size_t pixelsPerFrame,
                             int buffers)
    : writer_(std::move(writer)), pixels_(pixelsPerFrame) {
  const int count = std::max(1, buffers);
  items_.resize(static_cast<std::size_t>(count));
  queue_.assign(static_cast<std::size_t>(count), -1);
  for (int i = count - 1; i >= 0; --i) {
    items_[static_cast<std::size_t>(i)].pixels.resize(pixels_);
    freeItems_.push_back(i);
  }
  thread_ = std::thread([this] { run(); });
}

BmodeRecorder::~BmodeRecorder() {
  {
    std::lock_guard lock(mutex_);
    closing_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) {
    thread_.join();
  }
}

void BmodeRecorder::push(const acquire::FrameHeader& header, std::span<const float> image) {
  if (image.size() != pixels_) {
    throw StoreError("recorder: image of " + std::to_string(image.size()) + " pixels, expected " +
                     std::to_string(pixels_));
  }
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return !freeItems_.empty() || !error_.empty() || closing_; });
  if (!error_.empty()) {
    throw StoreError(error_);
  }
  if (closing_) {
    throw StoreError("recorder: push after finish");
  }
  const int index = freeItems_.back();
  freeItems_.pop_back();
  lock.unlock();
  Item& item = items_[static_cast<std::size_t>(index)];  // owned by this thread until queued
  item.header = header;
  std::copy(image.begin(), image.end(), item.pixels.begin());
  lock.lock();
  queue_[(queueHead_ + queueCount_) % queue_.size()] = index;
  ++queueCount_;
  lock.unlock();
  changed_.notify_all();
}

void BmodeRecorder::run() {
  compute::setCurrentThreadName("cf-io");
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
    Item& item = items_[static_cast<std::size_t>(index)];
    std::string message;
    if (!failed) {
      try {
        writer_->appendFrame(item.header, item.pixels);
      } catch (const std::exception& e) {
        message = e.what();
      }
    }
    lock.lock();
    if (!message.empty() && error_.empty()) {
      error_ = message;
    } else if (!failed && message.empty()) {
      ++written_;
    }
    freeItems_.push_back(index);
    changed_.notify_all();
  }
}

void BmodeRecorder::finish() {
  {
    std::lock_guard lock(mutex_);
    closing_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) {
    thread_.join();  // the I/O thread writes what is queued, then exits
  }
  if (!error_.empty()) {
    throw StoreError(error_);
  }
  writer_->finish();
}

std::uint64_t BmodeRecorder::framesWritten() const {
  std::lock_guard lock(mutex_);
  return written_;
}

}  // namespace cineflow::store
