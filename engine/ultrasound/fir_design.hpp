#pragma once
// FIR designs of the signal chain (docs/ultrasound.md): the RF chain's bandpass and the I/Q chain's
// demodulation low-pass, both Hamming-windowed sincs of odd length (zero phase when centred).

#include <cstddef>
#include <vector>

namespace cineflow::ultrasound {

// Odd-length (`taps`) Hamming-windowed sinc bandpass for [lowHz, highHz] at sampling rate fsHz,
// normalised to unit gain at the centre of the band. A high edge at or above 0.98 * fs/2 is
// clamped to 0.98 * fs/2 (a band reaching Nyquist has no room for the window's transition), and
// the centre is taken of the clamped band. Throws std::invalid_argument for an even or too small
// length, fs <= 0, or edges not satisfying 0 <= low < high (after clamping).
std::vector<float> designBandpassTaps(int taps, double lowHz, double highHz, double fsHz);

// An interpolating FIR split into its phases. Filtering x (rate fs) upsampled by `factor` with
// zeros through h (rate factor * fs, odd length, centred) gives, for output m = n * factor + p,
//   y[m] = sum_i taps[p * perPhase + i] * x[n + offsets[p] + i],  i in [0, perPhase)
// (phases shorter than perPhase are padded with zero taps). factor 1 is the plain filter.
struct PolyphaseFir {
  int factor = 1;
  int perPhase = 0;
  std::vector<float> taps;   // [factor][perPhase]
  std::vector<int> offsets;  // [factor]: the input index of each phase's first tap, minus n
};
// Splits the centred odd-length filter h (designed at factor * fs) into its phases.
PolyphaseFir splitPolyphase(const std::vector<float>& h, int factor);

// Odd-length Hamming-windowed sinc low-pass with its -6 dB point at cutoffHz, unit gain at 0 Hz.
// Throws std::invalid_argument for an even or too small length, or a cut-off outside (0, fs/2).
std::vector<float> designLowpassTaps(int taps, double cutoffHz, double fsHz);
// The length used for a cut-off: about four periods of the cut-off (a transition band of about
// cutoff / 1.2), odd, within [15, 255].
int lowpassTapsFor(double cutoffHz, double fsHz);

}  // namespace cineflow::ultrasound
