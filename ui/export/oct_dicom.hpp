#pragma once
// OCT volumes to DICOM: one Ophthalmic Tomography Image (1.2.840.10008.5.1.4.1.1.77.1.5.4, an
// enhanced multi-frame instance), each B-scan a frame, as the display draws it in grey (8-bit
// MONOCHROME2: the display's gain, dynamic range and depth gain; no rulers), with
//   Pixel Measures      Pixel Spacing (row: depth, column: lateral, mm per picture pixel) and
//                       Slice Thickness (the elevation step between B-scans)
//   Plane Position and Orientation   each B-scan's place in one frame of reference: rows along
//                       x, columns along depth, B-scans stacked by their elevation
//   OPT Parameters      Illumination Wave Length (the light source's centre wavelength, nm) and
//                       Illumination Bandwidth (its FWHM, nm, when known), detector and device
//                       as an OCT scanner, the axial and lateral resolutions given by the pixels
//   Ocular Region Imaged  the eye as the operator names it (right, left, both)
// and the patient, study and series as for ultrasound (dicom_export.hpp). The file passes
// dicom3tools' dciodvfy with no error (test_oct_dicom).
//
// Written under "<path>.partial" and published whole. Throws std::runtime_error with the reason.

#include <cstdint>
#include <string>
#include <vector>

#include <QImage>

#include "export/dicom_export.hpp"

namespace cineflow::ui {

inline constexpr const char* kOphthalmicTomographyImageStorage = "1.2.840.10008.5.1.4.1.1.77.1.5.4";

enum class Laterality { Right, Left, Both };

struct OctDicomVolume {
  std::vector<QImage> bscans;       // the same size, any format (written as grey: the red channel)
  double columnSpacingMm = 0;       // lateral, per picture pixel
  double rowSpacingMm = 0;          // depth, per picture pixel
  std::vector<double> elevationMm;  // [bscans]: each B-scan's elevation, increasing
  double centreWavelengthNm = 0;    // the light source's
  double bandwidthNm = 0;           // the light source's FWHM (0: not known, not written)
  Laterality laterality = Laterality::Right;
  bool burnedInAnnotation = false;  // measurements drawn into the pixels
  std::int64_t acquiredAtNs = 0;    // the first B-scan's acquisition time (Unix ns; 0: now)
  double acquisitionSeconds = 0;    // first to last B-scan
};

// What is wrong with `volume` for a DICOM file ("" when it can be written).
std::string octDicomProblem(const OctDicomVolume& volume);

void writeOctDicom(const std::string& path, const OctDicomVolume& volume,
                   const DicomPatient& patient);

}  // namespace cineflow::ui
