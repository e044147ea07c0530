#pragma once
// OctSimulator: a spectral-domain OCT system scanning a layered sample, raster-scanned into
// volumes of B-scans; deterministic for a seed (the same frames on every run and machine).
//
// The sample (depths are one-way optical path differences in air):
//   - surface     z = 0.25 mm + 0.08 mm x/W + 0.05 mm y/H (tilted across both axes)
//   - layer 2     z = surface + 0.20 mm + 0.15 mm ((x/W)^2 + (y/H)^2) (curved); its reflectivity
//                 varies as a checkerboard of 1 mm cells, which the en-face MIP shows
//   - layer 3     z = surface + 0.55 mm
//   - a scattering medium between the surface and layer 3 (random scatterers: speckle)
//   x in [-W/2, W/2] across the A-scans, y in [-H/2, H/2] across the B-scans.
// The system: a Gaussian source spectrum (centre 840 nm, FWHM 40 nm), a spectrometer sampling
// evenly in wavelength from 790 to 890 nm (so unevenly in k: the k-nonlinearity the chain's
// wavelength table undoes), a dispersion mismatch phi(u) = a2 u^2 + a3 u^3 in the chain's units
// (oct_params.hpp: u = (k - k0) / (N dk) about the 840 nm centre) on every sample term, a
// fixed-pattern line (an internal reflection at a fixed depth, the same in every A-scan), a DC
// offset, shot noise, 12-bit counts.
//
// Specular layers are summed exactly at every spectrometer sample; the scattering medium is made
// on an evenly-k grid twice as fine by an inverse FFT and interpolated to the samples. All
// frames are made at open (about a second for the default volume on two cores) and kept in
// memory, and cached on disk like the ultrasound simulator's (acquire/sim_cache.hpp), keyed by
// every field that changes them.

#include <cstdint>
#include <string>
#include <vector>

#include "acquire/frame_source.hpp"
#include "acquire/sim_cache.hpp"
#include "oct/oct_source.hpp"

namespace cineflow::oct {

struct OctSimulatorConfig {
  std::uint64_t seed = 1;
  int samples = 2048;
  int ascans = 512;  // imaged, per B-scan
  int bscans = 32;   // per volume
  // The galvanometer's return: A-scans appended to every B-scan, sweeping back over the sample
  // (not imaged; the chain crops them).
  int flybackAscans = 0;
  // Every other B-scan runs right to left (its A-scans in reverse order), as a bidirectional
  // raster scan delivers them; the chain turns them back.
  bool bidirectional = false;
  double frameRateHz = 20.0;
  double widthM = 5.12e-3;  // W, across the A-scans
  double heightM = 4.8e-3;  // H, across the B-scans
  double a2 = 60.0;         // the dispersion mismatch (radians at u = 1)
  double a3 = 20.0;
  double noise = 1.0;      // shot noise scale (0: none)
  bool scattering = true;  // false: the specular layers alone (clean point-spread functions)
};

// A specular layer's depth at lateral position (x, y), metres of optical path in air.
struct SimulatedLayer {
  double amplitude;  // field reflectivity
  double depthM;
};
// The three layers at (x, y) (for tests: the true depths).
std::vector<SimulatedLayer> simulatedLayers(const OctSimulatorConfig& config, double xM, double yM);

class OctSimulator final : public OctSource {
 public:
  explicit OctSimulator(const OctSimulatorConfig& config = {},
                        const acquire::ProgressFn& progress = {});
  // The acquisition a simulator of `config` describes, without synthesising its B-scans. Throws
  // std::invalid_argument for a config that describes none.
  static OctAcquisition acquisitionOf(const OctSimulatorConfig& config);

  const OctAcquisition& acquisition() const override { return acquisition_; }
  double frameRateHz() const override { return config_.frameRateHz; }
  std::uint64_t frameCount() const override { return static_cast<std::uint64_t>(config_.bscans); }
  void readFrame(std::uint64_t index, std::span<std::byte> dst, acquire::SliceInfo& slice) override;
  std::string describe() const override;

  const OctSimulatorConfig& config() const { return config_; }
  // Lateral position of A-scan a and elevation of B-scan b.
  double xOf(int ascan) const;
  double yOf(int bscan) const;
  acquire::detail::CacheOutcome cacheOutcome() const { return cacheOutcome_; }
  const std::string& cacheMessage() const { return cacheMessage_; }
  const std::filesystem::path& cachePath() const { return cachePath_; }

 private:
  OctSimulatorConfig config_;
  OctAcquisition acquisition_;
  void synthesise(const acquire::ProgressFn& progress);

  std::vector<std::uint16_t> frames_;  // [bscans][config ascans][samples], left to right
  acquire::detail::CacheOutcome cacheOutcome_ = acquire::detail::CacheOutcome::Written;
  std::string cacheMessage_;
  std::filesystem::path cachePath_;
  // The stored A-scan at raw A-scan `raw` of B-scan `bscan` (scan direction and flyback).
  int storedAscan(std::uint64_t bscan, int raw) const;
};

}  // namespace cineflow::oct
