#pragma once
// The exam a file belongs to: the patient and the study the operator entered before scanning
// (Patient and study… in the GUI). Every export of one study carries the same values, and the
// same study instance UID, so that a PACS files a DICOM export and an analysis tool matches an
// HDF5 file to the same exam. Plain text as DICOM writes it (UTF-8); an empty field is unknown.
//
// HDF5 files carry it as the group /study (store/study_group.hpp, docs/file-formats.md); a file
// without a study has no such group.

#include <string>

namespace cineflow::store {

struct StudyInfo {
  std::string patientName;         // "Family^Given" (DICOM Person Name)
  std::string patientId;           // at most 64 characters
  std::string birthDate;           // "YYYYMMDD" (DICOM DA) or empty
  std::string sex;                 // "M", "F", "O" or empty
  std::string accessionNumber;     // the order's number at the hospital, at most 16 characters
  std::string studyDescription;    // at most 64 characters
  std::string referringPhysician;  // "Family^Given"
  std::string operatorName;        // "Family^Given": who scans
  std::string studyInstanceUid;    // made once per study; every export of the study shares it
  std::string studyDate;           // "YYYYMMDD": when the study was begun
  std::string studyTime;           // "HHMMSS"

  // Whether the operator entered anything about the patient or the study (the UID, date and
  // time are made, not entered).
  bool hasEntries() const;
  bool operator==(const StudyInfo&) const = default;
};

// Why `study` cannot be written as DICOM writes it, in the operator's words ("Patient ID: at
// most 64 characters (70 typed)"); empty when it can. Checks the DICOM lengths (a Person Name's
// group 64 characters with at most five components, LO 64, SH 16), no backslash nor control
// character, the sex, and a birth date that is a real date; with `today` ("YYYYMMDD"), also one
// that is not after it.
std::string studyProblem(const StudyInfo& study, const std::string& today = {});

// A new UID for a study: "2.25." and a random 128-bit number (ISO/IEC 9834-8), so no site root
// is needed and two workstations never make the same one.
std::string newStudyInstanceUid();

}  // namespace cineflow::store
