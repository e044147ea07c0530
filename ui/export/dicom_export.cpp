#include "export/dicom_export.hpp"

#include <cstdio>
#include <stdexcept>

#include <QDateTime>

#include "base/durable_rename.hpp"
#include "export/dcmtk.hpp"

namespace cineflow::ui {
namespace {

void check(const OFCondition& status, const std::string& what) {
  if (status.bad()) {
    throw std::runtime_error("DICOM: " + what + ": " + status.text());
  }
}

std::string uid(const char* root) {
  char buffer[100];
  return dcmGenerateUniqueIdentifier(buffer, root);
}

// A name as DICOM's Person Name writes it: "Family^Given^Middle^Prefix^Suffix" as typed; a name
// typed without a caret is taken whole as the family name ("Smith John" -> "Smith John^", the
// single-component form being retired); empty stays empty (Type 2: unknown).
std::string personName(const QString& typed) {
  const QString name = typed.trimmed();
  if (name.isEmpty() || name.contains(QLatin1Char('^'))) {
    return name.toStdString();
  }
  return (name + QLatin1Char('^')).toStdString();
}

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
  const QDateTime now = QDateTime::currentDateTime();
  const std::string date = now.toString(QStringLiteral("yyyyMMdd")).toStdString();
  const std::string time = now.toString(QStringLiteral("HHmmss")).toStdString();
  const char* sopClass = multiframe ? kUltrasoundMultiframeImageStorage : kUltrasoundImageStorage;
  const std::string instance = uid(SITE_INSTANCE_UID_ROOT);
  // One study, one UID, date and time across all its exports; without a study, this file's own.
  const store::StudyInfo& study = patient.study;
  const bool ofStudy = !study.studyInstanceUid.empty();
  const std::string studyUid = ofStudy ? study.studyInstanceUid : uid(SITE_STUDY_UID_ROOT);
  const std::string studyDate = ofStudy && !study.studyDate.empty() ? study.studyDate : date;
  const std::string studyTime = ofStudy && !study.studyTime.empty() ? study.studyTime : time;
  // An unnamed patient's ID is made from the study's start, the same in all its exports.
  const std::string id =
      patient.id.isEmpty() ? "CINEFLOW-" + studyDate + studyTime : patient.id.toStdString();
  const std::pair<DcmTagKey, std::string> strings[] = {
      {DCM_SpecificCharacterSet, "ISO_IR 192"},  // UTF-8
      {DCM_SOPClassUID, sopClass},
      {DCM_SOPInstanceUID, instance},
      {DCM_StudyInstanceUID, studyUid},
      {DCM_SeriesInstanceUID, uid(SITE_SERIES_UID_ROOT)},
      {DCM_Modality, "US"},
      {DCM_Manufacturer, "Cineflow"},
      {DCM_PatientName, personName(patient.name)},
      {DCM_PatientID, id},
      {DCM_PatientBirthDate, study.birthDate},
      {DCM_PatientSex, study.sex},
      {DCM_StudyDescription, patient.studyDescription.toStdString()},
      {DCM_StudyDate, studyDate},
      {DCM_StudyTime, studyTime},
      {DCM_ContentDate, date},
      {DCM_ContentTime, time},
      {DCM_AccessionNumber, study.accessionNumber},
      {DCM_ReferringPhysicianName, personName(QString::fromStdString(study.referringPhysician))},
      {DCM_StudyID, "1"},
      {DCM_SeriesNumber, "1"},
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
  if (!study.operatorName.empty()) {  // General Series, Type 3: absent when unknown
    check(data.putAndInsertString(DCM_OperatorsName,
                                  personName(QString::fromStdString(study.operatorName)).c_str()),
          "Operators' Name");
  }
  check(data.putAndInsertUint16(DCM_SamplesPerPixel, 3), "Samples per Pixel");
  check(data.putAndInsertUint16(DCM_PlanarConfiguration, 0), "Planar Configuration");
  check(data.putAndInsertUint16(DCM_Rows, static_cast<Uint16>(height)), "Rows");
  check(data.putAndInsertUint16(DCM_Columns, static_cast<Uint16>(width)), "Columns");
  check(data.putAndInsertUint16(DCM_BitsAllocated, 8), "Bits Allocated");
  check(data.putAndInsertUint16(DCM_BitsStored, 8), "Bits Stored");
  check(data.putAndInsertUint16(DCM_HighBit, 7), "High Bit");
  check(data.putAndInsertUint16(DCM_PixelRepresentation, 0), "Pixel Representation");
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

  const std::size_t frameBytes = static_cast<std::size_t>(width) * height * 3;
  std::vector<Uint8> pixels(frameBytes * pictures.frames.size());
  for (std::size_t f = 0; f < pictures.frames.size(); ++f) {
    const QImage& frame = pictures.frames[f];
    if (frame.width() != width || frame.height() != height) {
      throw std::runtime_error("DICOM: every frame must have the first one's size");
    }
    const QImage rgb = frame.convertToFormat(QImage::Format_RGB888);
    for (int y = 0; y < height; ++y) {
      std::copy_n(rgb.constScanLine(y), static_cast<std::size_t>(width) * 3,
                  pixels.data() + f * frameBytes + static_cast<std::size_t>(y) * width * 3);
    }
  }
  check(data.putAndInsertUint8Array(DCM_PixelData, pixels.data(),
                                    static_cast<unsigned long>(pixels.size())),
        "Pixel Data");

  const std::string partial = path + ".partial";
  const OFCondition saved =
      file.saveFile(partial.c_str(), EXS_LittleEndianExplicit, EET_ExplicitLength);
  if (saved.bad()) {
    std::remove(partial.c_str());
    throw std::runtime_error("DICOM: cannot write " + partial + ": " + saved.text());
  }
  if (const auto failure = base::publishFile(partial, path)) {
    std::remove(partial.c_str());
    throw std::runtime_error("DICOM: cannot " + failure->operation + ": " + failure->reason);
  }
}

}  // namespace cineflow::ui
