#pragma once
// Simulator: the built-in frame source. It synthesises plane-wave RF of the built-in 3-D phantom
// (phantom.hpp) for one elevation sweep of K slices, once, in the constructor, and then replays
// those K frames: frame k is slice k at elevation y_k. Frames are cached on disk
// (cacheDirectory()/sim-<hash>.bin, keyed by every config field and the phantom's scatterers), so
// the second start with the same config takes milliseconds.
//
// Signal model (docs/ultrasound.md): the plane wave steered by angle a crosses (0, 0) at t = 0; a
// scatterer (x, y, z) echoes into element x_e at
//   tau = (z cos a + x sin a + sqrt((x - x_e)^2 + z^2)) / c,
// sample n is taken at t0 + n / fs, the pulse is exp(-t^2 / (2 sigma_t^2)) cos(2 pi f0 t) with
// sigma_t set by the -6 dB fractional bandwidth, and the echo amplitude is the scatterer's
// amplitude x the Gaussian elevation beam profile at (y - y_k) x the element's obliquity z / r.
// Only scatterers within 3 elevation sigmas of the slice, and within the receive acceptance angle
// of the element, contribute. All frames share one int16 scale (peak echo at 1/4 of full scale),
// so brightness is comparable across slices.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "acquire/frame_source.hpp"
#include "acquire/sim_cache.hpp"
#include "base/cache_directory.hpp"
#include "ultrasound/phantom.hpp"
#include "ultrasound/ultrasound_source.hpp"

namespace cineflow::ultrasound {

struct SimulatorConfig {
  std::uint64_t seed = 1;  // seeds the phantom and the noise
  int elements = 128;
  double pitchM = 0.3e-3;  // element x is centred on 0
  double centerFrequencyHz = 5e6;
  double samplingFrequencyHz = 20e6;
  double fractionalBandwidth = 0.6;  // -6 dB bandwidth / f0
  std::vector<double> anglesDeg = {-10.0, 0.0, 10.0};
  double soundSpeedMPerS = 1540;
  double t0S = 0;
  double maxDepthM = 40e-3;          // samples = ceil((2 depth / c - t0) fs) + pulse margin, to 64
  int slicesPerVolume = 16;          // K
  double elevationHalfSpanM = 4e-3;  // y_k spans [-half, +half] evenly (0 when K = 1)
  double elevationSigmaM = 0.6e-3;   // Gaussian elevation beam profile
  double receiveAcceptanceDeg = 45;  // elements see scatterers within this angle of the normal
  bool noise = true;
  double noiseDb = -50;  // Gaussian noise sigma relative to the brightest (noise-free) echo
  double frameRateHz = 20;
  acquire::SampleType sampleType = acquire::SampleType::Int16;
  PhantomConfig phantom;

  // Throws std::invalid_argument naming the first bad field.
  void validate() const;
  // Every field that changes a sample, into a cache key.
  void addTo(acquire::detail::Hasher& hasher) const;
  int samples() const;
  acquire::AcquisitionParams acquisitionParams() const;
};

class Simulator final : public UltrasoundSource {
 public:
  using CacheOutcome = acquire::detail::CacheOutcome;

  // Builds the phantom from config.phantom and config.seed. `progress` is called on the
  // constructing thread with a fraction in [0, 1] and what is happening ("cache: loaded ...",
  // "simulating slice 3 of 16", "warning: ..."). Throws std::invalid_argument for a bad config.
  explicit Simulator(const SimulatorConfig& config, const acquire::ProgressFn& progress = {});
  // Uses the given phantom instead (config.phantom and the seed's effect on it are ignored).
  Simulator(const SimulatorConfig& config, Phantom phantom,
            const acquire::ProgressFn& progress = {});

  const acquire::AcquisitionParams& params() const override { return params_; }
  acquire::SampleType sampleType() const override { return config_.sampleType; }
  double frameRateHz() const override { return config_.frameRateHz; }
  std::uint64_t frameCount() const override { return static_cast<std::uint64_t>(slices()); }
  // Copies slice `index` (< K) and reports (index, y_index); throws SourceError for an index out
  // of range or a wrongly sized `dst`. Thread-safe: the frames are immutable after construction.
  void readFrame(std::uint64_t index, std::span<std::byte> dst, acquire::SliceInfo& slice) override;
  std::string describe() const override;

  const SimulatorConfig& config() const { return config_; }
  const Phantom& phantom() const { return phantom_; }
  int slices() const { return config_.slicesPerVolume; }
  double elevationM(int slice) const;
  acquire::detail::CacheOutcome cacheOutcome() const { return cacheOutcome_; }
  const std::string& cacheMessage() const { return cacheMessage_; }
  const std::filesystem::path& cachePath() const { return cachePath_; }
  // Scale from the synthesised (float) RF to the stored samples.
  double sampleScale() const { return sampleScale_; }

  // $CINEFLOW_CACHE_DIR, else $XDG_CACHE_HOME/cineflow, else ~/.cache/cineflow, else
  // <temp>/cineflow-cache.
  static std::filesystem::path cacheDirectory() { return base::cacheDirectory(); }

 private:
  void synthesise(const acquire::ProgressFn& progress);

  SimulatorConfig config_;
  Phantom phantom_;
  acquire::AcquisitionParams params_;
  std::vector<std::byte> frames_;  // K frames of frameBytes() each
  double sampleScale_ = 1;
  acquire::detail::CacheOutcome cacheOutcome_ = acquire::detail::CacheOutcome::Written;
  std::string cacheMessage_;
  std::filesystem::path cachePath_;
};

}  // namespace cineflow::ultrasound
