#pragma once
// Imaging parameters: the reconstruction grid and the signal-chain settings (docs/ultrasound.md).

#include <string>
#include <utility>

#include "acquire/frame.hpp"
#include "process/image_geometry.hpp"
#include "ultrasound/doppler_params.hpp"

namespace cineflow::ultrasound {

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

// RF: bandpass, DAS on RF, Hilbert envelope. I/Q: demodulation and low-pass, DAS on I/Q with phase
// rotation, |IQ| (docs/ultrasound.md). RF data sampled below 2 f0 (bandpass sampling) can only be
// imaged in I/Q mode. Colour and power Doppler: the I/Q chain, and from its beamformed I/Q the
// flow (ultrasound/flow_estimator.hpp) as the image's flow layers (process/image_geometry.hpp);
// the two differ in how the image is shown (velocity, or power), not in what is computed.
enum class ImagingMode { Rf, Iq, ColourDoppler, PowerDoppler };
// "rf" | "iq" | "doppler" | "power-doppler"
const char* toString(ImagingMode mode) noexcept;
// Throws std::invalid_argument for anything but those (and "colour-doppler", "color-doppler").
ImagingMode parseImagingMode(const std::string& text);
bool isDoppler(ImagingMode mode) noexcept;
// I/Q and both Doppler modes: the demodulator and the I/Q beamformer.
bool usesIqChain(ImagingMode mode) noexcept;
// True when fs < 2 f0: the RF chain cannot image the acquisition.
bool isBandpassSampled(const acquire::AcquisitionParams& acq);
// For the operator when defaultsFor() chose I/Q by itself: "sampled at 6.67 MHz, below 2 x f0 =
// 10.0 MHz: imaging in I/Q mode"; empty when the acquisition is not bandpass sampled.
std::string bandpassSamplingNotice(const acquire::AcquisitionParams& acq);

// The receive apodisation over the aperture |x - x_e| < z / (2 fNumber): a Hann window
// (default: lower side lobes), or rectangular (uniform weights, as PyMUST's dasmtx uses).
enum class Apodisation { Hann, Rectangular };
const char* toString(Apodisation apodisation) noexcept;  // "hann" | "rect"
// Throws std::invalid_argument for anything but "hann" and "rect".
Apodisation parseApodisation(const std::string& text);

// The I/Q low-pass bandwidth (relative to f0) used when neither the imaging parameters nor the
// acquisition give one: 100 %, a cut-off at f0 / 2, wider than typical probes' -6 dB band.
inline constexpr double kDefaultIqBandwidthRel = 1.0;

// RF mode: linear interpolation between samples of a sinusoid at f loses up to 1 - cos(pi f / fs)
// of its amplitude between samples, which distorts the envelope and moves its peak; at 8 samples
// per period of the band's upper edge that is under 8 %. Measured on the Field II points and on
// random phantoms (test_point_accuracy): docs/ultrasound.md.
inline constexpr double kRfSamplesPerPeriod = 8.0;
inline constexpr int kMaxRfUpsampling = 8;

struct ImagingParams {
  ImagingGrid grid;
  ImagingMode mode = ImagingMode::Rf;
  double fNumber = 1.5;  // receive aperture width = depth / fNumber
  Apodisation apodisation = Apodisation::Hann;
  int firTaps = 65;  // bandpass length at the RF rate (odd); interpolating, it spans the same time
  // RF mode's bandpass edges relative to f0. Both 0 (the default) derive them from the
  // acquisition's bandwidth B (recorded or measured): f0 (1 -+ B / 2), or [0.5, 1.5] f0 when the
  // acquisition has none (rfBandFor).
  double bandLowRel = 0;
  double bandHighRel = 0;
  // RF mode: the bandpass also interpolates the RF by this factor, so that the beamformer's
  // linear interpolation sees at least kRfSamplesPerPeriod samples per period of the band's
  // upper edge; 0 (the default) picks it (rfUpsamplingFor), 1 keeps the recorded rate.
  int rfUpsampling = 0;
  // I/Q mode: the low-pass filter passes [-B/2, B/2] around the carrier (its -6 dB points) for a
  // bandwidth B = iqBandwidthRel * f0; 0 takes the acquisition's fractionalBandwidth (a file's
  // fractional_bandwidth_percent) or, when unknown, kDefaultIqBandwidthRel.
  double iqBandwidthRel = 0;
  int iqDecimation = 1;   // keep every Nth demodulated sample (1: all)
  DopplerParams doppler;  // the Doppler modes'
  // The bandwidth in effect for `acq` (relative to f0).
  double iqBandwidthFor(const acquire::AcquisitionParams& acq) const;
  // RF mode's bandpass edges in effect for `acq`, relative to f0: {low, high}.
  std::pair<double, double> rfBandFor(const acquire::AcquisitionParams& acq) const;
  // RF mode's interpolation factor in effect for `acq`, in [1, kMaxRfUpsampling].
  int rfUpsamplingFor(const acquire::AcquisitionParams& acq) const;
  // RF mode beamforms the echoes' band itself, and along depth an echo of frequency f
  // oscillates with period c / (2 f): a depth step above c / (4 f_high), f_high the top of the
  // band rfBandFor() passes, aliases it, and the envelope then loses point accuracy and cyst
  // contrast (I/Q mode's envelope has no such limit). The largest step that keeps the band, in
  // metres; 0 outside RF mode.
  double rfDepthStepLimit(const acquire::AcquisitionParams& acq) const;
  // For the operator when the grid's depth step is above that limit: "RF mode on a depth step
  // of 0.100 mm aliases the echoes' band (up to 4.55 MHz): use a step of at most 0.085 mm, or
  // --mode iq"; empty when the step keeps the band.
  std::string coarseRfGridNotice(const acquire::AcquisitionParams& acq) const;
  // The deepest point the recording reaches at normal incidence: c (t0 + (samples - 1) / fs) / 2
  // (the last sample's two-way path; steered transmits reach a little further laterally).
  static double recordedDepthM(const acquire::AcquisitionParams& acq);
  // For the operator when the grid reaches well past that depth (over kPastDataTolerance of its
  // span): "the grid reaches 500.0 mm but the recording ends at about 52.3 mm: the 90 % of its
  // rows below are black and still cost time"; empty otherwise. Said, not refused: steered
  // transmits do see a little deeper.
  std::string gridPastDataNotice(const acquire::AcquisitionParams& acq) const;
  static constexpr double kPastDataTolerance = 0.05;
  // Reasonable defaults for a recording: the array's lateral extent, depth from 5 mm (or the
  // first sample) to the last sample, dz = lambda/8 (keeps the beamformed RF above Nyquist);
  // RF mode, or I/Q mode when the acquisition is bandpass sampled (isBandpassSampled).
  static ImagingParams defaultsFor(const acquire::AcquisitionParams& acq);
  // The reconstruction grid as a one-layer image (what the beamformers produce).
  process::ImageGeometry geometry() const;
  // The chain's output for `acq`: geometry(), with the flow layers and the aliasing velocity in
  // the Doppler modes.
  process::ImageGeometry imageGeometry(const acquire::AcquisitionParams& acq) const;
  // Throws std::invalid_argument naming the bad parameter and the accepted range.
  void validate(const acquire::AcquisitionParams& acq) const;
  // The I/Q parameters alone (validate() checks them in I/Q mode; the I/Q stages always): the
  // bandwidth within (0, fs / D], decimation in [1, 64] leaving 2 samples, and the image of the
  // negative band (at -2 f0, aliased by the sampling) clear of the low-pass band.
  void validateIq(const acquire::AcquisitionParams& acq) const;
  bool operator==(const ImagingParams&) const = default;
};

}  // namespace cineflow::ultrasound
