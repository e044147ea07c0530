#pragma once
// The study (store/study_info.hpp) as the HDF5 group /study: one variable-length UTF-8 string
// attribute per field (patient_name, patient_id, patient_birth_date, patient_sex,
// accession_number, study_description, referring_physician, operator_name, study_instance_uid,
// study_date, study_time), every one present, empty when unknown. Internal to the store (HDF5 is
// a private dependency).

#include <optional>
#include <string>

#include "store/hdf5_handle.hpp"
#include "store/study_info.hpp"

namespace cineflow::store {

inline constexpr const char* kStudyGroup = "study";

// Creates /study under `root`. Throws Hdf5Error.
void writeStudyGroup(hid_t root, const StudyInfo& study);

// What a file says of its study: none when it has no /study; a study that cannot be read (not a
// group, a field that is not text, a value studyProblem() refuses) is left out, with `notice`
// saying why, so that the images of a file with a damaged study still open. Never throws.
struct StudyRead {
  std::optional<StudyInfo> study;
  std::string notice;  // "" or "the study in /study is ignored: patient_sex: expected text"
};
StudyRead readStudyGroup(hid_t root);

}  // namespace cineflow::store
