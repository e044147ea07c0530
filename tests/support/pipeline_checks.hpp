#pragma once
// Pipeline checks shared by the CPU test (tests/unit/test_pipeline.cpp) and the CUDA test
// (tests/gpu/test_cuda_pipeline.cpp): one body, both backends (house style rule 9,
// docs/development.md). They use QTest macros: call them from a test slot, then return if
// QTest::currentTestFailed().

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "compute/backend.hpp"
#include "pipeline/engine.hpp"
#include "support/tagged_frames.hpp"
#include "ultrasound/imaging_params.hpp"

namespace cineflow::test {

struct Observed {
  std::uint64_t sequence;
  float lo, hi;
  int nx;
};

// Collects the tag pixels of every completed frame (observer on the engine's compute stream).
// stallAt(n) makes the observer hold the stream at the first frame numbered n or later until
// release(): the engine stops taking frames, the host ring fills, and under Drop the source's
// frames drop for as long as the test waits, which makes drops a matter of order, not of speed.
// Release before the engine stops or is destroyed.
class Collector {
 public:
  Collector() { frames_.reserve(100000); }
  pipeline::FrameObserver observer();
  std::vector<Observed> frames() const;
  void stallAt(std::uint64_t sequence);
  bool stalled() const;  // the observer is holding the stream
  void release();

 private:
  mutable std::mutex mutex_;
  std::condition_variable released_;
  std::vector<Observed> frames_;
  std::optional<std::uint64_t> stallAt_;
  bool stalled_ = false;
};

ultrasound::ImagingParams smallGrid(double widthMm = 1.0);

std::unique_ptr<pipeline::Engine> makeTaggedEngine(
    compute::Backend& backend, pipeline::EngineConfig config, Collector* collector,
    std::chrono::microseconds work = std::chrono::microseconds(0),
    TaggedSource** sourceOut = nullptr, TaggedProcessor** processorOut = nullptr);

// Every image holds exactly one input, the one its header names.
void verifyUnmixed(const std::vector<Observed>& frames);

void checkBlockLosesNothingAndKeepsOrder(compute::Backend& backend);
void checkDropCountsExactlyAndNeverMixes(compute::Backend& backend);
void checkStopWhileBusyFinishesWhatWasAcquired(compute::Backend& backend);
void checkDestroyWhileFramesAreInFlight(compute::Backend& backend);

}  // namespace cineflow::test
