// Writes the fuzz harnesses' seed corpora into DIR/<harness>/: valid inputs each harness's format
// starts from, so that the fuzzer begins inside the formats rather than at random bytes.
//   make_fuzz_seeds DIR [DATA]
// The recordings are made from the real ones in DATA (the repository's data/: the Field II points
// and the Verasonics rotating disk, cut down to a few elements and samples so that each input
// parses in microseconds), written plain and as raw recordings in every compression; without
// DATA, from a seeded synthetic recording. OCT recordings come from the OCT simulator,
// MATLAB files from the same cut-down channel data (v5 plain and compressed, v7.3), the text
// formats from typical files.
#include <lz4.h>
#include <matio.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "acquire/frame_source.hpp"
#include "link/igtl_image.hpp"
#include "modality/modality.hpp"
#include "oct/oct_simulator.hpp"
#include "oct/oct_writer.hpp"
#include "process/chunk_codec.hpp"
#include "received/received_source.hpp"
#include "store/raw_recorder.hpp"
#include "store/volume_writer.hpp"
#include "tune/tuning_history.hpp"
#include "ultrasound/mat_import.hpp"
#include "ultrasound/rf_file_source.hpp"
#include "ultrasound/rf_writer.hpp"

using namespace cineflow;
namespace fs = std::filesystem;

namespace {

void write(const fs::path& path, const std::vector<std::uint8_t>& bytes) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
}

void writeText(const fs::path& path, const std::string& text) {
  write(path, std::vector<std::uint8_t>(text.begin(), text.end()));
}

// A recording cut down to its first `transmits` transmits, `elements` central elements,
// `samples` samples from `firstSample` on, and `frames` frames.
ultrasound::ImportedRecording cutDown(acquire::FrameSource& source,
                                      const acquire::AcquisitionParams& full,
                                      acquire::SampleType type, std::size_t transmits,
                                      std::size_t elements, std::size_t samples,
                                      std::size_t firstSample, std::uint64_t frames) {
  ultrasound::ImportedRecording out;
  out.acq = full;
  transmits = std::min(transmits, full.anglesRad.size());
  elements = std::min(elements, full.elementXM.size());
  firstSample =
      std::min<std::size_t>(firstSample, static_cast<std::size_t>(full.samples) - samples);
  const std::size_t firstElement = (full.elementXM.size() - elements) / 2;
  out.acq.anglesRad.resize(transmits);
  out.acq.elementXM.assign(
      full.elementXM.begin() + static_cast<std::ptrdiff_t>(firstElement),
      full.elementXM.begin() + static_cast<std::ptrdiff_t>(firstElement + elements));
  out.acq.samples = static_cast<int>(samples);
  out.acq.t0S = full.t0S + static_cast<double>(firstSample) / full.samplingFrequencyHz;
  out.sampleType = type;
  out.frames = std::min(frames, source.frameCount());
  const std::size_t sampleBytes = acquire::sampleBytes(type);
  std::vector<std::byte> frame(source.frameBytes());
  acquire::SliceInfo slice;
  for (std::uint64_t f = 0; f < out.frames; ++f) {
    source.readFrame(f, frame, slice);
    for (std::size_t t = 0; t < transmits; ++t) {
      for (std::size_t e = 0; e < elements; ++e) {
        const std::size_t line =
            (t * full.elementXM.size() + firstElement + e) * static_cast<std::size_t>(full.samples);
        const std::byte* from = frame.data() + (line + firstSample) * sampleBytes;
        if (type == acquire::SampleType::Int16) {
          const auto* values = reinterpret_cast<const std::int16_t*>(from);
          out.int16Samples.insert(out.int16Samples.end(), values, values + samples);
        } else {
          const auto* values = reinterpret_cast<const float*>(from);
          out.float32Samples.insert(out.float32Samples.end(), values, values + samples);
        }
      }
    }
  }
  return out;
}

// A synthetic recording when the real ones are absent: seeded noise in an echo's envelope.
ultrasound::ImportedRecording synthetic() {
  ultrasound::ImportedRecording out;
  out.acq.samplingFrequencyHz = 20e6;
  out.acq.centerFrequencyHz = 5e6;
  out.acq.soundSpeedMPerS = 1540;
  out.acq.t0S = 0;
  out.acq.anglesRad = {-0.1, 0.1};
  for (int e = 0; e < 16; ++e) {
    out.acq.elementXM.push_back((e - 7.5) * 3e-4);
  }
  out.acq.samples = 128;
  out.frames = 2;
  std::mt19937 random(26);
  std::normal_distribution<double> noise(0, 300);
  out.int16Samples.resize(out.frames * out.acq.samplesPerFrame());
  for (auto& v : out.int16Samples) {
    v = static_cast<std::int16_t>(noise(random));
  }
  return out;
}

// `source`'s frames as raw recordings (store/raw_recorder.hpp) in every compression.
void rawRecordings(acquire::FrameSource& source, const fs::path& folder, const std::string& stem) {
  const modality::Modality& modality = source.modality();
  const auto settings = modality.defaultSettings(source);
  for (const store::RecordCompression compression :
       {store::RecordCompression::None, store::RecordCompression::Lz4,
        store::RecordCompression::BitshuffleLz4}) {
    const fs::path path = folder / (stem + "-raw-" + store::toString(compression) + ".h5");
    fs::remove(path);
    store::RawRecorder recorder(path, modality.recordingLayout(source, *settings), compression,
                                store::RecordPolicy::Block);
    std::vector<std::byte> frame(source.frameBytes());
    for (std::uint64_t f = 0; f < std::min<std::uint64_t>(source.frameCount(), 3); ++f) {
      acquire::FrameHeader header;
      header.sequence = f;
      source.readFrame(f, frame, header.slice);
      recorder.submit(header, frame);
    }
    const store::RecorderStats stats = recorder.stop();
    if (!stats.error.empty()) {
      throw std::runtime_error(path.string() + ": " + stats.error);
    }
  }
}

// The MATLAB layout PyMUST stores Verasonics exports in (MatMapping::verasonics()).
void matFile(const ultrasound::ImportedRecording& rec, const fs::path& path, mat_ft version,
             matio_compression compression) {
  fs::remove(path);
  mat_t* mat = Mat_CreateVer(path.c_str(), nullptr, version);
  if (mat == nullptr) {
    throw std::runtime_error("cannot create " + path.string());
  }
  const std::size_t samples = static_cast<std::size_t>(rec.acq.samples);
  const std::size_t elements = rec.acq.elementXM.size();
  std::vector<double> rf(samples * elements * rec.frames);
  for (std::uint64_t f = 0; f < rec.frames; ++f) {  // the first transmit of each frame
    for (std::size_t e = 0; e < elements; ++e) {
      for (std::size_t s = 0; s < samples; ++s) {
        rf[(f * elements + e) * samples + s] =
            rec.int16Samples.empty()
                ? rec.float32Samples[(f * rec.acq.samplesPerFrame()) + e * samples + s]
                : rec.int16Samples[(f * rec.acq.samplesPerFrame()) + e * samples + s];
      }
    }
  }
  std::size_t rfDims[3] = {samples, elements, static_cast<std::size_t>(rec.frames)};
  matvar_t* rfVar = Mat_VarCreate("RF", MAT_C_DOUBLE, MAT_T_DOUBLE, 3, rfDims, rf.data(), 0);
  Mat_VarWrite(mat, rfVar, compression);
  Mat_VarFree(rfVar);
  const char* names[] = {"fs",      "fc",        "c",         "t0", "pitch",
                         "TXdelay", "bandwidth", "Nelements", "PRF"};
  std::size_t one[2] = {1, 1};
  matvar_t* param = Mat_VarCreateStruct("param", 2, one, names, 9);
  const double pitch = rec.acq.elementXM[1] - rec.acq.elementXM[0];
  const double scalars[] = {rec.acq.samplingFrequencyHz, rec.acq.centerFrequencyHz,
                            rec.acq.soundSpeedMPerS, rec.acq.t0S, pitch};
  for (int k = 0; k < 5; ++k) {
    Mat_VarSetStructFieldByName(
        param, names[k], 0,
        Mat_VarCreate(nullptr, MAT_C_DOUBLE, MAT_T_DOUBLE, 2, one, const_cast<double*>(&scalars[k]),
                      MAT_F_DONT_COPY_DATA));
  }
  std::vector<double> delays(elements);
  for (std::size_t e = 0; e < elements; ++e) {
    delays[e] = std::sin(rec.acq.anglesRad[0]) * (rec.acq.elementXM[e] - rec.acq.elementXM[0]) /
                rec.acq.soundSpeedMPerS;
  }
  std::size_t delayDims[2] = {1, elements};
  Mat_VarSetStructFieldByName(
      param, "TXdelay", 0,
      Mat_VarCreate(nullptr, MAT_C_DOUBLE, MAT_T_DOUBLE, 2, delayDims, delays.data(), 0));
  static const double bandwidth = 70, nelements = 16, prf = 5000;
  const double* optional[] = {&bandwidth, &nelements, &prf};
  const double count = static_cast<double>(elements);
  optional[1] = &count;
  for (int k = 0; k < 3; ++k) {
    Mat_VarSetStructFieldByName(param, names[6 + k], 0,
                                Mat_VarCreate(nullptr, MAT_C_DOUBLE, MAT_T_DOUBLE, 2, one,
                                              const_cast<double*>(optional[k]), 0));
  }
  Mat_VarWrite(mat, param, compression);
  Mat_VarFree(param);
  Mat_Close(mat);
}

void recordingSeeds(const fs::path& root, const fs::path& shared) {
  const fs::path rf = root / "fuzz_rf_recording";
  const fs::path mat = root / "fuzz_mat_file";
  fs::create_directories(rf);
  fs::create_directories(mat);
  std::vector<std::pair<std::string, ultrasound::ImportedRecording>> recordings;
  for (const char* name : {"field2_pw3_points", "verasonics_rotating_disk"}) {
    const fs::path file = shared / (std::string(name) + ".h5");
    if (shared.empty() || !fs::exists(file)) {
      continue;
    }
    ultrasound::RfFileSource source(file, 0);
    recordings.emplace_back(name,
                            cutDown(source, source.params(), source.sampleType(), 2, 16, 96,
                                    static_cast<std::size_t>(source.params().samples) / 3, 2));
  }
  if (recordings.empty()) {
    std::cerr << "make_fuzz_seeds: no shared data: synthetic recordings only\n";
    recordings.emplace_back("synthetic", synthetic());
  }
  for (auto& [name, recording] : recordings) {
    ultrasound::writeRfRecording(rf / (name + ".h5"), recording);
    ultrasound::MatSource source(recording, name, 0);
    rawRecordings(source, rf, name);
    matFile(recording, mat / (name + "-v5.mat"), MAT_FT_MAT5, MAT_COMPRESSION_NONE);
    matFile(recording, mat / (name + "-v5-zlib.mat"), MAT_FT_MAT5, MAT_COMPRESSION_ZLIB);
    matFile(recording, mat / (name + "-v73.mat"), MAT_FT_MAT73, MAT_COMPRESSION_NONE);
  }
}

void octSeeds(const fs::path& root) {
  const fs::path folder = root / "fuzz_oct_recording";
  fs::create_directories(folder);
  oct::OctSimulatorConfig config;
  config.samples = 64;
  config.ascans = 12;
  config.bscans = 2;
  oct::OctSimulator simulator(config);
  fs::remove(folder / "simulated.h5");
  oct::recordOctSource(folder / "simulated.h5", simulator);
  rawRecordings(simulator, folder, "simulated");

  // Raw spectra: the description, a NUL, the binary.
  const fs::path raw = root / "fuzz_raw_oct";
  const std::string description = R"({"samples": 64, "ascans": 12, "bit_depth": 12,
    "header_bytes": 8, "sample_format": "uint16", "wavelength_first_m": 8.0e-7,
    "wavelength_last_m": 8.8e-7, "centre_wavelength_m": 8.4e-7, "bandwidth_m": 4e-8,
    "bscans_per_volume": 2, "bidirectional": false, "flyback_ascans": 2,
    "lateral_step_m": 1e-5, "elevation_step_m": 1e-5, "line_rate_hz": 50000,
    "dispersion_a2_rad": 60, "dispersion_a3_rad": 20})";
  std::vector<std::uint8_t> input(description.begin(), description.end());
  input.push_back(0);
  std::mt19937 random(26);
  for (std::size_t k = 0; k < 8 + 2 * 64 * 12 * 2; ++k) {
    input.push_back(static_cast<std::uint8_t>(random()));
  }
  write(raw / "described.bin", input);
  writeText(raw / "polynomial.json",
            R"({"samples": 32, "ascans": 4, "bit_depth": 16, "sample_format": "uint16be",
    "wavelength_polynomial_m": [8e-7, 1e-9, 0], "centre_wavelength_m": 8.2e-7,
    "bscans_per_volume": 0, "bidirectional": 1, "flyback_ascans": 0, "lateral_step_m": 1e-5,
    "elevation_step_m": 0})");
}

void volumeSeeds(const fs::path& root) {
  process::VolumeInfo info;
  info.shape = {3, 5, 4};
  info.slice = {4, 5, -1e-3, 5e-4, 5e-3, 2e-4};
  info.elevationM = {-1e-4, 0, 1e-4};
  info.sequence = {0, 1, 2};
  info.timestampNs = {0, 50000000, 100000000};
  std::vector<float> volume(info.shape.voxels()), y(info.shape.alongY()), z(info.shape.alongZ()),
      x(info.shape.alongX());
  std::mt19937 random(26);
  std::uniform_real_distribution<float> db(-60, 0);
  for (auto* v : {&volume, &y, &z, &x}) {
    for (float& value : *v) {
      value = db(random);
    }
  }
  const fs::path path = root / "fuzz_volume_file" / "volume.h5";
  fs::create_directories(path.parent_path());
  fs::remove(path);
  store::writeVolumeFile(path, info, {volume, y, z, x}, {});
}

void chunkSeeds(const fs::path& folder) {
  std::mt19937 random(26);
  int n = 0;
  for (const acquire::ChunkCodec codec :
       {acquire::ChunkCodec::BitshuffleLz4, acquire::ChunkCodec::Lz4}) {
    for (const std::size_t elementBytes : {std::size_t{2}, std::size_t{4}}) {
      for (const std::size_t elements : {std::size_t{64}, std::size_t{1000}, std::size_t{4096}}) {
        // Echo-like samples: small values and runs, as channel data compresses.
        std::vector<std::byte> frame(elements * elementBytes);
        std::normal_distribution<double> noise(0, 300);
        for (std::size_t k = 0; k < frame.size(); k += elementBytes) {
          const auto value = static_cast<std::int32_t>(noise(random));
          for (std::size_t b = 0; b < elementBytes; ++b) {
            frame[k + b] = static_cast<std::byte>((value >> (8 * b)) & 0xff);
          }
        }
        std::vector<std::byte> chunk;
        const std::size_t bytes = process::encodeChunk(frame, codec, elementBytes, chunk);
        std::vector<std::uint8_t> input = {
            static_cast<std::uint8_t>(codec == acquire::ChunkCodec::BitshuffleLz4 ? 0 : 1),
            static_cast<std::uint8_t>(elementBytes == 2 ? 1 : 2),
            static_cast<std::uint8_t>(elements & 0xff), static_cast<std::uint8_t>(elements >> 8)};
        for (std::size_t k = 0; k < bytes; ++k) {
          input.push_back(static_cast<std::uint8_t>(chunk[k]));
        }
        write(folder / ("chunk-" + std::to_string(n++)), input);
      }
    }
  }
}

void lz4BlockSeeds(const fs::path& folder) {
  std::mt19937 random(26);
  std::normal_distribution<double> noise(0, 40);
  int n = 0;
  for (const std::size_t bytes : {std::size_t{64}, std::size_t{1024}, std::size_t{8192}}) {
    for (const int elementShift : {0, 1, 2}) {
      std::vector<char> block(bytes);
      for (std::size_t k = 0; k < bytes; k += 2) {
        const auto value = static_cast<std::int16_t>(noise(random));
        block[k] = static_cast<char>(value & 0xff);
        block[k + 1] = static_cast<char>((value >> 8) & 0xff);
      }
      std::vector<char> compressed(
          static_cast<std::size_t>(LZ4_compressBound(static_cast<int>(bytes))));
      const int size =
          LZ4_compress_default(block.data(), compressed.data(), static_cast<int>(bytes),
                               static_cast<int>(compressed.size()));
      std::vector<std::uint8_t> input = {
          static_cast<std::uint8_t>(bytes & 0xff),
          static_cast<std::uint8_t>((bytes >> 8) | (elementShift << 6))};
      input.insert(input.end(), compressed.begin(), compressed.begin() + size);
      write(folder / ("block-" + std::to_string(n++)), input);
    }
  }
}

void streamSeeds(const fs::path& root, const fs::path& shared) {
  const fs::path folder = root / "fuzz_stream_message";
  nlohmann::json header = {{"type", "header"},
                           {"schema", "cineflow.stream/1"},
                           {"modality", "ultrasound"},
                           {"sample_type", "int16"},
                           {"samples", 96},
                           {"sampling_frequency_hz", 20.8e6},
                           {"center_frequency_hz", 5.2e6},
                           {"sound_speed_m_s", 1540},
                           {"t0_s", 0},
                           {"frame_rate_hz", 100},
                           {"pulse_repetition_frequency_hz", 5000},
                           {"angles_rad", {-0.1, 0, 0.1}},
                           {"element_x_m", {-3e-4, -1e-4, 1e-4, 3e-4}},
                           {"description", "lab scanner"}};
  if (!shared.empty() && fs::exists(shared / "verasonics_rotating_disk.h5")) {
    ultrasound::RfFileSource disk(shared / "verasonics_rotating_disk.h5", 0);
    header["angles_rad"] = disk.params().anglesRad;
    header["element_x_m"] = disk.params().elementXM;
    header["samples"] = disk.params().samples;
    header["sampling_frequency_hz"] = disk.params().samplingFrequencyHz;
    header["center_frequency_hz"] = disk.params().centerFrequencyHz;
  }
  const auto message = [&](std::uint8_t flags, std::uint32_t part, const std::string& json) {
    std::vector<std::uint8_t> input = {flags, static_cast<std::uint8_t>(part & 0xff),
                                       static_cast<std::uint8_t>((part >> 8) & 0xff),
                                       static_cast<std::uint8_t>((part >> 16) & 0xff),
                                       static_cast<std::uint8_t>(part >> 24)};
    input.insert(input.end(), json.begin(), json.end());
    return input;
  };
  write(folder / "header", message(0, 0, header.dump()));
  write(folder / "frame",
        message(1, 2 * 3 * 4 * 96, R"({"type": "frame", "sequence": 17, "timestamp_ns": 12345})"));
  write(folder / "end", message(0, 0, R"({"type": "end"})"));

  // A source plugin's description: the numbers fuzz_plugin_stream reads, then the arrays.
  struct Numbers {
    std::uint32_t sampleType, transmits, elements, samples, framesPerVolume;
    std::uint64_t frameBytes, frameCount;
    double samplingHz, centreHz, soundSpeed, t0, bandwidth, prf, frameRate;
  } numbers{0, 3, 4, 96, 0, 2 * 3 * 4 * 96, 0, 20.8e6, 5.2e6, 1540, 0, 0.7, 5000, 100};
  std::vector<std::uint8_t> plugin(sizeof numbers);
  std::memcpy(plugin.data(), &numbers, sizeof numbers);
  for (const double value : {-0.1, 0.0, 0.1, -3e-4, -1e-4, 1e-4, 3e-4}) {
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(&value);
    plugin.insert(plugin.end(), bytes, bytes + sizeof value);
  }
  write(root / "fuzz_plugin_stream" / "lab-scanner", plugin);
}

// OpenIGTLink messages as servers send them (libOpenIGTLink packs them: link/igtl_image.hpp):
// IMAGE of 8-bit levels and of float dB, and a STATUS.
void igtlSeeds(const fs::path& folder) {
  process::ImageGeometry geometry;
  geometry.nx = 24;
  geometry.nz = 16;
  geometry.dx = 2e-4;
  geometry.dz = 1e-4;
  geometry.x0 = -2.3e-3;
  geometry.z0 = 5e-3;
  std::vector<float> dB(geometry.pixels());
  std::mt19937 random(5);
  std::uniform_real_distribution<float> level(-70.0f, 0.0f);
  for (float& v : dB) {
    v = level(random);
  }
  const link::LinkImage image{geometry, 1, 0, 0, dB};
  const auto save = [&](const char* name, const std::vector<std::uint8_t>& message) {
    write(folder / name, message);
  };
  save("image-display8", link::packImage("Image_Reference", image, link::LinkPixels::Display8, {}));
  save("image-float-db", link::packImage("Cineflow", image, link::LinkPixels::FloatDb, {}));
  save("status", link::packStatus("Cineflow", true, "imaging"));
}

// Images another system formed, as an OpenIGTLink server would send them: seeded uint8 levels,
// the source a recording of received images is made from.
class SeedImages final : public received::ReceivedSource {
 public:
  SeedImages() {
    format_.cols = 24;
    format_.rows = 16;
    format_.dxM = 2e-4;
    format_.dzM = 1e-4;
    format_.z0M = 5e-3;
    format_.device = "Image_Reference";
  }
  const received::ReceivedFormat& format() const override { return format_; }
  double frameRateHz() const override { return 0; }
  std::uint64_t frameCount() const override { return 3; }
  void readFrame(std::uint64_t index, std::span<std::byte> dst, acquire::SliceInfo&) override {
    std::mt19937 random(static_cast<unsigned>(index) + 11);
    for (std::byte& b : dst) {
      b = static_cast<std::byte>(random() & 0xff);
    }
  }
  std::string describe() const override { return "seed images"; }

 private:
  received::ReceivedFormat format_;
};

void textSeeds(const fs::path& root) {
  writeText(root / "fuzz_batch_plan" / "study.json", R"({
  "schema": "cineflow.batch/1",
  "inputs": ["recordings/*.h5", {"path": "disk.h5", "doppler_reference": "ref.h5"}, "sim"],
  "output": "results", "backend": "cpu", "frames": 4, "tune": false,
  "parameters": {"fnumber": [1.0, 1.5], "apodisation": ["hann", "rect"], "mode": "iq",
                 "grid": "-15:15:0.2,5:40:0.2", "wall-filter": ["regression:1", "svd:2"]},
  "slurm": {"partition": "gpu", "time": "00:30:00", "account": "lab", "jobs_per_task": 4,
            "cpus_per_task": 2}
})");
  writeText(root / "fuzz_batch_plan" / "oct.json", R"({"schema": "cineflow.batch/1",
  "inputs": ["oct-sim"], "parameters": {"oct-window": ["hann", "gaussian"],
  "oct-dispersion": "60,20", "refractive-index": 1.38, "variant": "beamform=scalar"}})");
  writeText(root / "fuzz_preset" / "probe.json", R"({
  "name": "Verasonics L7-4", "modality": "ultrasound",
  "display": {"gain_db": 0, "dynamic_range_db": 50, "colour_map": "grey"},
  "ultrasound": {"mode": "rf", "f_number": 1.5, "apodisation": "hann",
                 "grid_mm": "-19:19:0.1,5:40:0.05", "iq_bandwidth_percent": 60,
                 "doppler_ensemble": 16, "wall_filter": "regression:1",
                 "doppler_average": "3x3", "flow_threshold_db": 6, "flow_priority": 0.5}
})");
  writeText(root / "fuzz_preset" / "oct.json", R"json({"name": "OCT (skin)", "modality": "oct",
  "display": {"colour_map": "sepia"}, "oct": {"window": "hann", "refractive_index": 1.38}})json");

  tune::TuningHistory history;
  tune::TuningEntry entry;
  entry.key = {"NVIDIA H100", "13.0", "0.1.0", "beamform", "rf 3x192x2313 -> 381x351"};
  entry.chosen = "tiled";
  entry.variants = {{"scalar", 4.2, 0.1, 10}, {"tiled", 2.1, 0.05, 10}};
  history.put(entry);
  entry.key.stage = "envelope";
  entry.chosen = "fft";
  history.put(entry);
  fs::create_directories(root / "fuzz_tuning_history");
  history.save(root / "fuzz_tuning_history" / "tuning.json");

  const std::vector<std::vector<std::string>> lines = {
      {"--headless", "--input", "sim", "--output", "out.h5", "--frames", "8"},
      {"--headless", "--input", "rec.h5", "--output", "o.h5", "--mode", "iq", "--grid",
       "-15:15:0.1,5:45:0.1", "--fnumber", "1.5", "--apodisation", "rect"},
      {"--headless", "--input", "disk.h5", "--output", "d.h5", "--mode", "doppler", "--ensemble",
       "16", "--wall-filter", "svd:2", "--doppler-average", "3x3", "--colour-box", "-5:5,10:30"},
      {"--headless", "--input", "oct-sim", "--output", "o.h5", "--oct-dispersion", "1e-6,0",
       "--oct-window", "gaussian", "--refractive-index", "1.38"},
      {"--input=zmq:tcp://*:5555", "--backend=cpu", "--variant", "beamform=avx2", "--no-tune"},
      {"--headless", "--input", "sim", "--record", "r.h5", "--record-compression", "lz4",
       "--policy", "drop", "--on-damaged-frame", "skip", "--report", "r.json"}};
  int n = 0;
  for (const auto& line : lines) {
    std::vector<std::uint8_t> input;
    for (std::size_t k = 0; k < line.size(); ++k) {
      if (k > 0) {
        input.push_back(0);
      }
      input.insert(input.end(), line[k].begin(), line[k].end());
    }
    write(root / "fuzz_command_line" / ("line-" + std::to_string(n++)), input);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::cerr << "usage: make_fuzz_seeds DIR [DATA]\n";
    return 2;
  }
  const fs::path root = argv[1];
  const fs::path shared = argc > 2 ? fs::path(argv[2]) : fs::path();
  try {
    recordingSeeds(root, shared);
    octSeeds(root);
    volumeSeeds(root);
    chunkSeeds(root / "fuzz_chunk_decode");
    lz4BlockSeeds(root / "fuzz_lz4_device_block");
    streamSeeds(root, shared);
    igtlSeeds(root / "fuzz_igtl_message");
    {
      SeedImages images;
      fs::create_directories(root / "fuzz_received_recording");
      rawRecordings(images, root / "fuzz_received_recording", "received");
    }
    textSeeds(root);
  } catch (const std::exception& e) {
    std::cerr << "make_fuzz_seeds: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
