#pragma once
// BmodeRecorder: writes completed B-mode images to a file (or any FrameSink) from its own I/O
// thread ("cf-io"), so that nothing slow runs where the images come from: the engine's frame
// observer, a host callback in the compute stream's order, which holds that stream (and on CUDA
// the driver's one callback thread, so every stream's callbacks) for as long as it runs.
//
// push(), the observer's half, copies the image into a free slot of a pool sized once and queues
// it; it never waits, never allocates. When no slot is free it drops the image and counts it
// (framesDropped()); the file then has a gap in /sequence. The I/O thread writes the queued
// slots in order and frees them.
//
// Lossless recording (the engine's Block policy): admit() reserves a slot for a frame before the
// frame enters the pipeline, waiting while every slot is written, queued or reserved, so a slow
// disk holds back the acquisition thread, as a full host ring does, and never a stream. A push()
// while reservations are open uses one and always finds its slot. admittingSource() wraps a
// FrameSource so that each frame is admitted once before it is read. Admit every frame or none: a
// push() for a frame that was not admitted would take another's reservation; an admitted frame
// that is never pushed must be withdrawn, or its slot stays reserved.

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "acquire/frame.hpp"
#include "acquire/frame_source.hpp"

namespace cineflow::store {

class BmodeWriter;

// Where the recorder's frames go, on its I/O thread.
class FrameSink {
 public:
  virtual ~FrameSink() = default;
  // `fresh`: every layer was computed from this frame (pipeline CompletedFrame::fresh).
  virtual void appendFrame(const acquire::FrameHeader& header, std::span<const float> image,
                           bool fresh) = 0;
  virtual void finish() = 0;  // after the last frame
  // Before finish(): the run ended early for `reason` (a file says so in an attribute).
  virtual void markIncomplete(const std::string& /*reason*/) {}
};

// The cineflow.bmode/1 file behind `writer` (a completed file only after finish()).
std::unique_ptr<FrameSink> bmodeFileSink(std::unique_ptr<BmodeWriter> writer);

class BmodeRecorder {
 public:
  // `slots` images of `pixelsPerFrame` floats are allocated here, once. For lossless recording
  // give it more than the frames the pipeline holds (host ring + in-flight slots), or the
  // reservations throttle the pipeline below the disk's pace.
  BmodeRecorder(std::unique_ptr<FrameSink> sink, std::size_t pixelsPerFrame, int slots = 8);
  // Stops the I/O thread; without finish() the sink is discarded (for a file: none is created).
  ~BmodeRecorder();
  BmodeRecorder(const BmodeRecorder&) = delete;
  BmodeRecorder& operator=(const BmodeRecorder&) = delete;

  // Any one thread (the acquisition thread): waits until a slot can be reserved for the next
  // push(), and reserves it. Throws StoreError when a write failed or admission is closed.
  void admit();
  // Any thread; never waits: gives back the reservation of an admitted frame that will never be
  // pushed (skipped as damaged: the engine's discard observer). Does nothing without one.
  void withdraw();
  // Wakes every admit() and makes it, and every later one, throw: for when no more frames will
  // be pushed (the engine finished or failed), so that no acquisition thread waits for ever.
  void closeAdmission();
  // Any thread; never waits. Returns false when it dropped the image (no slot free). Throws
  // StoreError when the image size is wrong, a write already failed, or after finish().
  // `fresh` goes to the sink with the image (FrameSink::appendFrame).
  bool push(const acquire::FrameHeader& header, std::span<const float> image, bool fresh = true);
  // Closes admission, writes everything queued, then finishes the sink (for a file: the
  // temporary name is renamed onto the final one). Throws StoreError with the first write error;
  // the file is then not created.
  void finish();
  // finish() for a run that ended early: the sink is told `reason` first (store/bmode_writer.hpp:
  // the file keeps every frame written and says it is incomplete, and why).
  void finishIncomplete(const std::string& reason);

  std::uint64_t framesWritten() const;
  std::uint64_t framesDropped() const;  // pushes that found no free slot

 private:
  struct Slot {
    acquire::FrameHeader header;
    std::vector<float> pixels;
    bool fresh = true;
  };
  void run();
  std::size_t unreservedFree() const;  // caller holds mutex_

  std::unique_ptr<FrameSink> sink_;
  std::size_t pixels_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<Slot> slots_;
  std::vector<int> freeSlots_;  // stack of free slot indices
  std::vector<int> queue_;      // ring of queued slot indices
  std::size_t queueHead_ = 0;
  std::size_t queueCount_ = 0;
  std::size_t reserved_ = 0;  // admitted frames not yet pushed; each holds a free slot
  bool admissionClosed_ = false;
  bool closing_ = false;
  std::string error_;
  std::string incompleteReason_;  // controlling thread only
  std::uint64_t written_ = 0;
  std::uint64_t dropped_ = 0;
  std::thread thread_;  // last: starts after every other member exists
};

// `source` with each readFrame() admitted into `recorder` first (the acquisition thread then
// waits there while the recorder is full). `recorder` must outlive the returned source.
std::unique_ptr<acquire::FrameSource> admittingSource(std::unique_ptr<acquire::FrameSource> source,
                                                      BmodeRecorder& recorder);

}  // namespace cineflow::store
