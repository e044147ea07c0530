#include "export/oct_dicom.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <QDateTime>
#include <QTimeZone>

#include "export/dicom_common.hpp"

namespace cineflow::ui {
namespace {

using namespace dicom;

struct Code {
  const char* value;
  const char* scheme;
  const char* meaning;
};

// One item of a code sequence.
void putCode(DcmItem& parent, const DcmTagKey& sequence, const Code& code) {
  DcmItem* item = nullptr;
  check(parent.findOrCreateSequenceItem(sequence, item, -2), DcmTag(sequence).getTagName());
  check(item->putAndInsertString(DCM_CodeValue, code.value), "Code Value");
  check(item->putAndInsertString(DCM_CodingSchemeDesignator, code.scheme), "Coding Scheme");
  check(item->putAndInsertString(DCM_CodeMeaning, code.meaning), "Code Meaning");
}

DcmItem& newItem(DcmItem& parent, const DcmTagKey& sequence) {
  DcmItem* item = nullptr;
  check(parent.findOrCreateSequenceItem(sequence, item, -2), DcmTag(sequence).getTagName());
  return *item;
}

void putEmptySequence(DcmItem& parent, const DcmTagKey& sequence) {
  check(parent.insertEmptyElement(sequence), DcmTag(sequence).getTagName());
}

// DS text: at most 16 characters.
std::string decimal(double value) {
  for (int digits = 10; digits > 1; --digits) {
    const std::string text = QString::number(value, 'g', digits).toStdString();
    if (text.size() <= 16) {
      return text;
    }
  }
  return QString::number(value, 'g', 1).toStdString();
}

std::string decimals(std::initializer_list<double> values) {
  std::string text;
  for (const double value : values) {
    if (!text.empty()) {
      text.push_back('\\');
    }
    text.append(decimal(value));
  }
  return text;
}

// DICOM DateTime with the UTC offset: "20261130123456.789000+0000".
std::string dateTime(std::int64_t unixNs) {
  const QDateTime at = QDateTime::fromMSecsSinceEpoch(unixNs / 1'000'000, QTimeZone::utc());
  const int micro = static_cast<int>((unixNs / 1000) % 1'000'000);
  return at.toString(QStringLiteral("yyyyMMddHHmmss")).toStdString() + "." +
         QStringLiteral("%1").arg(micro, 6, 10, QLatin1Char('0')).toStdString() + "+0000";
}

const char* lateralityCode(Laterality laterality) {
  switch (laterality) {
    case Laterality::Left:
      return "L";
    case Laterality::Both:
      return "B";
    case Laterality::Right:
      break;
  }
  return "R";
}

}  // namespace

std::string octDicomProblem(const OctDicomVolume& volume) {
  if (volume.bscans.empty() || volume.bscans.front().isNull()) {
    return "there are no B-scans";
  }
  const QSize size = volume.bscans.front().size();
  if (size.width() > 65535 || size.height() > 65535) {
    return "a B-scan is larger than DICOM's 65535 x 65535 pixels";
  }
  for (const QImage& bscan : volume.bscans) {
    if (bscan.size() != size) {
      return "the B-scans are not all the same size";
    }
  }
  if (!(volume.columnSpacingMm > 0) || !(volume.rowSpacingMm > 0)) {
    return "the pixel spacing is not known";
  }
  if (volume.elevationMm.size() != volume.bscans.size()) {
    return "each B-scan needs its elevation";
  }
  for (std::size_t i = 1; i < volume.elevationMm.size(); ++i) {
    if (!(volume.elevationMm[i] > volume.elevationMm[i - 1])) {
      return "the B-scans' elevations do not increase";
    }
  }
  if (!(volume.centreWavelengthNm > 0)) {
    return "the light source's centre wavelength is not known (an OCT acquisition records it)";
  }
  return {};
}

void writeOctDicom(const std::string& path, const OctDicomVolume& volume,
                   const DicomPatient& patient) {
  if (const std::string problem = octDicomProblem(volume); !problem.empty()) {
    throw std::runtime_error("DICOM: " + problem);
  }
  const std::size_t frames = volume.bscans.size();
  const std::int64_t acquiredNs =
      volume.acquiredAtNs > 0 ? volume.acquiredAtNs
                              : QDateTime::currentMSecsSinceEpoch() * std::int64_t{1'000'000};
  const double sliceMm =
      frames > 1 ? (volume.elevationMm.back() - volume.elevationMm.front()) / double(frames - 1)
                 : volume.columnSpacingMm;

  DcmFileFormat file;
  DcmDataset& data = *file.getDataset();
  const Written written = putCommon(data, patient, kOphthalmicTomographyImageStorage, "OPT");
  const std::string acquired = dateTime(acquiredNs);
  const std::pair<DcmTagKey, std::string> strings[] = {
      // Frame of Reference: the B-scans' positions share one.
      {DCM_FrameOfReferenceUID, newUid(SITE_INSTANCE_UID_ROOT)},
      {DCM_PositionReferenceIndicator, ""},
      // Enhanced General Equipment.
      {DCM_ManufacturerModelName, "Cineflow"},
      {DCM_DeviceSerialNumber, "0"},
      {DCM_SoftwareVersions, CINEFLOW_VERSION},
      // Multi-frame Functional Groups and Ophthalmic Tomography Image.
      {DCM_InstanceNumber, "1"},
      {DCM_NumberOfFrames, std::to_string(frames)},
      {DCM_ImageType, "DERIVED\\PRIMARY"},
      {DCM_AcquisitionDateTime, acquired},
      {DCM_AcquisitionDuration, decimal(volume.acquisitionSeconds)},
      {DCM_AcquisitionNumber, "1"},
      {DCM_PhotometricInterpretation, "MONOCHROME2"},
      {DCM_PresentationLUTShape, "IDENTITY"},
      {DCM_BurnedInAnnotation, volume.burnedInAnnotation ? "YES" : "NO"},
      {DCM_LossyImageCompression, "00"},
      // Ophthalmic Tomography Acquisition Parameters: what Cineflow does not know is empty.
      {DCM_AxialLengthOfTheEye, ""},
      {DCM_HorizontalFieldOfView, ""},
      {DCM_EmmetropicMagnification, ""},
      {DCM_IntraOcularPressure, ""},
      {DCM_PupilDilated, ""},
      // Ophthalmic Tomography Parameters.
      {DCM_DetectorType, "CCD"},
      {DCM_IlluminationWaveLength, decimal(volume.centreWavelengthNm)},
      {DCM_DepthSpatialResolution, decimal(volume.rowSpacingMm * 1000.0)},
      {DCM_MaximumDepthDistortion, "0"},
      {DCM_AlongScanSpatialResolution, decimal(volume.columnSpacingMm * 1000.0)},
      {DCM_MaximumAlongScanDistortion, "0"},
      {DCM_AcrossScanSpatialResolution, decimal(sliceMm * 1000.0)},
      {DCM_MaximumAcrossScanDistortion, "0"},
      // Ocular Region Imaged.
      {DCM_ImageLaterality, lateralityCode(volume.laterality)},
  };
  for (const auto& [tag, value] : strings) {
    check(data.putAndInsertString(tag, value.c_str()), DcmTag(tag).getTagName());
  }
  if (volume.bandwidthNm > 0) {
    check(data.putAndInsertString(DCM_IlluminationBandwidth, decimal(volume.bandwidthNm).c_str()),
          "Illumination Bandwidth");
  }
  for (const DcmTagKey& tag : {DCM_AcquisitionContextSequence, DCM_RefractiveStateSequence,
                               DCM_LightPathFilterTypeStackCodeSequence}) {
    putEmptySequence(data, tag);
  }
  putCode(data, DCM_AcquisitionDeviceTypeCodeSequence,
          {"392012008", "SCT", "Optical Coherence Tomography Scanner"});
  const Code eye{"81745001", "SCT", "Eye"};
  putCode(data, DCM_AnatomicRegionSequence, eye);

  // Multi-frame Dimension: the B-scans are one stack, in elevation order.
  const std::string organisation = newUid(SITE_INSTANCE_UID_ROOT);
  check(newItem(data, DCM_DimensionOrganizationSequence)
            .putAndInsertString(DCM_DimensionOrganizationUID, organisation.c_str()),
        "Dimension Organization");
  for (const DcmTagKey& index : {DCM_StackID, DCM_InStackPositionNumber}) {
    DcmItem& item = newItem(data, DCM_DimensionIndexSequence);
    check(item.putAndInsertString(DCM_DimensionOrganizationUID, organisation.c_str()),
          "Dimension Index");
    check(item.putAndInsertTagKey(DCM_DimensionIndexPointer, index), "Dimension Index Pointer");
    check(item.putAndInsertTagKey(DCM_FunctionalGroupPointer, DCM_FrameContentSequence),
          "Functional Group Pointer");
  }

  // Shared functional groups: the pixel size and the planes' orientation (rows along x, columns
  // along depth).
  DcmItem& shared = newItem(data, DCM_SharedFunctionalGroupsSequence);
  DcmItem& measures = newItem(shared, DCM_PixelMeasuresSequence);
  check(measures.putAndInsertString(
            DCM_PixelSpacing, decimals({volume.rowSpacingMm, volume.columnSpacingMm}).c_str()),
        "Pixel Spacing");
  check(measures.putAndInsertString(DCM_SliceThickness, decimal(sliceMm).c_str()),
        "Slice Thickness");
  DcmItem& anatomy = newItem(shared, DCM_FrameAnatomySequence);
  putCode(anatomy, DCM_AnatomicRegionSequence, eye);
  check(anatomy.putAndInsertString(DCM_FrameLaterality, lateralityCode(volume.laterality)),
        "Frame Laterality");
  check(newItem(shared, DCM_PlaneOrientationSequence)
            .putAndInsertString(DCM_ImageOrientationPatient, "1\\0\\0\\0\\1\\0"),
        "Image Orientation");

  // Per frame: its place in the stack and its position (the B-scan's elevation along the normal).
  const double frameSeconds = frames > 1 ? volume.acquisitionSeconds / double(frames) : 0.0;
  for (std::size_t f = 0; f < frames; ++f) {
    DcmItem& frame = newItem(data, DCM_PerFrameFunctionalGroupsSequence);
    DcmItem& content = newItem(frame, DCM_FrameContentSequence);
    const std::int64_t frameNs =
        acquiredNs + static_cast<std::int64_t>(std::llround(frameSeconds * 1e9 * double(f)));
    check(content.putAndInsertString(DCM_FrameAcquisitionDateTime, dateTime(frameNs).c_str()),
          "Frame Acquisition DateTime");
    check(content.putAndInsertString(DCM_FrameReferenceDateTime, dateTime(frameNs).c_str()),
          "Frame Reference DateTime");
    check(content.putAndInsertString(DCM_FrameAcquisitionDuration,
                                     decimal(frameSeconds * 1000.0).c_str()),
          "Frame Acquisition Duration");
    check(content.putAndInsertString(DCM_StackID, "1"), "Stack ID");
    check(content.putAndInsertUint32(DCM_InStackPositionNumber, static_cast<Uint32>(f + 1)),
          "In-Stack Position Number");
    const Uint32 indices[] = {1, static_cast<Uint32>(f + 1)};
    check(content.putAndInsertUint32Array(DCM_DimensionIndexValues, indices, 2),
          "Dimension Index Values");
    check(newItem(frame, DCM_PlanePositionSequence)
              .putAndInsertString(DCM_ImagePositionPatient,
                                  decimals({0.0, 0.0, volume.elevationMm[f]}).c_str()),
          "Image Position");
  }

  putFrames8(data, volume.bscans, false);  // Image Pixel: 8-bit grey
  save(file, path);
}

}  // namespace cineflow::ui
