#pragma once
// Colour and power Doppler's processing parameters (issue 20): how the ensemble of beamformed I/Q
// frames is formed, which clutter (wall) filter removes the tissue, how the autocorrelation is
// averaged, and the colour box that limits the processing. ImagingParams::doppler holds them; they
// act in the Doppler imaging modes only.

#include <string>

#include "acquire/frame.hpp"
#include "process/image_geometry.hpp"
#include "process/image_region.hpp"

namespace cineflow::ultrasound {

// Sliding: an estimate at every frame from the last N frames. Block: an estimate every N frames
// from the N frames since the last (as a packet acquisition and PyMUST's iq2doppler do it).
enum class EnsembleMode { Sliding, Block };
const char* toString(EnsembleMode mode) noexcept;  // "sliding" | "block"
EnsembleMode parseEnsembleMode(const std::string& text);

// The clutter filter over the slow time of each pixel:
//   none         the ensemble as beamformed (PyMUST's iq2doppler default)
//   regression   minus its least-squares fit by a polynomial of order 0-3 (order 0: the mean)
//   iir          a second-order Butterworth high-pass at iirCutoff x PRF with projection
//                initialisation (no start-up transient; every output kept)
//   svd          minus the ensemble's svdRank strongest singular components over the colour box
//                (the tissue moves coherently over many pixels; the blood does not)
enum class WallFilter { None, Regression, Iir, Svd };
const char* toString(WallFilter filter) noexcept;  // "none" | "regression" | "iir" | "svd"
WallFilter parseWallFilter(const std::string& text);

// "x0:x1,z0:z1" in millimetres (the colour box); throws std::invalid_argument with the reason.
process::ColourBox parseColourBoxMillimetres(const std::string& text);

inline constexpr int kMinEnsemble = 3;
inline constexpr int kMaxEnsemble = 128;
inline constexpr int kMaxAveraging = 15;

struct DopplerParams {
  int ensemble = 16;  // N, frames per estimate (the packet size)
  EnsembleMode ensembleMode = EnsembleMode::Sliding;
  WallFilter wallFilter = WallFilter::Regression;
  int regressionOrder = 1;  // 0..3
  double iirCutoff = 0.05;  // fraction of the PRF, in (0, 0.5)
  int svdRank = 2;          // singular components removed, in [1, N - 2]
  // The lag-0 and lag-1 autocorrelations are averaged over averageX x averageZ pixels (odd; 1:
  // one pixel) before the velocity is taken.
  int averageX = 1, averageZ = 1;
  process::ColourBox box;  // where flow is estimated (empty: everywhere)
  double prfHz = 0;        // the ensemble's sampling rate; 0: the acquisition's
  // The PRF in effect: prfHz, else the acquisition's pulseRepetitionFrequencyHz (0: unknown).
  double prfFor(const acquire::AcquisitionParams& acq) const;
  // c PRF / (4 f0): where the velocity wraps (m/s).
  double aliasingVelocityFor(const acquire::AcquisitionParams& acq) const;
  // Why no Doppler mode can image `acq`, whatever the other parameters: its frames are a volume
  // sweep's slices, or its pulse repetition frequency is unknown and none is given here. Empty
  // when Doppler can run. The GUI offers the Doppler modes only then.
  std::string unavailableFor(const acquire::AcquisitionParams& acq) const;
  // Throws std::invalid_argument naming the bad parameter and the accepted range; `geometry` is
  // the image the box must overlap.
  void validate(const acquire::AcquisitionParams& acq,
                const process::ImageGeometry& geometry) const;
  // "none", "regression[:ORDER]", "iir[:CUTOFF]" (x PRF) or "svd[:RANK]": sets the wall filter
  // and its parameter. Throws std::invalid_argument.
  void applyWallFilterSpec(const std::string& spec);
  // "WxZ" (e.g. "3x3"): the averaging window. Throws std::invalid_argument.
  void applyAveragingSpec(const std::string& spec);
  // The specs the two above take that set what is in effect now: "regression:1", "iir:0.05",
  // "svd:2", "none"; "3x3".
  std::string wallFilterSpec() const;
  std::string averagingSpec() const;
  bool operator==(const DopplerParams&) const = default;
};

}  // namespace cineflow::ultrasound
