#pragma once
// DICOM export through DCMTK: frames drawn as the display draws them (8-bit RGB in the displayed
// colour map, frame_picture.hpp, no rulers) written as one DICOM file:
//   several frames  Ultrasound Multi-frame Image Storage (1.2.840.10008.5.1.4.1.1.3.1), with
//                   Number of Frames, Frame Time and Frame Increment Pointer -> Frame Time
//   one frame       Ultrasound Image Storage (1.2.840.10008.5.1.4.1.1.6.1)
// Each carries a Sequence of Ultrasound Regions with one region over the whole picture: 2-D
// tissue, physical units cm in x and y, Physical Delta X / Y the picture's pixel spacing, so a
// PACS viewer's calipers measure in mm. Patient and study come from DicomPatient (anonymous by
// default): with a study (File > Patient and study…, study/current_study.hpp) the Patient, General
// Study and General Series modules carry its birth date, sex, accession number, referring
// physician and operator, and every export of the study shares its study instance UID, date and
// time; without one the study UID is new for every file. Series and instance UIDs are new for
// every file. The files pass dciodvfy (dicom3tools) with no error and no warning, with a full
// study and with none (test_measurements_gui, test_study_gui run it).
//
// Written under "<path>.partial" and published whole (base/durable_rename.hpp). Throws
// std::runtime_error with DCMTK's reason.

#include <string>
#include <vector>

#include <QImage>
#include <QString>

#include "process/image_geometry.hpp"
#include "store/study_info.hpp"

namespace cineflow::ui {

struct DicomPatient {
  QString name;  // "Family^Given" (without a caret: the family name); empty: anonymous
  QString id;    // empty: "CINEFLOW-<date><time>" of the study's start (without one: now)
  QString studyDescription = QStringLiteral("Cineflow export");
  // The rest of the exam: birth date, sex, accession number, referring physician, operator, and
  // the study's UID, date and time (empty UID: a new one for this file, dated now). Its name, ID
  // and description give way to the three above, which the export dialog lets the operator edit.
  store::StudyInfo study;
};

// The export's patient from the study being scanned.
DicomPatient dicomPatientOf(const store::StudyInfo& study);

struct DicomPictures {
  std::vector<QImage> frames;       // the same size, any format (written as RGB)
  process::ImageGeometry geometry;  // of the frames the pictures show (their physical extent)
  double frameTimeMs = 0;           // between frames (multi-frame only)
  bool burnedInAnnotation = false;  // measurements or labels drawn into the pixels
};

// The SOP class UIDs written, for readers and tests.
inline constexpr const char* kUltrasoundImageStorage = "1.2.840.10008.5.1.4.1.1.6.1";
inline constexpr const char* kUltrasoundMultiframeImageStorage = "1.2.840.10008.5.1.4.1.1.3.1";

void writeUltrasoundDicom(const std::string& path, const DicomPictures& pictures,
                          const DicomPatient& patient);

}  // namespace cineflow::ui
