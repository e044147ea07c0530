#pragma once
// What Cineflow's DICOM writers share (dicom_export.hpp: ultrasound; oct_dicom.hpp: ophthalmic
// tomography), for those writers only: DCMTK calls checked into std::runtime_error, new UIDs,
// person names, the Patient, General Study, General Series and SOP Common attributes from a
// DicomPatient, and the write under "<path>.partial" published whole.

#include <string>
#include <vector>

#include <QImage>

#include <QString>

#include "export/dcmtk.hpp"
#include "export/dicom_export.hpp"

namespace cineflow::ui::dicom {

// Throws std::runtime_error("DICOM: <what>: <DCMTK's reason>") when `status` is bad.
void check(const OFCondition& status, const std::string& what);
// A new UID under DCMTK's `root` (SITE_INSTANCE_UID_ROOT, ...).
std::string newUid(const char* root);
// "Family^Given" as typed; a name without a caret as the family name; empty stays empty.
std::string personName(const QString& typed);

struct Written {
  std::string date, time;  // the content's (now), "YYYYMMDD" and "HHMMSS"
  std::string instanceUid;
};
// The Patient, General Study, General Series (Series Number 1) and SOP Common modules, and the
// content date and time, for an instance of `sopClass` of `modality` ("US", "OPT").
Written putCommon(DcmDataset& data, const DicomPatient& patient, const char* sopClass,
                  const char* modality);

// The Image Pixel module's attributes and Pixel Data for `frames` (the same size, any format),
// 8 bits per sample: RGB (`colour`, pixel-interleaved) or MONOCHROME2 grey (the images' grey
// level). Throws std::runtime_error when a frame's size differs from the first's.
void putFrames8(DcmDataset& data, const std::vector<QImage>& frames, bool colour);

// Writes `file` under "<path>.partial" in explicit VR little endian and renames it to `path`;
// nothing is left behind on failure (throws std::runtime_error).
void save(DcmFileFormat& file, const std::string& path);

}  // namespace cineflow::ui::dicom
