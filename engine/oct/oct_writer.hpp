#pragma once
// Writes OCT recordings in schema cineflow.oct/1 (oct_recording.hpp), which OctFileSource
// replays. Every file is written under a temporary name and renamed onto its path only when
// complete (store/staged_h5_file.hpp): on any failure nothing is left under the final name and
// StoreError says why (missing or read-only folder, full disk).

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>

#include "acquire/frame_source.hpp"  // ProgressFn
#include "oct/oct_recording.hpp"
#include "oct/oct_source.hpp"
#include "store/file_metadata.hpp"  // AttributeMap

namespace cineflow::oct {

// The root attributes and tables of a cineflow.oct/1 recording of `acquisition` (all but schema).
store::FileMetadata recordingMetadata(const OctAcquisition& acquisition,
                                      const std::optional<OctDispersion>& dispersion);

// A recording of a known number of frames, written frame by frame (so that a converter never
// holds a whole recording in memory). One thread at a time.
class OctRecordingWriter {
 public:
  // Checks `acquisition` (validate(), and bit_depth 12 or 16) and `frames` (>= 1, and at least
  // one volume when the acquisition has volumes: what OctFileSource accepts), then creates
  // the temporary file with the acquisition's attributes, /wavelength_m, the optional dispersion
  // and `extra` (text, numbers, integers: e.g. "source"; a name the schema uses is refused).
  // Throws StoreError "cannot save <path>: ...".
  OctRecordingWriter(const std::filesystem::path& path, const OctAcquisition& acquisition,
                     std::uint64_t frames, const store::AttributeMap& extra = {},
                     std::optional<OctDispersion> dispersion = std::nullopt);
  ~OctRecordingWriter();  // unfinished: the temporary file is removed; never throws
  OctRecordingWriter(const OctRecordingWriter&) = delete;
  OctRecordingWriter& operator=(const OctRecordingWriter&) = delete;

  // Appends whole frames, uint16 [n][ascans][samples] (`spectra.size()` a multiple of
  // samplesPerFrame(), at most the frames still missing). Throws StoreError, after which the
  // writer is spoiled.
  void append(std::span<const std::uint16_t> spectra);
  // Once every frame is appended: closes, syncs and renames onto the final path.
  // Throws StoreError (and nothing is left under the final name).
  void finish();

  std::uint64_t framesWritten() const;

 private:
  struct State;  // HDF5 stays out of this header
  std::unique_ptr<State> state_;
};

// `frames` frames held in `spectra` (uint16 [frames][ascans][samples]), in one call.
// Throws StoreError when `spectra` does not hold exactly that many frames, or as above.
void writeOctRecording(const std::filesystem::path& path, const OctAcquisition& acquisition,
                       std::span<const std::uint16_t> spectra, std::uint64_t frames,
                       const store::AttributeMap& extra = {},
                       std::optional<OctDispersion> dispersion = std::nullopt);

// Every frame of `source` (0 .. frameCount() - 1, as readFrame() gives them) into one recording,
// e.g. the OCT simulator's. Throws StoreError, or SourceError from the source.
void recordOctSource(const std::filesystem::path& path, OctSource& source,
                     const store::AttributeMap& extra = {},
                     std::optional<OctDispersion> dispersion = std::nullopt,
                     const acquire::ProgressFn& progress = {});

}  // namespace cineflow::oct
