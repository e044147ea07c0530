#pragma once
// Reads a saved volume (cineflow.volume/1, store/volume_writer.hpp) back for review. Everything is
// validated before anything is returned: a missing or wrong schema, a missing dataset, a shape that
// does not agree with the axes, a truncated or corrupt file each throw StoreError naming the file
// and the object ("cannot read <path>: /mip_z: shape [16][200], expected [16][248]"); only the
// study (/study) is not required.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "process/volume.hpp"
#include "store/file_metadata.hpp"
#include "store/store_error.hpp"
#include "store/study_info.hpp"

namespace cineflow::store {

struct LoadedVolume {
  process::VolumeInfo info;  // number, shape, slice axes, elevations, sequence, timestamps
  std::vector<float> volume, alongY, alongZ, alongX;
  // The patient and study of its /study group, so that a volume saved again keeps them; none when
  // the file has none, or a damaged one: the volume still opens, and `studyNotice` says why its
  // study was left out.
  std::optional<StudyInfo> study;
  std::string studyNotice;
  // The acquisition the file describes, as its writer was given it (store/acquisition_layout.hpp,
  // writeMetadata): every string or number attribute at its root but the volume's own (schema,
  // volume_number, compression), and every 1-D float64 dataset at its root but its axes, with its
  // units; so that a volume saved again, or exported, is described as its own ("modality" "oct",
  // "centre_wavelength_m", ...). A description that cannot be read is left out (the volume still
  // opens).
  FileMetadata metadata;
};

LoadedVolume readVolumeFile(const std::filesystem::path& path);

}  // namespace cineflow::store
