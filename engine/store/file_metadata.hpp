#pragma once
// What a saved file records besides its images, in a form every modality can fill and every
// writer can write without knowing the modality (modality/modality.hpp): root attributes (text,
// numbers, integers as HDF5 integers) and small float64 datasets with their units (ultrasound:
// angles_rad, element_x_m; OCT: wavelength_m, ...), and the exam the file belongs to.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "store/study_info.hpp"

namespace cineflow::store {

// "f_number" -> 1.5, "backend" -> "cpu", "samples" -> int64 2048.
using AttributeValue = std::variant<std::string, double, std::int64_t>;
using AttributeMap = std::map<std::string, AttributeValue>;

struct MetadataArray {
  std::string name;  // dataset name at the file's root
  std::vector<double> values;
  std::string units;  // its "units" attribute; none when empty
};

struct FileMetadata {
  AttributeMap attributes;
  std::vector<MetadataArray> arrays;
  // The patient and study being scanned: written as the group /study (store/study_group.hpp);
  // none: the file has no /study.
  std::optional<StudyInfo> study;
};

}  // namespace cineflow::store
