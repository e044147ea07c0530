#pragma once
// The benchmark's workloads and its frame source.
//
// BenchSource stands for a scanner whose DMA engine deposits frames straight into pinned host
// memory: the benchmark should measure the engine (upload, stages), not a host memcpy or a random
// number generator. So the first time readFrame() sees a destination pointer (a host ring slot),
// it fills the whole frame with seeded random samples (never all zeros: int16 uniform in
// [-2000, 2000], float32 uniform in [-1, 1)); afterwards it only stamps the first 4 KiB of that
// slot with fresh random values, which keeps every frame distinct at a negligible cost. It
// remembers up to kMaxSlots pointers in a fixed array and allocates nothing per frame; a
// destination beyond those is filled completely every time (correct, only slower).

#include <array>
#include <cstddef>
#include <cstdint>
#include <random>
#include <span>
#include <string>

#include "acquire/frame_source.hpp"
#include "ultrasound/imaging_params.hpp"
#include "ultrasound/ultrasound_source.hpp"

namespace cineflow::app {

// What one benchmark run processes: the acquisition, its sample type and the imaging grid.
struct BenchWorkload {
  std::string preset;
  std::string description;  // one line for the report
  acquire::AcquisitionParams acq;
  acquire::SampleType sampleType = acquire::SampleType::Int16;
  ultrasound::ImagingParams imaging;
};

// The preset names benchWorkload() accepts, for usage text and error messages.
inline constexpr const char* kBenchPresets = "default, course, disk";

// "default": the simulator's default acquisition (int16) with ImagingParams::defaultsFor(), the
// live GUI's workload. "course": a published short-course workload: 3 transmits (-10, 0, +10
// degrees), 128 elements at 0.298 mm pitch, fs 100 MHz, f0 5 MHz, 8183 float32 samples, a
// 128 x 128 grid over x -15..15 mm, z 20..50 mm, c 1540 m/s, t0 0. "disk": the Verasonics
// rotating disk's acquisition (1 plane wave, 128 elements, 334 int16 samples at 6.67 MHz, PRF
// 10 kHz) on PyMUST's 251 x 251 grid in colour Doppler. Throws std::invalid_argument
// for any other name.
BenchWorkload benchWorkload(const std::string& preset);

// The destinations (host ring slots) a DMA-style benchmark source has filled once: up to
// kMaxSlots pointers in a fixed array, nothing allocated per frame.
class FilledSlots {
 public:
  static constexpr std::size_t kMaxSlots = 64;
  // True when `slot` was filled before; otherwise records it (while there is room) and returns
  // false, and the caller fills it.
  bool filledBefore(const std::byte* slot);
  std::size_t count() const { return count_; }

 private:
  std::array<const std::byte*, kMaxSlots> slots_{};
  std::size_t count_ = 0;
};

class BenchSource final : public ultrasound::UltrasoundSource {
 public:
  static constexpr std::size_t kMaxSlots = FilledSlots::kMaxSlots;
  static constexpr std::size_t kStampBytes = 4096;

  BenchSource(acquire::AcquisitionParams params, acquire::SampleType sampleType,
              std::uint64_t seed = 1);

  const acquire::AcquisitionParams& params() const override { return params_; }
  acquire::SampleType sampleType() const override { return sampleType_; }
  double frameRateHz() const override { return 0.0; }  // as fast as the engine takes them
  std::uint64_t frameCount() const override { return std::uint64_t{1} << 30; }
  // Throws acquire::SourceError when `dst` does not hold exactly frameBytes().
  void readFrame(std::uint64_t index, std::span<std::byte> dst, acquire::SliceInfo& slice) override;
  std::string describe() const override;

  // Destinations filled completely so far (at most kMaxSlots are remembered).
  std::size_t slotsSeen() const { return filled_.count(); }

 private:
  void fillRandom(std::span<std::byte> bytes);

  acquire::AcquisitionParams params_;
  acquire::SampleType sampleType_;
  std::mt19937_64 rng_;
  FilledSlots filled_;
};

}  // namespace cineflow::app
