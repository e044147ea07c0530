#pragma once
// The OCT recording schema, cineflow.oct/1 (HDF5), shared by its writer (oct_writer.hpp) and its
// replay (oct_file_source.hpp):
//
//   /spectra            uint16 [frames][ascans][samples], chunked one frame per chunk; raw
//                       spectrometer counts as OctAcquisition describes them (oct_acquisition.hpp)
//   /wavelength_m       float64 [samples], strictly monotonic, units = "m"; or instead
//   /k_rad_per_m        float64 [samples], strictly monotonic (wavelength = 2 pi / k)
//   root attributes     schema = "cineflow.oct/1"
//                       bit_depth (integer, 12 or 16)
//                       centre_wavelength_m
//                       bandwidth_m          optional; 0 or absent: not known
//                       bscans_per_volume    (integer; 0: B-scans only, no volumes)
//                       bidirectional        (integer 0 or 1)
//                       flyback_ascans       (integer, < ascans)
//                       lateral_step_m, elevation_step_m
//                       line_rate_hz         optional; 0 or absent: not known
//                       dispersion_a2_rad, dispersion_a3_rad
//                                            optional: the dispersion compensation that images the
//                                            recording, in OctParams' a2 / a3 (oct_params.hpp)
//                       dispersion_centre_wavelength_m
//                                            the wavelength a2 / a3 are stated about (written with
//                                            them). A recording that states a2 / a3 without it was
//                                            written when they were stated about the middle
//                                            output sample N / 2 of its k grid: its a2 is restated
//                                            about centre_wavelength_m on reading (restatedA2)
//
// Counts are written as integers; readers accept any whole number.

namespace cineflow::oct {

inline constexpr const char* kOctSchema = "cineflow.oct/1";

// The dispersion compensation a recording states (OctParams::a2, OctParams::a3: radians at u = 1,
// about OctParams::dispersionCentreM).
struct OctDispersion {
  double a2Rad = 0;
  double a3Rad = 0;
  double centreWavelengthM = 0;  // 0: the recording's centre wavelength
};

}  // namespace cineflow::oct
