#pragma once
// MATLAB import: channel data from a .mat file (v5 through matio; v7.3, which is HDF5, through
// matio's HDF5 support), described by a small mapping, as a recording in memory that the engine
// replays (MatSource) or that store/rf_writer.hpp writes as cineflow.rf/1 (`cineflow convert`).
//
// The mapping says which variable holds the RF, the order of its dimensions as MATLAB stores them
// (first = fastest), and where each acquisition parameter comes from: a variable or struct field
// ("param.fs", nested fields allowed) or a literal number ("1540"). Transmit angles come from a
// number (every transmit), a variable of one angle per transmit (radians), or "delays:VAR", a
// [transmits x elements] matrix of transmit delays (seconds) from which each plane wave's angle is
// fitted (sin a = c d(delay)/dx). Element positions are (e - (E - 1) / 2) pitch.
//
// Every inconsistency throws SourceError naming the file, the variable and what was expected
// ("PWI.mat: param.Nelements is 64, but the elements dimension of RF has 128").

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "acquire/frame.hpp"
#include "acquire/frame_source.hpp"
#include "ultrasound/ultrasound_source.hpp"

namespace cineflow::ultrasound {

struct MatMapping {
  std::string rf = "RF";
  // MATLAB's dimension order of the RF variable: "samples", "elements", optional "transmits" and
  // "frames", each once. Trailing singleton dimensions may be absent from the file.
  std::vector<std::string> order = {"samples", "elements", "frames"};
  std::string samplingFrequency = "param.fs";  // Hz
  std::string centerFrequency = "param.fc";    // Hz
  std::string soundSpeed = "param.c";          // m/s
  std::string t0 = "param.t0";                 // s, time of sample 0
  std::string pitch = "param.pitch";           // m
  std::string angles = "delays:param.TXdelay";
  std::string bandwidthPercent = "param.bandwidth";  // optional: empty when there is none
  std::string elements = "param.Nelements";          // optional: a check on the RF's dimension
  std::string prf = "param.PRF";  // optional: pulse repetition frequency (Hz), for Doppler

  // The layout of Verasonics exports as PyMUST stores them (PWI_disk.mat): RF [samples x
  // elements x frames], a struct `param` with fs, fc, c, t0, pitch, TXdelay, bandwidth, Nelements,
  // PRF.
  static MatMapping verasonics();
  // "key=value;key=value" with keys rf, order (comma-separated), fs, f0, c, t0, pitch, angles,
  // bandwidth, elements, prf (white space around keys, values and order names is ignored); keys not
  // given keep the values of `base`. Throws std::invalid_argument.
  static MatMapping parse(const std::string& text, const MatMapping& base = verasonics());
  std::string toString() const;
};

// A recording in memory: [frames][transmits][elements][samples], int16 when the file's samples are
// integers that fit (MATLAB often stores int16 data as double), otherwise float32.
struct ImportedRecording {
  acquire::AcquisitionParams acq;
  acquire::SampleType sampleType = acquire::SampleType::Int16;
  std::uint64_t frames = 0;
  std::vector<std::int16_t> int16Samples;
  std::vector<float> float32Samples;
  std::string note;  // what the import decided ("RF double with integer values: stored as int16")

  std::span<const std::byte> frameBytes(std::uint64_t frame) const;
};

// The largest recordings the import accepts (a wrong dimension order shows up here first).
inline constexpr std::size_t kMaxImportSamples = 1u << 24;
inline constexpr std::size_t kMaxImportElements = 1u << 16;
inline constexpr std::size_t kMaxImportTransmits = 1u << 12;

// Throws SourceError as described above; also when the RF is not a non-empty real numeric array,
// a parameter is not a positive finite number (t0: finite), a sample is NaN, infinite or beyond
// single precision, or the shape exceeds the limits above. `progress` hears the phases (reading,
// checking, reordering frame by frame); an exception it throws abandons the import.
ImportedRecording importMat(const std::filesystem::path& path, const MatMapping& mapping,
                            const acquire::ProgressFn& progress = {});

// Replays an ImportedRecording (frames in memory).
class MatSource final : public UltrasoundSource {
 public:
  MatSource(ImportedRecording recording, std::string name, double frameRateHz = 20.0);
  const acquire::AcquisitionParams& params() const override { return recording_.acq; }
  acquire::SampleType sampleType() const override { return recording_.sampleType; }
  double frameRateHz() const override { return frameRateHz_; }
  std::uint64_t frameCount() const override { return recording_.frames; }
  void readFrame(std::uint64_t index, std::span<std::byte> dst, acquire::SliceInfo& slice) override;
  std::string describe() const override;

 private:
  ImportedRecording recording_;
  std::string name_;
  double frameRateHz_;
};

}  // namespace cineflow::ultrasound
