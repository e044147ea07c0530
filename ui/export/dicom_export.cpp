#include "export/dicom_export.hpp"

#include <cstdio>
#include <stdexcept>

#include <QDateTime>

#include "export/dicom_common.hpp"

namespace cineflow::ui {
namespace {

using namespace dicom;

// One region over the whole picture: 2-D tissue, cm per pixel in x and y.
void addUltrasoundRegion(DcmDataset& data, const DicomPictures& pictures, int width, int height) {
  const process::ImageGeometry& g = pictures.geometry;
  const double cmPerPixelX = g.nx * g.dx * 100.0 / width;
  const double cmPerPixelY = g.nz * g.dz * 100.0 / height;
  DcmItem* region = nullptr;
  check(data.findOrCreateSequenceItem(DCM_SequenceOfUltrasoundRegions, region, -2),
        "Sequence of Ultrasound Regions");
  check(region->putAndInsertUint16(DCM_RegionSpatialFormat, 1), "region");  // 2-D
  check(region->putAndInsertUint16(DCM_RegionDataType, 1), "region");       // tissue
  check(region->putAndInsertUint32(DCM_RegionFlags, 0), "region");
  check(region->putAndInsertUint32(DCM_RegionLocationMinX0, 0), "region");
  check(region->putAndInsertUint32(DCM_RegionLocationMinY0, 0), "region");
  check(region->putAndInsertUint32(DCM_RegionLocationMaxX1, static_cast<Uint32>(width - 1)),
        "region");
  check(region->putAndInsertUint32(DCM_RegionLocationMaxY1, static_cast<Uint32>(height - 1)),
        "region");
  check(region->putAndInsertUint16(DCM_PhysicalUnitsXDirection, 3), "region");  // cm
  check(region->putAndInsertUint16(DCM_PhysicalUnitsYDirection, 3), "region");
  check(region->putAndInsertFloat64(DCM_PhysicalDeltaX, cmPerPixelX), "region");
  check(region->putAndInsertFloat64(DCM_PhysicalDeltaY, cmPerPixelY), "region");
}

}  // namespace

DicomPatient dicomPatientOf(const store::StudyInfo& study) {
  DicomPatient patient;
  patient.name = QString::fromStdString(study.patientName);
  patient.id = QString::fromStdString(study.patientId);
  patient.studyDescription = QString::fromStdString(study.studyDescription);
  patient.study = study;
  return patient;
}

void writeUltrasoundDicom(const std::string& path, const DicomPictures& pictures,
                          const DicomPatient& patient) {
  if (pictures.frames.empty() || pictures.frames.front().isNull()) {
    throw std::runtime_error("DICOM: no frames");
  }
  const int width = pictures.frames.front().width();
  const int height = pictures.frames.front().height();
  const bool multiframe = pictures.frames.size() > 1;
  DcmFileFormat file;
  DcmDataset& data = *file.getDataset();
  const char* sopClass = multiframe ? kUltrasoundMultiframeImageStorage : kUltrasoundImageStorage;
  putCommon(data, patient, sopClass, "US");
  const std::pair<DcmTagKey, std::string> strings[] = {
      {DCM_InstanceNumber, "1"},
      {DCM_ImageType, "DERIVED\\PRIMARY"},
      // General Image: no patient orientation is known (Type 2C, empty), and the image is not of
      // a paired body part as far as Cineflow knows ("U"), which also answers General Series'
      // Laterality (Type 2C: required only when neither is sent).
      {DCM_PatientOrientation, ""},
      {DCM_ImageLaterality, "U"},
      {DCM_PhotometricInterpretation, "RGB"},
      {DCM_BurnedInAnnotation, pictures.burnedInAnnotation ? "YES" : "NO"},
  };
  for (const auto& [tag, value] : strings) {
    check(data.putAndInsertString(tag, value.c_str()), DcmTag(tag).getTagName());
  }
  if (multiframe) {
    check(
        data.putAndInsertString(DCM_NumberOfFrames, std::to_string(pictures.frames.size()).c_str()),
        "Number of Frames");
    check(data.putAndInsertString(DCM_FrameTime,
                                  QString::number(pictures.frameTimeMs, 'f', 3).toLatin1()),
          "Frame Time");
    check(data.putAndInsertTagKey(DCM_FrameIncrementPointer, DCM_FrameTime),
          "Frame Increment Pointer");
  }
  addUltrasoundRegion(data, pictures, width, height);

  putFrames8(data, pictures.frames, true);
  save(file, path);
}

}  // namespace cineflow::ui
