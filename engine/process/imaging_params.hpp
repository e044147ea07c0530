#pragma once
// Imaging parameters: the reconstruction grid and the signal-chain settings (DESIGN.md §4).

#include <string>

#include "acquire/frame.hpp"

namespace cineflow::process {

// A regular grid in metres; x lateral, z depth. Samples at x0 + i*dx for i in [0, nx), nx the
// largest count with x0 + (nx-1)*dx <= x1 (+ a tolerance of dx/1000); likewise for z.
struct ImagingGrid {
  double x0 = 0, x1 = 0, dx = 0;
  double z0 = 0, z1 = 0, dz = 0;
  int nx() const;
  int nz() const;
  // Parses "x0:x1:dx,z0:z1:dz" in millimetres; throws std::invalid_argument with the reason.
  static ImagingGrid parseMillimetres(const std::string& text);
  std::string toMillimetreString() const;
  bool operator==(const ImagingGrid&) const = default;
};

struct ImageGeometry {
  int nx = 0, nz = 0;
  double x0 = 0, dx = 0, z0 = 0, dz = 0;  // metres
  std::size_t pixels() const { return static_cast<std::size_t>(nx) * static_cast<std::size_t>(nz); }
  bool operator==(const ImageGeometry&) const = default;
};

struct ImagingParams {
  ImagingGrid grid;
  double fNumber = 1.5;     // receive aperture width = depth / fNumber
  int firTaps = 65;         // bandpass length (odd)
  double bandLowRel = 0.5;  // bandpass edges relative to f0
  double bandHighRel = 1.5;
  // Reasonable defaults for a recording: the array's lateral extent, depth from 5 mm (or the
  // first sample) to the last sample, dz = lambda/8 (keeps the beamformed RF above Nyquist).
  static ImagingParams defaultsFor(const acquire::AcquisitionParams& acq);
  ImageGeometry geometry() const;
  // Throws std::invalid_argument naming the bad parameter and the accepted range.
  void validate(const acquire::AcquisitionParams& acq) const;
  bool operator==(const ImagingParams&) const = default;
};

}  // namespace cineflow::process
