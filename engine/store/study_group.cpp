#include "store/study_group.hpp"

#include <utility>

namespace cineflow::store {
namespace {

// The fields in the order the group lists them, with their attribute names.
constexpr std::pair<const char*, std::string StudyInfo::*> kFields[] = {
    {"patient_name", &StudyInfo::patientName},
    {"patient_id", &StudyInfo::patientId},
    {"patient_birth_date", &StudyInfo::birthDate},
    {"patient_sex", &StudyInfo::sex},
    {"accession_number", &StudyInfo::accessionNumber},
    {"study_description", &StudyInfo::studyDescription},
    {"referring_physician", &StudyInfo::referringPhysician},
    {"operator_name", &StudyInfo::operatorName},
    {"study_instance_uid", &StudyInfo::studyInstanceUid},
    {"study_date", &StudyInfo::studyDate},
    {"study_time", &StudyInfo::studyTime},
};

StudyRead ignored(const std::string& why) {
  return {std::nullopt, "the study in /study is ignored: " + why};
}

}  // namespace

void writeStudyGroup(hid_t root, const StudyInfo& study) {
  H5Group group(checkId(H5Gcreate2(root, kStudyGroup, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                        "/study: create"));
  for (const auto& [name, field] : kFields) {
    writeStringAttribute(group.get(), name, study.*field);
  }
  if (!group.close()) {
    throw Hdf5Error("/study: close: " + errorStackText());
  }
}

StudyRead readStudyGroup(hid_t root) {
  try {
    if (!linkExists(root, kStudyGroup)) {
      return {};
    }
    H5Owner<H5Oclose> group(H5Oopen(root, kStudyGroup, H5P_DEFAULT));
    if (!group || H5Iget_type(group.get()) != H5I_GROUP) {
      (void)errorStackText();  // clears the stack
      return ignored("not a group");
    }
    StudyInfo study;
    for (const auto& [name, field] : kFields) {
      if (!attributeExists(group.get(), name)) {
        continue;  // a field a later version added, or one left out: unknown
      }
      try {
        study.*field = readStringAttribute(group.get(), name);
      } catch (const Hdf5Error& error) {
        return ignored(error.what());
      }
    }
    if (const std::string problem = studyProblem(study); !problem.empty()) {
      return ignored(problem);
    }
    return {study, {}};
  } catch (const std::exception& error) {
    return ignored(error.what());
  }
}

}  // namespace cineflow::store
