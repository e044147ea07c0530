#pragma once
// The band the echoes of a recording occupy, measured from its samples, for recordings that do
// not state their bandwidth: the RF and I/Q chains pass that band (ImagingParams::rfBandFor,
// iqBandwidthFor). A wide default band lets through the spectral structure of a pulse whose
// envelope has a flat, rippled top, and the image then peaks on a ripple instead of the
// pulse's centre (0.1 mm too deep on the Field II points: docs/ultrasound.md).

#include <cstddef>
#include <span>

#include "acquire/frame.hpp"

namespace cineflow::ultrasound {

struct EchoBand {
  double lowHz = 0;  // -6 dB points of the mean power spectrum around its peak
  double highHz = 0;
  double peakHz = 0;
  bool found = false;  // false: no band stands 6 dB above the rest (silence, noise, DC only)
};

// The -6 dB band of the mean power spectrum over the rows of one raw frame
// [transmits][elements][samples] of `type` (exactly acq.samplesPerFrame() samples). Each row
// (its first 16384 samples) is Hann-windowed and its mean removed; the spectrum is smoothed over
// about 2 % of fs before the peak (ignoring the lowest 2 % of the band, where offsets and drifts
// live) and its -6 dB points are found. Throws std::invalid_argument when the frame does not match
// acq.
EchoBand measureEchoBand(std::span<const std::byte> frame, acquire::SampleType type,
                         const acquire::AcquisitionParams& acq);

// Sets acq.fractionalBandwidth (marked measured) from measureEchoBand when it is 0 (unknown),
// the rows hold at least 8 samples and a band is found: the -6 dB band's width over f0. Leaves
// acq as it is otherwise.
void measureBandwidthIfUnknown(acquire::AcquisitionParams& acq, std::span<const std::byte> frame,
                               acquire::SampleType type);

}  // namespace cineflow::ultrasound
