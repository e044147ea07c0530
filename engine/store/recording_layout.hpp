#pragma once
// How a modality's raw frames are recorded (modality/modality.hpp, recordingLayout()): its
// recording schema (cineflow.rf/1, cineflow.oct/1), the dataset that holds the frames and each
// frame's shape and sample type, and the attributes and tables at the file's root. The raw
// recorder (raw_recorder.hpp) writes any modality's frames from this alone.

#include <cstdint>
#include <string>
#include <vector>

#include "store/file_metadata.hpp"

namespace cineflow::store {

enum class SampleKind { Int16, Float32, UInt16, UInt8, Int8 };

std::size_t bytesOf(SampleKind kind) noexcept;  // 2, 4, 2, 1, 1

struct RecordingLayout {
  std::string schema;                    // "cineflow.rf/1"
  std::string dataset;                   // "rf": /rf [frames][frameDims...]
  std::vector<std::uint64_t> frameDims;  // [transmits][elements][samples]
  SampleKind sampleKind = SampleKind::Int16;
  std::string dimensions;  // the dataset's "dimensions" attribute: "frames, transmits, ..."
  FileMetadata header;     // root attributes and tables (the acquisition)
  // Also /elevation_m (float64 [frames], metres): each frame's elevation as its source said it
  // (a sweep's slices), for schemas that keep geometry per frame (cineflow.rf/1).
  bool perFrameElevation = false;

  std::uint64_t frameValues() const {
    std::uint64_t values = 1;
    for (const std::uint64_t d : frameDims) {
      values *= d;
    }
    return values;
  }
  std::uint64_t frameBytes() const { return frameValues() * bytesOf(sampleKind); }
};

}  // namespace cineflow::store
