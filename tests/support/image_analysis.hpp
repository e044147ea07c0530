#pragma once
// Running a source's frame through the imaging chain, and measuring positions in the image.

#include <cstddef>
#include <span>
#include <vector>

#include "acquire/frame_source.hpp"
#include "compute/backend.hpp"
#include "ultrasound/imaging_params.hpp"

namespace cineflow::test {

// Beamforms frame `index` of `source` with the B-mode chain on `backend`; returns [z][x] dB.
std::vector<float> bmodeOfFrame(compute::Backend& backend, acquire::FrameSource& source,
                                std::uint64_t index, const ultrasound::ImagingParams& imaging);
// The same for one raw frame in host memory (acq.samplesPerFrame() samples of `type`).
std::vector<float> bmodeOfRaw(compute::Backend& backend, const acquire::AcquisitionParams& acq,
                              acquire::SampleType type, std::span<const std::byte> raw,
                              const ultrasound::ImagingParams& imaging);

struct Peak {
  double xM = 0, zM = 0, value = 0;
};

// The brightest pixel within +-halfWindowM (x and z) of (xM, zM).
Peak findPeak(const std::vector<float>& image, const process::ImageGeometry& g, double xM,
              double zM, double halfWindowM);

// The brightest pixel within the window, moved by a parabola through it and its two neighbours
// along x and along z (each axis on its own): the peak's position to a fraction of a pixel.
Peak findSubPixelPeak(const std::vector<float>& image, const process::ImageGeometry& g, double xM,
                      double zM, double halfWindowM);

// Mean of the image over a disc of `radiusM` around (xM, zM).
double meanInDisc(const std::vector<float>& image, const process::ImageGeometry& g, double xM,
                  double zM, double radiusM);

}  // namespace cineflow::test
