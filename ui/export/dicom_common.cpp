#include "export/dicom_common.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <utility>

#include <QDateTime>

#include "base/durable_rename.hpp"

namespace cineflow::ui::dicom {

void check(const OFCondition& status, const std::string& what) {
  if (status.bad()) {
    throw std::runtime_error("DICOM: " + what + ": " + status.text());
  }
}

std::string newUid(const char* root) {
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

Written putCommon(DcmDataset& data, const DicomPatient& patient, const char* sopClass,
                  const char* modality) {
  const QDateTime now = QDateTime::currentDateTime();
  Written written;
  written.date = now.toString(QStringLiteral("yyyyMMdd")).toStdString();
  written.time = now.toString(QStringLiteral("HHmmss")).toStdString();
  written.instanceUid = newUid(SITE_INSTANCE_UID_ROOT);
  // One study, one UID, date and time across all its exports; without a study, this file's own.
  const store::StudyInfo& study = patient.study;
  const bool ofStudy = !study.studyInstanceUid.empty();
  const std::string studyUid = ofStudy ? study.studyInstanceUid : newUid(SITE_STUDY_UID_ROOT);
  const std::string studyDate =
      ofStudy && !study.studyDate.empty() ? study.studyDate : written.date;
  const std::string studyTime =
      ofStudy && !study.studyTime.empty() ? study.studyTime : written.time;
  // An unnamed patient's ID is made from the study's start, the same in all its exports.
  const std::string id =
      patient.id.isEmpty() ? "CINEFLOW-" + studyDate + studyTime : patient.id.toStdString();
  const std::pair<DcmTagKey, std::string> strings[] = {
      {DCM_SpecificCharacterSet, "ISO_IR 192"},  // UTF-8
      {DCM_SOPClassUID, sopClass},
      {DCM_SOPInstanceUID, written.instanceUid},
      {DCM_StudyInstanceUID, studyUid},
      {DCM_SeriesInstanceUID, newUid(SITE_SERIES_UID_ROOT)},
      {DCM_Modality, modality},
      {DCM_Manufacturer, "Cineflow"},
      {DCM_PatientName, personName(patient.name)},
      {DCM_PatientID, id},
      {DCM_PatientBirthDate, study.birthDate},
      {DCM_PatientSex, study.sex},
      {DCM_StudyDescription, patient.studyDescription.toStdString()},
      {DCM_StudyDate, studyDate},
      {DCM_StudyTime, studyTime},
      {DCM_ContentDate, written.date},
      {DCM_ContentTime, written.time},
      {DCM_AccessionNumber, study.accessionNumber},
      {DCM_ReferringPhysicianName, personName(QString::fromStdString(study.referringPhysician))},
      {DCM_StudyID, "1"},
      {DCM_SeriesNumber, "1"},
  };
  for (const auto& [tag, value] : strings) {
    check(data.putAndInsertString(tag, value.c_str()), DcmTag(tag).getTagName());
  }
  if (!study.operatorName.empty()) {  // General Series, Type 3: absent when unknown
    check(data.putAndInsertString(DCM_OperatorsName,
                                  personName(QString::fromStdString(study.operatorName)).c_str()),
          "Operators' Name");
  }
  return written;
}

void putFrames8(DcmDataset& data, const std::vector<QImage>& frames, bool colour) {
  const int width = frames.front().width();
  const int height = frames.front().height();
  const int samples = colour ? 3 : 1;
  check(data.putAndInsertUint16(DCM_SamplesPerPixel, static_cast<Uint16>(samples)),
        "Samples per Pixel");
  if (colour) {
    check(data.putAndInsertUint16(DCM_PlanarConfiguration, 0), "Planar Configuration");
  }
  check(data.putAndInsertUint16(DCM_Rows, static_cast<Uint16>(height)), "Rows");
  check(data.putAndInsertUint16(DCM_Columns, static_cast<Uint16>(width)), "Columns");
  check(data.putAndInsertUint16(DCM_BitsAllocated, 8), "Bits Allocated");
  check(data.putAndInsertUint16(DCM_BitsStored, 8), "Bits Stored");
  check(data.putAndInsertUint16(DCM_HighBit, 7), "High Bit");
  check(data.putAndInsertUint16(DCM_PixelRepresentation, 0), "Pixel Representation");
  const std::size_t rowBytes = static_cast<std::size_t>(width) * static_cast<std::size_t>(samples);
  const std::size_t frameBytes = rowBytes * static_cast<std::size_t>(height);
  std::vector<Uint8> pixels(frameBytes * frames.size());
  for (std::size_t f = 0; f < frames.size(); ++f) {
    if (frames[f].width() != width || frames[f].height() != height) {
      throw std::runtime_error("DICOM: every frame must have the first one's size");
    }
    const QImage converted =
        frames[f].convertToFormat(colour ? QImage::Format_RGB888 : QImage::Format_Grayscale8);
    for (int y = 0; y < height; ++y) {
      std::copy_n(converted.constScanLine(y), rowBytes,
                  pixels.data() + f * frameBytes + static_cast<std::size_t>(y) * rowBytes);
    }
  }
  check(data.putAndInsertUint8Array(DCM_PixelData, pixels.data(),
                                    static_cast<unsigned long>(pixels.size())),
        "Pixel Data");
}

void save(DcmFileFormat& file, const std::string& path) {
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

}  // namespace cineflow::ui::dicom
