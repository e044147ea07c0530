#pragma once
// Writes cineflow.rf/1 recordings, good and deliberately damaged, with the plain HDF5 C API (no
// Cineflow code), so that reader tests do not trust the code they test.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cineflow::test {

enum class RfDefect {
  None,
  MissingRfDataset,        // no /rf
  RfIsGroup,               // /rf is a group
  MissingSchema,           // no schema attribute
  WrongSchema,             // schema = "cineflow.rf/2"
  MissingAttribute,        // no sampling_frequency_hz
  AttributeWrongType,      // sound_speed_m_s stored as a string
  NonPositiveAttribute,    // center_frequency_hz = 0
  WrongRank,               // /rf is [frames][transmits * elements][samples]
  UnsupportedDtype,        // /rf is int32
  MissingAngles,           // no /angles_rad
  AnglesShapeMismatch,     // /angles_rad has transmits + 1 values
  ElementsShapeMismatch,   // /element_x_m has elements - 1 values
  ElementsNotIncreasing,   // /element_x_m reversed
  ElevationShapeMismatch,  // /elevation_m has frames + 2 values
  ZeroFrames,              // /rf is [0][transmits][elements][samples]
  CorruptFrameData,        // frame 1's compressed chunk overwritten (metadata intact)
};

// The object a reader's error message must name for `defect` ("/rf", "sampling_frequency_hz").
const char* defectObject(RfDefect defect);
const char* toString(RfDefect defect);

struct RfFileSpec {
  int frames = 3, transmits = 2, elements = 16, samples = 128;
  bool float32 = false;
  bool withElevation = true;
  bool attributesOnRoot = false;  // the shipped files keep them on /rf; the root is allowed too
  double fs = 20e6, f0 = 5e6, c = 1540, t0 = 1.5e-6;
  double fractionalBandwidthPercent = 60;  // < 0: attribute omitted
  std::uint64_t seed = 42;
  RfDefect defect = RfDefect::None;
};

// What was written (frame-major, [frames][transmits][elements][samples]).
struct RfFileContents {
  std::vector<std::int16_t> int16Samples;  // when !float32
  std::vector<float> float32Samples;       // when float32
  std::vector<double> anglesRad, elementXM, elevationM;
  std::size_t frameSamples = 0;
};

// Writes `spec` to `path` (replacing it); aborts the test program with a message on HDF5 errors.
RfFileContents writeRfFile(const std::string& path, const RfFileSpec& spec);
// Cuts `path` to `fraction` of its size.
void truncateFile(const std::string& path, double fraction);
// Writes `bytes` seeded random bytes.
void writeRandomBytes(const std::string& path, std::size_t bytes, std::uint64_t seed);

}  // namespace cineflow::test
