#pragma once
// One run of the engine, from start() to the next start(): its two threads, its in-flight device
// slots and its counters. start() makes a new one (nothing of a run is reset by hand); the last
// stays after its run, for stats().

#include <atomic>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include "acquire/frame.hpp"
#include "compute/backend.hpp"
#include "compute/buffer.hpp"
#include "process/staged_chunk.hpp"

namespace cineflow::pipeline {

// One device slot in flight: it owns the raw frame it uploads and the events of its frame.
struct InFlightSlot {
  compute::DeviceBuffer<std::byte> raw;
  // A compressed replay's staged chunk (process/staged_chunk.hpp), decoded into `raw`; the
  // decoder's status, on the device and copied back for the checks after the frame.
  compute::DeviceBuffer<std::byte> staged;
  compute::DeviceBuffer<int> status;
  compute::PinnedBuffer<int> statusHost;
  process::StagedChunk chunk;  // of the frame now in this slot (bytes 0: it arrived decoded)
  std::unique_ptr<compute::Event> decodeStart, decoded;
  // Recorded on the notify stream after the frame's last callback, which reads statusHost and
  // `observed`: the slot's next frame may overwrite them only after that.
  std::unique_ptr<compute::Event> released;
  // D2H copy of the image for the frame observer, made on the compute stream after `done`
  // (so the frame's time leaves it out); `observedCopy` completes with it.
  compute::PinnedBuffer<float> observed;
  std::unique_ptr<compute::Event> observedCopy;
  bool fresh = true;  // the processor's lastImageFresh() for the frame dispatched here
  std::unique_ptr<compute::Event> uploadStart, uploaded, done;
  std::vector<std::unique_ptr<compute::Event>> marks;  // processor stage marks
  acquire::FrameHeader header;                         // of the frame now in this slot
  bool used = false;                                   // holds a dispatched frame not collected
};

struct EngineSession {
  // `lostAtStart`: the source's count of frames it lost (it counts since it opened).
  explicit EngineSession(std::uint64_t lostAtStart) : lostAtStart(lostAtStart) {}
  ~EngineSession() { join(); }
  EngineSession(const EngineSession&) = delete;
  EngineSession& operator=(const EngineSession&) = delete;
  void join();

  std::atomic<bool> stopRequested{false};
  std::atomic<std::uint64_t> acquired{0}, dropped{0}, processed{0}, damaged{0}, skipped{0};
  // The engine thread's: the headers of frames the Latest policy let go at one take (reserved to
  // the ring's slot count at start: no allocation per frame).
  std::vector<acquire::FrameHeader> skippedHeaders;
  // Frames the source lost before they reached Cineflow during this run (a sender's gaps).
  std::atomic<std::uint64_t> lost{0};
  const std::uint64_t lostAtStart;
  std::vector<InFlightSlot> inFlight;
  std::thread acquisitionThread, engineThread;
};

}  // namespace cineflow::pipeline
