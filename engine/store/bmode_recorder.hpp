#pragma once
// BmodeRecorder: takes completed B-mode images from the engine's frame observer (a host callback
// on the compute stream, which must stay short) and writes them on its own I/O thread ("cf-io")
// through a BmodeWriter. The images travel through a fixed pool of host buffers sized once:
// push() copies into a free buffer and returns; when every buffer is queued it waits, so in Block
// mode a slow disk slows acquisition instead of losing frames.

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "acquire/frame.hpp"

namespace cineflow::store {

class BmodeWriter;

class BmodeRecorder {
 public:
  BmodeRecorder(std::unique_ptr<BmodeWriter> writer, std::size_t pixelsPerFrame, int buffers = 8);
  // Stops the I/O thread; without finish() the writer is discarded (no file under the final name).
  ~BmodeRecorder();
  BmodeRecorder(const BmodeRecorder&) = delete;
  BmodeRecorder& operator=(const BmodeRecorder&) = delete;

  // Any thread. Throws StoreError when the image size is wrong or a write already failed.
  void push(const acquire::FrameHeader& header, std::span<const float> image);
  // Writes everything queued, then completes the file (temporary name renamed onto the final
  // one). Throws StoreError with the first write error; the file is then not created.
  void finish();
  std::uint64_t framesWritten() const;

 private:
  struct Item {
    acquire::FrameHeader header;
    std::vector<float> pixels;
  };
  void run();

  std::unique_ptr<BmodeWriter> writer_;
  std::size_t pixels_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<Item> items_;
  std::vector<int> freeItems_;  // stack of free item indices
  std::vector<int> queue_;      // ring of queued item indices
  std::size_t queueHead_ = 0;
  std::size_t queueCount_ = 0;
  bool closing_ = false;
  std::string error_;
  std::uint64_t written_ = 0;
  std::thread thread_;
};

}  // namespace cineflow::store
