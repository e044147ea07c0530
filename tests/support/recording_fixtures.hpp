#pragma once
// Frames, recordings and compressed chunks for the raw-recording and compressed-replay tests.

#include <hdf5.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "acquire/frame_source.hpp"
#include "oct/oct_simulator.hpp"
#include "store/recording_layout.hpp"

namespace cineflow::test {

// A small OCT simulator: 48 A-scans of 1024 samples, 5 B-scans.
oct::OctSimulatorConfig smallOct();

// The recording layout of `source`'s modality under its default settings.
store::RecordingLayout layoutOf(const acquire::FrameSource& source);
// Frame `index` of `source`.
std::vector<std::byte> frameOf(acquire::FrameSource& source, std::uint64_t index);

// `values` samples of `bytes` bytes (2: uint16, 4: float32) of a smooth signal plus seeded noise
// of +-30 (the low bits that bit shuffling isolates and LZ4 alone cannot compress).
std::vector<std::byte> smoothSamples(std::uint64_t seed, std::size_t values, std::size_t bytes);

// The chunk of frame `frame` of an open dataset chunked one frame per chunk, as stored.
std::vector<std::byte> storedChunk(hid_t dataset, hsize_t frame);

// In the recording `path`, the chunk of frame `frame` of `dataset` with bytes 16..47 (the start
// of its first LZ4 block) set to 0xff: the block's first token then claims more literals than
// the block holds. `removeChecksums`: also the recording's checksums, as in a file written by
// other software. False when the file cannot be changed.
bool damageChunk(const std::string& path, const char* dataset, hsize_t frame, bool removeChecksums);

// A dataset of tests/data/*_reference.h5 (chunks another program compressed) and the values
// stored plainly beside it.
struct ReferenceFrames {
  std::size_t elementBytes = 0, frameBytes = 0;
  std::vector<std::vector<std::byte>> chunks;  // per frame, as stored
  std::vector<std::byte> expected;             // the plain frames, back to back
  std::span<const std::byte> frame(std::size_t f) const {
    return std::span<const std::byte>(expected).subspan(f * frameBytes, frameBytes);
  }
};
// Reads `dataset` and `plain` of tests/data/`file`; QVERIFY-style failures become exceptions.
ReferenceFrames readReference(const std::string& file, const std::string& dataset,
                              const std::string& plain);

}  // namespace cineflow::test
