#pragma once
// Raw plane-wave frames and their acquisition metadata (docs/ultrasound.md, docs/file-formats.md).
// A raw frame is [transmits][elements][samples], int16 or float32, row-major, samples fastest.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cineflow::acquire {

enum class SampleType { Int16, Float32 };

std::size_t sampleBytes(SampleType type) noexcept;
const char* toString(SampleType type) noexcept;

struct AcquisitionParams {
  double samplingFrequencyHz = 0;  // fs
  double centerFrequencyHz = 0;    // f0
  double soundSpeedMPerS = 1540;   // c
  double t0S = 0;                  // time of sample 0 relative to the plane wave crossing (0,0)
  std::vector<double> anglesRad;   // one per transmit
  std::vector<double> elementXM;   // lateral element positions (array centre at x = 0)
  int samples = 0;                 // samples per element per transmit
  double fractionalBandwidth = 0;  // -6 dB bandwidth / f0 when known (0: unknown)
  // True when fractionalBandwidth was measured from the echoes (process/echo_band.hpp) because
  // the recording did not state it; a measured value is not written back as a recorded one.
  bool bandwidthMeasured = false;
  int framesPerVolume = 0;  // elevation positions per sweep (0: not a volume acquisition)
  // The rate at which successive frames insonify the same place (Hz; 0: unknown): the slow-time
  // sampling rate of colour Doppler's ensembles (a recording's pulse_repetition_frequency_hz, a
  // MATLAB export's param.PRF, the simulator's frame rate).
  double pulseRepetitionFrequencyHz = 0;

  int transmits() const { return static_cast<int>(anglesRad.size()); }
  int elements() const { return static_cast<int>(elementXM.size()); }
  std::size_t samplesPerFrame() const {
    return static_cast<std::size_t>(transmits()) * static_cast<std::size_t>(elements()) *
           static_cast<std::size_t>(samples);
  }
  double wavelengthM() const { return soundSpeedMPerS / centerFrequencyHz; }
  // Throws std::invalid_argument naming the first inconsistent field.
  void validate() const;
};

// What the source knows about one frame, besides its samples.
struct SliceInfo {
  int sliceIndex = 0;       // position within the elevation sweep (0 when not a volume)
  double elevationM = 0.0;  // elevation (y) of this frame
};

// Travels with every frame from the source to the display and to disk (docs/development.md, The
// pipeline).
struct FrameHeader {
  std::uint64_t sequence = 0;     // 0, 1, 2, ... in acquisition order, gaps where frames dropped
  std::int64_t timestampNs = 0;   // steady clock, when the frame was acquired
  std::uint64_t sourceIndex = 0;  // index within the source (loops)
  SliceInfo slice;
};

}  // namespace cineflow::acquire
